"""Swagger UI's scripts and styles for /docs, served by us from a pinned PyPI package.

flask-smorest renders the /docs page but only points at a base URL for Swagger UI's files;
a CDN there leaves /docs blank on a machine with no internet (local mode on a plane), so
the files come from the `flask-swagger-ui` wheel (requirements.txt) instead. Only its
`dist` folder is used: the page itself stays flask-smorest's, fed by /openapi.json."""
from __future__ import annotations

import importlib.resources

from flask import Blueprint, send_from_directory

from app.api.context import public, unmetered

# Relative to the page at /docs, so it also resolves under an API Gateway stage prefix.
ASSETS_URL = "docs/assets/"
DIST_DIR = str(importlib.resources.files("flask_swagger_ui") / "dist")

blp = Blueprint("docs-ui", __name__)

# Swagger UI otherwise fetches a badge from validator.swagger.io for non-loopback spec URLs.
SWAGGER_UI_CONFIG = {"validatorUrl": None}


@blp.route("/docs/assets/<path:filename>")
@public
@unmetered
def asset(filename: str):
    """One file of Swagger UI's distribution (404 outside it: send_from_directory refuses)."""
    return send_from_directory(DIST_DIR, filename, max_age=3600)
