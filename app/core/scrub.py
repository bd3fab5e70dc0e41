"""Strip the free text from stored CHANGE rows, so /activity stops quoting what is gone.

The activity sentence and diff are rendered from the CHANGE row (its ``Subject`` and
``Diff``), not from the resource, because a deleted resource cannot be read back. So the
text a person typed (an expense's description, a settlement's note, item names, a group's
name) would stay readable for the log's 90 days after the resource, or its author's account,
is gone. Two follow-ups rewrite those rows after the fact:

- :func:`scrub_resource`, right after a delete commits (expense, settlement, recurring
  template): every earlier row of that resource, and the DELETE row itself;
- :func:`scrub_actor`, from account deletion: every row the departing participant wrote.

What stays: the verb (``Action``/``Op``), the actor, the kind and id, amounts, currencies,
participant ids, and which fields an edit changed (a text field's before/after become null).

Why a follow-up and not the delete's own TransactWrite: the rows to rewrite are found by a
Query of the group's log (no index names a resource's changes), which can hold more than a
transaction's 100 items. Each rewrite is idempotent (a scrubbed row scrubs to itself and is
not written again) and conditioned on the row still existing (TTL may take it meanwhile).

Kept in core beside the change log that writes these rows (changelog.py): the ledger,
recurring and the group departure scrub after their deletes, and the changes area (the
feeds that read the rows) sits above all three."""
from __future__ import annotations

from typing import Any, Optional, Tuple

from app.core.conditional import update_if
from models.groups import CHANGE_PREFIX, Change

# Subject keys and diff fields holding text a person typed.
TEXT_SUBJECT = ("name",)
TEXT_FIELDS = {"description", "note", "notes", "name", "title", "body"}
# Diff fields that are lists of maps with a text key among numbers (an expense's items).
TEXT_IN_LISTS = {"items": ("name",)}


def scrub_resource(group_id: str, kind: str, resource_id: str) -> int:
    """Scrub every logged change of one resource; returns how many rows were rewritten."""
    return _scrub(group_id, (Change.Kind == kind) & (Change.ResourceId == resource_id))


def scrub_actor(group_id: str, participant_id: str) -> int:
    """Scrub every logged change made by one participant (their account is being deleted)."""
    return _scrub(group_id, Change.ActorParticipantId == participant_id)


def _scrub(group_id: str, condition) -> int:
    rewritten = 0
    for row in Change.query(group_id, Change.SK.startswith(CHANGE_PREFIX),
                            filter_condition=condition, consistent_read=True):
        subject, diff = scrubbed(row.Subject, row.edits)
        if subject == row.Subject and diff == row.edits:
            continue  # already scrubbed (a rerun) or nothing typed in it
        actions = [Change.Subject.set(subject) if subject else Change.Subject.remove(),
                   Change.Diff.set(diff) if diff else Change.Diff.remove(),
                   Change.TextDiff.remove()]  # an older row's text goes with the rewrite
        rewritten += update_if(row, actions, Change.SK.exists())
    return rewritten


def scrubbed(subject: Optional[dict], diff: Optional[list]) -> Tuple[Optional[dict],
                                                                    Optional[list]]:
    """The subject and diff without their free text (the same values when there is none)."""
    if subject:
        subject = {key: value for key, value in subject.items() if key not in TEXT_SUBJECT}
    if diff:
        diff = [_scrub_change(change) for change in diff]
    return subject or None, diff or None


def _scrub_change(change: dict) -> dict:
    name = change.get("field")
    if name in TEXT_FIELDS:
        return {**change, "before": None, "after": None}
    if name in TEXT_IN_LISTS:
        keys = TEXT_IN_LISTS[name]
        return {**change, "before": _without(change.get("before"), keys),
                "after": _without(change.get("after"), keys)}
    return change


def _without(value: Any, keys: tuple) -> Any:
    if not isinstance(value, list):
        return value
    return [{k: v for k, v in item.items() if k not in keys} if isinstance(item, dict) else item
            for item in value]
