"""GET / for a browser, and /app/*: the built web app (docs/web.md).

In AWS these paths never reach the function: CloudFront serves /app/* from the site bucket
(template.yaml); local mode and tests serve the same files from web/dist here."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, redirect, request, send_from_directory

from app import blobs
from app.api.needs import needs
from app.errors import not_found

bp = Blueprint("web", __name__)
DIST = Path(__file__).resolve().parents[2] / "web" / "dist"
# Vite names these by their content hash: a new build is a new name, so they never go stale.
HASHED = "assets/"
# The app's own sources, this server's API, local mode's WebSocket on its own port, the QR
# image drawn into a data: URL, and the receipts' S3 endpoint (a photo is POSTed straight to
# it, its thumbnail read from it); nothing else from another origin (no CDN).
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:{s3}; "
          "connect-src 'self' ws: wss:{s3}; worker-src 'self'; manifest-src 'self'; "
          "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")


def policy() -> str:
    endpoint = blobs.client_options()["endpoint_url"]
    if not endpoint:
        return POLICY.format(s3="")
    parts = urlsplit(endpoint)
    return POLICY.format(s3=f" {parts.scheme}://{parts.netloc}")


def _wants_html() -> bool:
    """The request names text/html itself (a browser's navigation), not only */*: curl and
    API clients keep getting the JSON 404."""
    return any(value == "text/html" and quality > 0 for value, quality in request.accept_mimetypes)


@bp.route("/")
@needs(public=True, metered=False)
def root():
    if request.method == "GET" and _wants_html():
        return redirect("/app/", 302)
    raise not_found("Route")


@bp.route("/app")
@needs(public=True, metered=False)
def app_without_slash():
    return redirect("/app/", 301)


@bp.route("/app/")
@bp.route("/app/<path:path>")
@needs(public=True, metered=False)
def files(path: str = ""):
    if not (DIST / "index.html").is_file():
        raise not_found("The web app (web/dist: run make dev to build it)")
    known = path and (DIST / path).is_file() and DIST in (DIST / path).resolve().parents
    response = send_from_directory(DIST, path if known else "index.html",
                                   max_age=31536000 if known and path.startswith(HASHED) else 0)
    if known and path.startswith(HASHED):
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        # The page, its manifest and the service worker: always revalidated, so a deploy
        # reaches the next load.
        response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = policy()
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
