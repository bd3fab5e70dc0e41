"""The deployed API: one small Flask app per area, built on the first request to it.

Flask's "Application Dispatching" pattern (dispatch by path, apps created on first use). A
cold start imports the libraries and this module, not the ~90 routes' views, schemas and
services, nor compiles their URL rules; the first request to an area builds the app of that
area (``create_app(areas=[name])``: its blueprints registered the normal way) and the next
ones reuse it. Every app shares one ``Runtime`` (settings, JWKS and identity caches, the
developer gate), so an instance verifies tokens and counts limits once whichever app answers.

The area of a path comes from ``app.api.route_table`` (every rule, generated from the
blueprints): each rule's path as a pattern of the converters werkzeug itself uses. The
OpenAPI document and /docs are served by an app of every area (built on the first read of
either: it documents every area); a path of no area by the smallest app, whose 404 (or 308
to the merged-slash path) is the one any app of ours gives. Local mode and the tests run one
app of every area instead (``create_app()``): the same blueprints, hooks and handlers.
"""
from __future__ import annotations

import re
import threading
from typing import Callable, Dict, Optional

from flask import Flask
from werkzeug.routing import Map

# Served by the app of every area (app.api.spec: flask-smorest's document and Swagger UI page,
# app.api.docs_ui: Swagger UI's files).
DOCUMENT = None
DOCUMENT_PATHS = re.compile(r"/openapi\.json|/docs/?|/docs/assets/.*")
FALLBACK = "health"  # no rule of any area has the path: any app answers 404 alike
_CONVERTER = re.compile(r"<(?:(?P<converter>[a-zA-Z_][a-zA-Z0-9_]*):)?(?P<name>[a-zA-Z_]\w*)>")


def path_pattern(rule: str) -> str:
    """A regular expression for the paths ``rule`` matches, with werkzeug's converters."""
    pattern, position = [], 0
    for match in _CONVERTER.finditer(rule):
        pattern.append(re.escape(rule[position:match.start()]))
        converter = Map.default_converters[match.group("converter") or "default"]
        pattern.append(f"(?:{converter.regex})")
        position = match.end()
    pattern.append(re.escape(rule[position:]))
    return "".join(pattern)


class AreaDispatcher:
    """A WSGI app handing each request to the Flask app of its path's area."""

    def __init__(self, runtime, build: Callable[..., Flask]) -> None:
        self.runtime = runtime
        self._build = build  # build(areas=[name] or None) -> an app sharing the runtime
        self.apps: Dict[Optional[str], Flask] = {}
        self._lock = threading.Lock()
        self._areas: Optional[re.Pattern] = None
        # What a Flask app's extensions hold for every app here (the handler's users read it).
        self.extensions = {"tailspend": runtime}

    def __call__(self, environ, start_response):
        return self.app_for(environ.get("PATH_INFO", ""))(environ, start_response)

    def area_of(self, path: str) -> Optional[str]:
        """The area whose rules match ``path``; DOCUMENT (None) for the OpenAPI document."""
        path = re.sub("/{2,}", "/", path)  # as werkzeug's merge_slashes matches it
        if DOCUMENT_PATHS.fullmatch(path):
            return DOCUMENT
        match = self._patterns().fullmatch(path)
        return match.lastgroup if match else FALLBACK

    def app_for(self, path: str) -> Flask:
        return self.app(self.area_of(path))

    def app(self, area: Optional[str]) -> Flask:
        """The app of this area (DOCUMENT: of every area), built on first use."""
        app = self.apps.get(area)
        if app is None:
            with self._lock:
                app = self.apps.get(area)
                if app is None:
                    app = self._build(areas=None if area is DOCUMENT else [area])
                    self.apps[area] = app
        return app

    def load_everything(self) -> None:
        """Build every app now, as if each area had served a request (app.snapstart)."""
        from app.api import routes
        for area in routes.served(self.runtime.settings.local_mode):
            self.app(area.name)
        self.app(DOCUMENT)

    def test_client(self):
        """A werkzeug test client of the whole dispatcher (as Flask's is of one app)."""
        from flask import Response
        from werkzeug.test import Client
        return Client(self, Response)

    def _patterns(self) -> re.Pattern:
        if self._areas is None:
            from app.api import routes
            from app.api.route_table import RULES
            served = {area.name for area in routes.served(self.runtime.settings.local_mode)}
            by_area: Dict[str, list] = {}
            for rule, endpoint, _options in RULES:
                area = endpoint.split(".", 1)[0]
                if area in served:
                    by_area.setdefault(area, []).append(path_pattern(rule))
            self._areas = re.compile("|".join(
                f"(?P<{area}>{'|'.join(patterns)})" for area, patterns in by_area.items()))
        return self._areas
