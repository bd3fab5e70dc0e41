"""Token parsing and the Authorization header: any input is a 401 (or the route's answer), never a 5xx."""
from __future__ import annotations

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.developer import tokens

SECRET = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
                 min_size=43, max_size=43)


@given(st.text())
def test_parse_never_raises(text):
    parsed = tokens.parse(text)
    assert parsed is None or text == f"tsp_{parsed.token_id}_{parsed.secret}"


@given(st.uuids(version=4), SECRET)
def test_parse_round_trips_every_well_formed_token(token_id, secret):
    assert tokens.parse(f"tsp_{token_id}_{secret}") == tokens.ParsedToken(str(token_id), secret)


NEAR_MISSES = st.one_of(
    st.text(),
    st.builds(lambda t, s: f"tsp_{t}_{s}", st.uuids(version=4).map(str), st.text()),
    st.builds(lambda s: f"tsp_{uuid.uuid4()}_{s}", SECRET),  # right shape, unknown token
    st.builds(lambda s: "tsp_" + s, st.text()),
)
HEADERS = st.one_of(
    NEAR_MISSES.map(lambda c: "Bearer " + c),
    st.builds(lambda scheme, c: f"{scheme} {c}", st.sampled_from(["bearer", "BEARER", "Basic", ""]), NEAR_MISSES),
    st.text(),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=HEADERS)
def test_no_authorization_header_is_a_5xx(client, header):
    header = header.encode("latin-1", "replace").decode("latin-1").replace("\r", "").replace("\n", "")
    for path in ("/users/me/groups", "/developer/tokens"):
        reply = client.get(path, headers={"Authorization": header})
        assert reply.status_code in (401, 429), (header, reply.status_code)
