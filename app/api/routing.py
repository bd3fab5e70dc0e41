"""Start-up that pays only for what a request uses: lazy URL builders and lazy areas.

**URL builders.** werkzeug compiles two URL builders (Python source through ``ast`` and
``compile``) for every rule as it is added. With about a hundred routes that was roughly a
sixth of the API's cold start, yet a request only ever matches URLs; builders serve
``url_for``, which a handful of HTML pages call and most Lambda instances never do.
Matching is unchanged.

Flask's documented hook is ``Flask.url_rule_class``; the builder itself is werkzeug's
``Rule._compile_builder``, called unchanged on first use (tests/platform/test_routing.py
checks ``url_for`` still builds every route).

**Areas.** Importing every area (its views, schemas, services and their libraries) and running
flask-smorest's decorators was most of what our own code added to a cold start, yet one
Lambda instance often serves one area. ``create_app`` therefore adds every URL rule from
``app.api.route_table`` (generated from the blueprints, checked by a test) with a
:class:`LazyView` in place of each view; the first request to an area imports it and
:class:`AreaLoader` puts its real views, error handlers and templates into the app. Reading
``/openapi.json`` loads every area. Matching, hooks and replies are the same as with the
blueprints registered up front (the whole suite runs this way).
"""
from __future__ import annotations

import importlib
import threading
from typing import NamedTuple

from flask import Blueprint
from werkzeug.routing import Rule


class LazyBuilderRule(Rule):
    def _compile_builder(self, append_unknown: bool = True):
        slot = "_build_unknown" if append_unknown else "_build"

        def build_on_first_use(rule: Rule, **values):
            real = Rule._compile_builder(rule, append_unknown).__get__(rule, None)
            setattr(rule, slot, real)  # later builds call the compiled builder directly
            return real(**values)

        return build_on_first_use


class KeepsViews(Blueprint):
    """A Flask blueprint that keeps each view by its endpoint, so that an area loaded after
    start-up (:class:`AreaLoader`) can hand its views to the app."""

    def add_url_rule(self, rule, endpoint=None, view_func=None, provide_automatic_options=None,
                     **options):
        super().add_url_rule(rule, endpoint, view_func, provide_automatic_options, **options)
        self.__dict__.setdefault("views", {})[endpoint or view_func.__name__] = view_func


class Area(NamedTuple):
    """Where a blueprint lives, without importing it."""

    name: str  # the blueprint's name: the prefix of its endpoints
    module: str
    attribute: str = "blp"
    documented: bool = True  # in /openapi.json (the HTML pages are not)
    local_only: bool = False
    # Areas whose blueprint must be attached first: their templates render in this one.
    needs: tuple = ()

    def blueprint(self) -> KeepsViews:
        blueprint = getattr(importlib.import_module(self.module), self.attribute)
        if blueprint.name != self.name:
            raise RuntimeError(f"{self.module}.{self.attribute} is named {blueprint.name!r}, "
                               f"declared as {self.name!r}")
        return blueprint


class AreaLoader:
    """One area of one app: imported and attached on the first request that needs it."""

    def __init__(self, app, area: Area, loaders: dict):
        self.app, self.area = app, area
        self._loaders = loaders  # every area's loader of this app, by name
        self._attached = False
        self._lock = threading.Lock()

    def view(self, endpoint: str):
        if not self._attached:
            self.attach()
        return self.app.view_functions[endpoint]

    def lazy_view(self, endpoint: str) -> "LazyView":
        return LazyView(self, endpoint)

    def attach(self) -> None:
        for name in self.area.needs:
            self._loaders[name].attach()
        with self._lock:
            if self._attached:
                return
            blueprint = self.area.blueprint()
            _refuse_unsupported_hooks(blueprint)
            app, name = self.app, blueprint.name
            # What Flask's blueprint registration would have added besides the rules: its
            # template folder (Flask's template loader looks through app.blueprints; only a
            # blueprint with templates joins it, so no other attach changes that dict while a
            # page renders) and its error handlers.
            if blueprint.template_folder:
                app.blueprints.setdefault(name, blueprint)
            for code, handlers in blueprint.error_handler_spec.get(None, {}).items():
                app.error_handler_spec[name][code].update(handlers)
            for endpoint, view in blueprint.views.items():
                app.view_functions[f"{name}.{endpoint}"] = view
            self._attached = True


_REGISTRIES = {"before_request": "before_request_funcs", "after_request": "after_request_funcs",
               "teardown_request": "teardown_request_funcs",
               "url_value_preprocessor": "url_value_preprocessors",
               "url_defaults": "url_default_functions",
               "context_processor": "template_context_processors"}


def _refuse_unsupported_hooks(blueprint) -> None:
    """A hook this loader would silently drop is a start-up error, not a missing check."""
    fresh = Blueprint("fresh", __name__)  # what every blueprint starts with (Flask's defaults)

    def filled(owner, attribute) -> dict:
        return {key: funcs for key, funcs in getattr(owner, attribute).items() if funcs}

    used = [name for name, attribute in _REGISTRIES.items()
            if filled(blueprint, attribute) != filled(fresh, attribute)]
    if blueprint.has_static_folder:
        used.append("static_folder")
    nested = [key for key in blueprint.error_handler_spec if key is not None]
    # Every deferred function of a blueprint here is one add_url_rule (app-wide hooks and
    # nested blueprints would add others).
    routes = len(getattr(blueprint, "views", {}))
    if used or nested or blueprint._blueprints or len(blueprint.deferred_functions) != routes:
        raise RuntimeError(f"blueprint {blueprint.name!r} uses hooks a lazily loaded area "
                           f"cannot attach: {used or nested or 'app-wide hooks'}")


class LazyView:
    """Stands in for a view until its area is loaded; then the app holds the real view.

    Flask reads a few attributes of a view when adding its rule: they are answered here as a
    plain function answers them, so adding the rule imports nothing. Any other attribute
    (``public``, ``pat_scope`` ...) is the real view's, loading the area first."""

    methods = None
    required_methods = ()
    provide_automatic_options = None

    def __init__(self, loader: AreaLoader, endpoint: str):
        self._loader, self._endpoint = loader, endpoint
        self.__name__ = endpoint.rsplit(".", 1)[-1]

    def __call__(self, *args, **kwargs):
        return self._loader.view(self._endpoint)(*args, **kwargs)

    def __getattr__(self, name):
        if name.startswith("_loader") or name == "_endpoint":
            raise AttributeError(name)
        return getattr(self._loader.view(self._endpoint), name)
