"""moto's cost per call, cut where every request pays it (part of app/local/engine.py's patches).

Measured over the test suite before: 13% of all CPU in moto's response serializer, 7% parsing
condition expressions.

- An item's attribute values are written out directly instead of through moto's shape-driven
  serializer, which asks its attribute picker for each of an AttributeValue's ten members by
  several spellings (a 50-item Query: 58 ms, now 13.5 ms; a GetItem 2.0 -> 0.95 ms). The
  output is the serializer's own: tests/local/test_engine_fast_paths.py compares both over
  every attribute type, and anything unusual still goes the serializer's way.
- A condition expression's parse is kept (bounded LRU) by its text, names and values: moto
  parses each condition at least twice per request, and the app sends the same few shapes.
- An update expression's parse is kept (bounded LRU) by its text, which is all it depends on:
  moto parses each one twice per UpdateItem (its response checks the names, its backend
  validates) and once more per Update in a transaction; its users only read the tree (the
  validator works on a deep copy). ~2 % of the API fuzzer's CPU.
- A response class's method names are listed once: moto's ``call_action`` runs
  ``inspect.getmembers`` over the DynamoDB handler on every call to see whether the action is
  one of them (~0.26 ms a call, ~6 % of an in-process call's CPU).
- The embedded endpoint (``Dispatcher``) knows moto's service packages from one listing: moto's
  server lists its package directory and stats each entry on every request to map the
  inferred host to a backend (~5 ms a request; 20 s of the test suite's CPU on 2026-12-06).

tests/local/test_engine_shape.py pins the moto functions patched here and those whose rules
the writer copies."""
from __future__ import annotations

import collections
import contextlib
import copy
import functools
import threading

_installed = False
_originals: dict = {}


def install() -> None:
    global _installed
    if _installed:
        return
    from moto.core import responses
    from moto.core.serialize import BaseJSONSerializer
    from moto.dynamodb.comparisons import ConditionExpressionParser
    from moto.dynamodb.parsing.expressions import UpdateExpressionParser

    _originals.update(structure=BaseJSONSerializer._serialize_type_structure,
                      parse=ConditionExpressionParser.parse,
                      make_update=UpdateExpressionParser.make,
                      method_names=responses.method_names_from_class)
    BaseJSONSerializer._serialize_type_structure = _serialize_type_structure
    ConditionExpressionParser.parse = _parse_condition
    UpdateExpressionParser.make = staticmethod(_parsed_update)  # make is only called on it
    # Only read by call_action, as a membership test; a class's functions do not change.
    responses.method_names_from_class = functools.lru_cache(maxsize=None)(
        _originals["method_names"])
    _installed = True


def dispatcher():
    """moto's server app (DomainDispatcherApplication) with its service packages listed once."""
    from moto import backends
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app

    services = frozenset(backends.list_of_moto_modules())

    class Dispatcher(DomainDispatcherApplication):
        def get_backend_for_host(self, host):
            # The one lookup moto's server makes per request that reads the disk.
            if host in services:
                return host
            return super().get_backend_for_host(host)

    return Dispatcher(create_backend_app)


@contextlib.contextmanager
def serializer_only():
    """moto's own serializer for a while (the test comparing both outputs)."""
    from moto.core.serialize import BaseJSONSerializer

    BaseJSONSerializer._serialize_type_structure = _originals["structure"]
    try:
        yield
    finally:
        BaseJSONSerializer._serialize_type_structure = _serialize_type_structure


# AttributeValue's members in the order of its botocore shape (the serializer's order).
_ATTRIBUTE_MEMBERS = ("S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL")
_MEMBER_SET = frozenset(_ATTRIBUTE_MEMBERS)


def _serialize_type_structure(self, serialized, value, shape, key):
    if (key and shape.name == "AttributeValue" and type(value) is dict
            and value.keys() <= _MEMBER_SET
            and not getattr(self._value_picker, "response_transformers", None)):
        try:
            serialized[self.get_serialized_name(shape, key)] = _attribute_value(self, value)
            return
        except _Unusual:
            pass
    _originals["structure"](self, serialized, value, shape, key)


def _text(value):
    # BaseJSONSerializer._serialize_type_string's rule, for S, N and the members of SS/NS.
    return str(value) if value not in (None, {}, []) else value


def _attribute_value(serializer, value: dict) -> dict:
    """What moto's serializer makes of one AttributeValue: members in shape order, None ones
    left out; strings through the string rule, blobs base64, maps and lists recursively (a
    None map value is dropped, a None list element kept), NULL/BOOL as they are."""
    out = {}
    for member in _ATTRIBUTE_MEMBERS:
        if member not in value:
            continue
        member_value = value[member]
        if member_value is None:
            continue
        if member in ("S", "N"):
            out[member] = _text(member_value)
        elif member == "B":
            out[member] = serializer._base64(member_value)
        elif member in ("SS", "NS"):
            out[member] = [_text(element) for element in member_value]
        elif member == "BS":
            out[member] = [serializer._base64(element) for element in member_value]
        elif member == "M":
            if "" in member_value:
                raise _Unusual  # moto writes an empty name's members into the map itself
            out[member] = {name: _attribute_value_or_shape(serializer, element)
                           for name, element in member_value.items() if element is not None}
        elif member == "L":
            out[member] = [None if element is None else
                           _attribute_value_or_shape(serializer, element)
                           for element in member_value]
        else:
            out[member] = member_value
    return out


def _attribute_value_or_shape(serializer, value):
    if type(value) is dict and value.keys() <= _MEMBER_SET:
        return _attribute_value(serializer, value)
    raise _Unusual  # something moto's picker would treat otherwise: let the serializer do it


class _Unusual(Exception):
    pass


# --- condition expressions -------------------------------------------------------------------

_PARSED_MAX = 4096
_parsed: "collections.OrderedDict[tuple, tuple]" = collections.OrderedDict()
_parsed_lock = threading.Lock()


def _parse_condition(self):
    """moto's parse, kept by (expression, names, values): the parse depends on nothing else,
    and its result (an operator tree evaluated against items) is never changed by its users.
    Expressions moto refuses raise as before and are not kept; an expression that fails only
    its caller's later checks (unused names) is the same tree, and the caller still sees the
    names and values it used."""
    try:
        key = (self.condition_expression, repr(self.expression_attribute_names),
               repr(self.expression_attribute_values))
    except Exception:  # noqa: BLE001 — an unprintable value: parse as moto would
        return _originals["parse"](self)
    with _parsed_lock:
        hit = _parsed.get(key)
        if hit is not None:
            _parsed.move_to_end(key)
    if hit is None:
        # Parsed from copies: the kept tree must not share the request's dicts.
        fresh = type(self)(self.condition_expression,
                           copy.deepcopy(self.expression_attribute_names),
                           copy.deepcopy(self.expression_attribute_values))
        op = _originals["parse"](fresh)
        hit = (op, tuple(fresh.expr_attr_names_found), tuple(fresh.expr_attr_values_found))
        with _parsed_lock:
            _parsed[key] = hit
            if len(_parsed) > _PARSED_MAX:
                _parsed.popitem(last=False)
    op, names, values = hit
    self.expr_attr_names_found.extend(names)
    self.expr_attr_values_found.extend(values)
    return op


# --- update expressions ----------------------------------------------------------------------

@functools.lru_cache(maxsize=_PARSED_MAX)
def _parsed_update(text: str):
    """moto's ``UpdateExpressionParser.make``, kept by the expression's text (a refusal raises
    and is not kept)."""
    return _originals["make_update"](text)
