"""Swagger UI's scripts and styles for /docs, served by us from a pinned PyPI package.

flask-smorest renders the /docs page but only points at a base URL for Swagger UI's files;
a CDN there leaves /docs blank on a machine with no internet (local mode on a plane), so
the files come from the `flask-swagger-ui` wheel (requirements.txt) instead. Only its
`dist` folder is used: the page itself stays flask-smorest's, fed by /openapi.json."""
from __future__ import annotations

import functools

from flask import Blueprint, redirect, send_from_directory

from app.api.needs import needs


# Relative to the page at /docs, so it also resolves under an API Gateway stage prefix.
ASSETS_URL = "docs/assets/"

blp = Blueprint("docs-ui", __name__)

# Swagger UI otherwise fetches a badge from validator.swagger.io for non-loopback spec URLs.
SWAGGER_UI_CONFIG = {"validatorUrl": None}


@blp.route("/docs/")
@needs(public=True, metered=False)
def trailing_slash():
    """/docs/ is /docs: the page's relative asset URLs resolve only from /docs itself, so a
    permanent redirect, relative so that it keeps an API Gateway stage prefix."""
    return redirect("../docs", 308)


@blp.route("/docs/assets/<path:filename>")
@needs(public=True, metered=False)
def asset(filename: str):
    """One file of Swagger UI's distribution (404 outside it: send_from_directory refuses)."""
    return send_from_directory(_dist_dir(), filename, max_age=3600)


@functools.cache
def _dist_dir() -> str:
    # Found on first use: importing the package and importlib.resources' readers is ~7 ms
    # of every cold start otherwise, and few instances ever serve /docs.
    import importlib.resources
    return str(importlib.resources.files("flask_swagger_ui") / "dist")
