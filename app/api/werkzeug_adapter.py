"""The one module that bends werkzeug: a rule's URL builders are compiled on first use.

Adding a rule to the URL map compiles two URL builders for it (``url_for`` with and without
unknown values as a query string), each generated as Python source and compiled: a sixth of
building the app, for 130 rules of which a request builds URLs from almost none. Flask's
documented hook ``Flask.url_rule_class`` takes :class:`BuiltOnFirstUse` instead, whose
builders compile the first time they build: matching a request never needs them.

tests/platform/test_werkzeug_adapter.py fails the day werkzeug's Rule stops compiling its
builders through ``_compile_builder`` into ``_build``/``_build_unknown``: then change this
module (or drop it).
"""
from __future__ import annotations

from werkzeug.routing import Rule


class BuiltOnFirstUse(Rule):
    """A werkzeug Rule whose URL builders compile on their first call, not when it is bound."""

    def _compile_builder(self, append_unknown: bool = True):
        slot = "_build_unknown" if append_unknown else "_build"

        def build_on_first_use(rule: Rule, **values):
            builder = Rule._compile_builder(rule, append_unknown).__get__(rule, None)
            setattr(rule, slot, builder)  # the next call goes straight to it
            return builder(**values)

        return build_on_first_use
