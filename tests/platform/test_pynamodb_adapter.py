"""models/pynamodb_adapter.py: the two PynamoDB hooks without a public API keep their shape.

If one of these fails after a PynamoDB upgrade, the adapter (the one module reaching into
PynamoDB) must change: see its module doc for what each hook is for."""
from __future__ import annotations

import inspect

from pynamodb.connection import TableConnection
from pynamodb.models import Model

import models
from models import pynamodb_adapter


def test_a_models_connection_is_a_cached_table_connection_built_from_its_schema(aws):
    for model in models.registered_tables().values():
        connection = pynamodb_adapter.table_connection(model)
        assert isinstance(connection, TableConnection)
        assert connection.table_name == model.Meta.table_name
        assert pynamodb_adapter.table_connection(model) is connection  # cached
        # The key schema came from the model: no DescribeTable is needed to serialize keys.
        meta = connection.connection.get_meta_table(model.Meta.table_name)
        assert (meta.hash_keyname, meta.range_keyname) == pynamodb_adapter.key_names(model)


def test_dropping_a_connection_makes_the_next_one_from_the_current_meta(aws):
    model = models.registered_tables()["groups"]
    before = pynamodb_adapter.table_connection(model)
    host = model.Meta.host
    try:
        model.Meta.host = "http://127.0.0.1:1"
        assert pynamodb_adapter.table_connection(model) is before  # PynamoDB keeps its cache
        pynamodb_adapter.drop_connection(model)
        after = pynamodb_adapter.table_connection(model)
        assert after is not before and after.connection.host == "http://127.0.0.1:1"
    finally:
        model.Meta.host = host
        pynamodb_adapter.drop_connection(model)


def test_the_private_names_the_adapter_uses_are_still_there():
    assert "_connection" in vars(Model) and Model._connection is None
    assert inspect.ismethod(Model._get_connection)  # a classmethod
    assert "table_name" in inspect.signature(TableConnection).parameters


def _row_kinds(model):
    for sub in model.__subclasses__():
        yield sub
        yield from _row_kinds(sub)


def test_every_row_kind_shares_its_tables_one_connection_and_botocore_client(aws):
    """A connection per row kind would be a botocore session and client each (the service
    model parsed again, ~70 ms of CPU), paid on each kind's first call and after every
    re-pointing; all kinds of a table use their base model's, before and after a reconnect."""
    for _ in range(2):
        models.reconnect()
        for model in models.registered_tables().values():
            kinds = list(_row_kinds(model))
            first = pynamodb_adapter.table_connection(kinds[-1]) if kinds else None
            base = pynamodb_adapter.table_connection(model)
            assert first is None or first is base  # a row kind asked first finds the base's
            for kind in kinds:
                assert pynamodb_adapter.table_connection(kind) is base, kind
            assert {id(pynamodb_adapter.table_connection(kind).connection.client)
                    for kind in kinds} <= {id(base.connection.client)}
        assert sum(1 for model in models.registered_tables().values()
                   for _ in _row_kinds(model)) > 40  # the check covers the real row kinds


def test_every_connection_and_thread_reads_botocores_data_through_one_loader(aws):
    import threading

    from pynamodb.connection import base

    assert base.get_session is pynamodb_adapter.session  # the hook PynamoDB calls
    tables = models.registered_tables()
    sessions = []
    for name in ("groups", "users"):
        pynamodb_adapter.drop_connection(tables[name])
        connection = pynamodb_adapter.table_connection(tables[name]).connection
        connection.client  # noqa: B018 - builds the session and the client
        sessions.append(connection.session)
    other = threading.Thread(target=lambda: sessions.append(
        pynamodb_adapter.table_connection(tables["groups"]).connection.session))
    other.start()
    other.join()
    assert len({id(s) for s in sessions}) == 3  # a session per connection and per thread
    loaders = {id(s.get_component("data_loader")) for s in sessions}
    assert len(loaders) == 1
    # What a later session finds already read: the DynamoDB model and the endpoints.
    loader = sessions[0].get_component("data_loader")
    assert loader.load_service_model("dynamodb", "service-2") is \
        sessions[2].get_component("data_loader").load_service_model("dynamodb", "service-2")
    for name in ("groups", "users"):
        pynamodb_adapter.share_connection(tables[name])
