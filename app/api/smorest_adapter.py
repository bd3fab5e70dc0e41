"""The one module that bends flask-smorest for cold start: the OpenAPI document is built when
first read, and a view's documentation is copied without copying its schemas.

flask-smorest documents a blueprint inside ``Api.register_blueprint``: every operation's
marshmallow schemas are turned into JSON Schema there and then, about as long as importing
all the areas. A cold start serves one request, which needs the routes and never the
document; only ``/openapi.json``, ``/docs`` and the tests that read ``api.spec`` need it.
:class:`DocumentedOnDemand` registers the blueprint with Flask at once and keeps the
documentation for the first read of ``spec``, which documents every kept blueprint in
registration order, exactly as the eager calls would have (so the document is byte for byte
the same), and then answers the spec itself. A blueprint registered after that first read is
documented at once, as flask-smorest would.

Each of flask-smorest's view decorators (``arguments``, ``response``, ``alt_response``,
``route``) deep-copies the documentation the view has gathered so far, and that holds the
schema instances: copying them field by field was a fifth of importing the areas. A schema
is never changed once built (marshmallow 4 has no context; a load's options are arguments,
and ``Nested`` copies an instance before narrowing it), so :class:`SharedByDocumentation`
makes a schema's deep copy the schema itself; the dicts and lists around it are still copied.

tests/platform/test_smorest_adapter.py fails the day flask-smorest's own
``register_blueprint`` documents differently from this: if it does, change this module.
"""
from __future__ import annotations

import threading

from flask_smorest import Api


class SharedByDocumentation:
    """A marshmallow schema whose deep copy is itself (see the module doc): the base of every
    TailSpend schema (app.api.schemas.Schema)."""

    def __deepcopy__(self, memo):
        return self


class DocumentedOnDemand(Api):
    """flask-smorest's Api with the document built on the first read of ``spec``."""

    def __init__(self, app=None, **kwargs) -> None:
        self._undocumented: list = []  # (blueprint, name, parameters), in registration order
        self._documented = False
        self._documenting = threading.Lock()  # local mode serves requests on threads
        super().__init__(app, **kwargs)

    @property
    def spec(self):
        """The apispec APISpec, every registered blueprint documented in it."""
        if not self._documented and self._undocumented:
            self._document_kept_blueprints()
        return self._spec

    @spec.setter
    def spec(self, value) -> None:  # Api.__init__ and _init_spec assign it
        self._spec = value

    @property
    def documented(self) -> bool:
        """Whether the document has been built (its first read has happened)."""
        return self._documented

    def register_blueprint(self, blp, *, parameters=None, **options) -> None:
        """Flask routes the blueprint now; its documentation waits for the first read of
        ``spec`` unless that read has already happened (then flask-smorest's own)."""
        if self._documented:
            super().register_blueprint(blp, parameters=parameters, **options)
            return
        name = options.get("name", blp.name)
        # What Api.register_blueprint does before documenting (flask-smorest 0.47).
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self._undocumented.append((blp, name, parameters))

    def _document_kept_blueprints(self) -> None:
        with self._documenting:
            if self._documented:  # another thread built it while this one waited
                return
            for blp, name, parameters in self._undocumented:
                # The rest of Api.register_blueprint, in the order the calls came.
                blp.register_views_in_doc(self, self._app, self._spec, name=name,
                                          parameters=parameters)
                self._spec.tag({"name": name, "description": blp.description})
            self._undocumented.clear()
            self._documented = True
