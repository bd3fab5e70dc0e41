"""The balance row's stored layout (``BALANCE#v1``), read and written here only.

Every money write rewrites this row, so its size is paid on each: past 1 KB a write costs 4
write units, not 2. The first layout spelled a participant id into every attribute name
(``Net_<36-char id>``, ``Pair_<id>#<id>``, ``Round_<id>``): a 6-way group with two
currencies reached 1,751 bytes. The seated layout names each participant once:

- ``Seats``: a list of the participant ids the row has ever held money for (each as its
  UUID's 16 bytes; an id that is not a canonical UUID as its text). Append-only, so a seat
  number read once keeps its meaning forever, and a write that names only seated ids needs
  no condition: it ADDs, as before, and concurrent writes still commute;
- ``n<seat>`` a net in the main currency, ``n<seat>_<CUR>`` in a kept one;
- ``p<seat>_<seat>`` what the pair's lower id owes the higher (the seats of the lower and the
  higher id, in that order), ``p<seat>_<seat>_<CUR>`` in a kept currency;
- ``r<seat>`` / ``r<seat>_<CUR>`` a FAIR group's cumulative rounding (exact fraction text).

A write that names an unseated id appends it, conditioned on the seat list it read; a row
still holding first-layout attributes is rewritten (those attributes moved onto seats, at
most :data:`MOVED_PER_WRITE` a write) conditioned on the revision it read. Either condition
failing means only that the row moved: :func:`encode` again from the row's current image
(the failed write's old image) and resend.

Keys stay what every reader knows: a ledger key (``pid`` or ``CUR#pid``), a pair key
(``low#high`` or ``CUR#low#high``); the layout is this module's alone."""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Tuple

from pynamodb.expressions.condition import Condition
from pynamodb.expressions.operand import Path, Value

from models.groups.keys import NET_PREFIX, PAIR_PREFIX, ROUND_PREFIX

SEATS = "Seats"
REVISION = "BalanceRevision"
SEPARATOR = "#"  # inside a ledger or pair key (app.ledger.balances.KEPT_SEPARATOR)
# First-layout attributes moved onto seats by one write (bounding its update expression,
# whose size DynamoDB caps at 4 KB): a legacy 6-way group's 22 move in its next write.
MOVED_PER_WRITE = 40

_NET = re.compile(r"^n(\d+)(?:_(\D.*))?$")
_PAIR = re.compile(r"^p(\d+)_(\d+)(?:_(\D.*))?$")
_ROUND = re.compile(r"^r(\d+)(?:_(\D.*))?$")
_LEGACY = {NET_PREFIX: "nets", PAIR_PREFIX: "pairs", ROUND_PREFIX: "rounding"}


# --- seats ------------------------------------------------------------------------------------

def seat_bytes(participant_id: str) -> bytes:
    """A seat's stored value: a canonical UUID's 16 bytes, else the id's text (NUL-padded
    when that text is itself 16 bytes long, so it never reads back as a UUID)."""
    try:
        if str(uuid.UUID(participant_id)) == participant_id:
            return uuid.UUID(participant_id).bytes
    except ValueError:
        pass
    text = participant_id.encode()
    return text + b"\0" if len(text) == 16 else text


def seat_id(value: bytes) -> str:
    if len(value) == 16:
        return str(uuid.UUID(bytes=value))
    return value.decode().rstrip("\0")


def _stored_bytes(value) -> bytes:
    return bytes(value) if not isinstance(value, str) else value.encode()


def seats_of(raw: Optional[dict]) -> List[str]:
    """The row's seat list (participant ids, seat order); empty for a row without one."""
    stored = (raw or {}).get(SEATS, {}).get("L", [])
    return [seat_id(_stored_bytes(entry["B"])) for entry in stored]


# --- names ------------------------------------------------------------------------------------

def _split_ledger(key: str) -> Tuple[Optional[str], str]:
    currency, _, pid = key.rpartition(SEPARATOR)
    return currency or None, pid


def _split_pair(key: str) -> Tuple[Optional[str], str, str]:
    parts = key.split(SEPARATOR)
    return (parts[0] if len(parts) == 3 else None), parts[-2], parts[-1]


def _suffix(currency: Optional[str]) -> str:
    return f"_{currency}" if currency else ""


def _with_currency(currency: Optional[str], rest: str) -> str:
    return f"{currency}{SEPARATOR}{rest}" if currency else rest


def net_name(key: str, seat: Mapping[str, int]) -> str:
    currency, pid = _split_ledger(key)
    return f"n{seat[pid]}{_suffix(currency)}"


def pair_name(key: str, seat: Mapping[str, int]) -> str:
    currency, low, high = _split_pair(key)
    return f"p{seat[low]}_{seat[high]}{_suffix(currency)}"


def rounding_name(key: str, seat: Mapping[str, int]) -> str:
    currency, pid = _split_ledger(key)
    return f"r{seat[pid]}{_suffix(currency)}"


def ids_named(nets=(), pairs=(), rounding=()) -> List[str]:
    """Every participant id the ledger keys, pair keys and rounding keys name."""
    ids = {_split_ledger(key)[1] for key in (*nets, *rounding)}
    for key in pairs:
        _, low, high = _split_pair(key)
        ids.update((low, high))
    return sorted(ids)


# --- reading ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Decoded:
    """What a balance row holds, keyed as its readers key it (both layouts folded)."""

    nets: Dict[str, int]
    pairs: Dict[str, int]
    rounding: Dict[str, str]


def _legacy(raw: Optional[dict]) -> Dict[str, Dict[str, Tuple[str, dict]]]:
    """First-layout attributes by family: {family: {key: (attribute name, value)}}."""
    found: Dict[str, Dict[str, Tuple[str, dict]]] = {"nets": {}, "pairs": {}, "rounding": {}}
    for name, value in (raw or {}).items():
        for prefix, family in _LEGACY.items():
            if name.startswith(prefix):
                found[family][name[len(prefix):]] = (name, value)
    return found


def decode(raw: Optional[dict]) -> Decoded:
    """Nets, pairs and rounding of a raw row in either layout (a row part-way through its
    move holds both; a key is only ever in one of them)."""
    seats = seats_of(raw)
    nets: Dict[str, int] = {}
    pairs: Dict[str, int] = {}
    rounding: Dict[str, str] = {}
    for name, value in (raw or {}).items():
        match = _NET.match(name)
        if match:
            nets[_with_currency(match[2], seats[int(match[1])])] = int(value["N"])
            continue
        match = _PAIR.match(name)
        if match:
            pair = f"{seats[int(match[1])]}{SEPARATOR}{seats[int(match[2])]}"
            pairs[_with_currency(match[3], pair)] = int(value["N"])
            continue
        match = _ROUND.match(name)
        if match:
            rounding[_with_currency(match[2], seats[int(match[1])])] = value["S"]
    legacy = _legacy(raw)
    for key, (_, value) in legacy["nets"].items():
        nets[key] = nets.get(key, 0) + int(value["N"])
    for key, (_, value) in legacy["pairs"].items():
        pairs[key] = pairs.get(key, 0) + int(value["N"])
    for key, (_, value) in legacy["rounding"].items():
        rounding.setdefault(key, value["S"])
    return Decoded(nets, pairs, rounding)


def is_legacy(raw: Optional[dict]) -> bool:
    """Whether the row still holds a first-layout attribute."""
    return any(name.startswith(tuple(_LEGACY)) for name in (raw or {}))


def revision_of(raw: Optional[dict]) -> Optional[int]:
    value = (raw or {}).get(REVISION)
    return int(value["N"]) if value else None


# --- writing ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Encoded:
    """Update actions writing a change onto a row as read, and the condition under which
    they mean what they say (None: none needed, the actions commute with any other write)."""

    actions: list
    condition: Optional[Condition]
    # What the row is known to hold once this write commits, for the writer's next write:
    # the row as read with the seat list this write leaves (its seats are exact: appended
    # under the condition that the list was the one read); None after a move of first-layout
    # attributes (read the row again).
    after: Optional[dict] = None


def _seat_list_value(seats: List[str]) -> Value:
    return Value({"L": [{"B": seat_bytes(pid)} for pid in seats]})


def encode(raw: Optional[dict], *, nets: Mapping[str, int] = (),
           pairs: Mapping[str, int] = (),
           rounding: Mapping[str, Optional[str]] = ()) -> Encoded:
    """The actions adding ``nets`` (ledger key -> delta) and ``pairs`` (pair key -> delta)
    and setting ``rounding`` (ledger key -> exact fraction text, None removes it) on the row
    ``raw`` (as read; None: no row yet)."""
    nets, pairs, rounding = dict(nets), {k: v for k, v in dict(pairs).items() if v}, \
        dict(rounding)
    seats = seats_of(raw)
    legacy = _legacy(raw)
    moving = _moving(legacy, nets, pairs, rounding)
    moved_ids = ids_named(moving["nets"], moving["pairs"], moving["rounding"])
    unmoved = {family: {k: v for k, v in keys.items() if k not in moving[family]}
               for family, keys in legacy.items()}
    seated_ids = ids_named([k for k in nets if k not in unmoved["nets"]],
                           [k for k in pairs if k not in unmoved["pairs"]],
                           [k for k in rounding if k not in unmoved["rounding"]])
    added = [pid for pid in sorted(set(seated_ids) | set(moved_ids)) if pid not in seats]
    seat = {pid: index for index, pid in enumerate(seats + added)}
    actions: list = []
    for key, delta in nets.items():
        if key in unmoved["nets"]:
            actions.append(Path(unmoved["nets"][key][0]).add(delta))
        elif key not in moving["nets"]:
            actions.append(Path(net_name(key, seat)).add(delta))
    for key, delta in pairs.items():
        if key in unmoved["pairs"]:
            actions.append(Path(unmoved["pairs"][key][0]).add(delta))
        elif key not in moving["pairs"]:
            actions.append(Path(pair_name(key, seat)).add(delta))
    for key, text in rounding.items():
        if key in unmoved["rounding"]:
            path = Path(unmoved["rounding"][key][0])
        elif key in moving["rounding"]:
            continue
        else:
            path = Path(rounding_name(key, seat))
        actions.append(path.set(text) if text else path.remove())
    actions += _moves(moving, nets, pairs, rounding, seat)
    condition = None
    if added:
        actions.append(Path(SEATS).set(_seat_list_value(seats + added)))
        condition = (Path(SEATS) == _seat_list_value(seats)) if seats else \
            Path(SEATS).does_not_exist()
    if any(moving.values()):
        revision = revision_of(raw)
        pinned = Path(REVISION).does_not_exist() if revision is None else \
            Path(REVISION) == revision
        condition = pinned if condition is None else condition & pinned
        return Encoded(actions, condition)
    after = {**(raw or {}), SEATS: {"L": [{"B": seat_bytes(pid)} for pid in seats + added]}}
    return Encoded(actions, condition, after)


def _moving(legacy, nets, pairs, rounding) -> Dict[str, Dict[str, Tuple[str, dict]]]:
    """The first-layout attributes this write moves onto seats: the ones it touches first,
    then the rest, :data:`MOVED_PER_WRITE` in all."""
    touched = {"nets": nets, "pairs": pairs, "rounding": rounding}
    order = [(0 if key in touched[family] else 1, family, key)
             for family, keys in legacy.items() for key in keys]
    chosen = sorted(order)[:MOVED_PER_WRITE]
    moving: Dict[str, Dict[str, Tuple[str, dict]]] = {"nets": {}, "pairs": {}, "rounding": {}}
    for _, family, key in chosen:
        moving[family][key] = legacy[family][key]
    return moving


def _moves(moving, nets, pairs, rounding, seat) -> list:
    """REMOVE each moving first-layout attribute and SET its seated name to its value (with
    this write's change): exact, as the write is pinned to the revision read."""
    actions = []
    for key, (name, value) in moving["nets"].items():
        actions += [Path(name).remove(), Path(net_name(key, seat)).set(
            int(value["N"]) + nets.get(key, 0))]
    for key, (name, value) in moving["pairs"].items():
        actions += [Path(name).remove(), Path(pair_name(key, seat)).set(
            int(value["N"]) + pairs.get(key, 0))]
    for key, (name, value) in moving["rounding"].items():
        actions.append(Path(name).remove())
        text = rounding[key] if key in rounding else value["S"]
        if text:
            actions.append(Path(rounding_name(key, seat)).set(text))
    return actions


def initial(nets: Mapping[str, int], pairs: Mapping[str, int]) -> Tuple[list, list]:
    """A row's first nets and pairs (an import's flip) as SET actions: (the seat list and the
    nets, the pairs), the pairs to be sent in as many updates as their number needs."""
    ids = ids_named(nets, pairs)
    seat = {pid: index for index, pid in enumerate(ids)}
    first = [Path(SEATS).set(_seat_list_value(ids))]
    first += [Path(net_name(key, seat)).set(value) for key, value in nets.items()]
    return first, [Path(pair_name(key, seat)).set(value) for key, value in pairs.items()]
