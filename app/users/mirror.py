"""A rename's mirroring onto the account's group rosters, off the request path.

PATCH /users/me saves the profile (its NameVersion counts renames) and :func:`mirror_later`
hands ``{"userId"}`` to the "profile-mirror" queue (app.core.handoff; template.yaml's
ProfileMirrorQueue); the ProfileMirrorWorker runs :func:`mirror_names` through
app.users.worker.handle. Locally a runner installed by local mode feeds the same handler on
a thread. The worker reads the profile when it runs, so any message, late or repeated,
mirrors the newest name; each roster row is written only while it shows an older
NameVersion, so a run that read an older profile never undoes a newer one. A run that dies
part way is redelivered and skips the rows already done."""
from __future__ import annotations

from app.core import changelog, handoff
from app.core.transactions import Transaction
from app.errors import DomainError
from app.logs import logger
from models.groups import Participant
from models.users import Profile

QUEUE = handoff.Queue("profile-mirror", lambda settings: settings.profile_mirror_queue_url)


def mirror_later(user_id: str) -> None:
    """Hand the rosters' update to the worker. Without a queue or runner (a bare process),
    or when the send fails, the rename is mirrored here: the profile is saved either way,
    and the request must not fail for its mirrors."""
    try:
        if handoff.send(QUEUE, {"userId": user_id}) != handoff.NOWHERE:
            return
    except Exception:  # noqa: BLE001 — mirrored inline below instead
        logger.exception("users.mirror_handoff_failed", extra={"user_id": user_id})
    try:
        mirror_names(user_id)
    except Exception:  # noqa: BLE001 — the next rename mirrors again
        logger.exception("users.participant_name_sync_failed", extra={"user_id": user_id})


def mirror_names(user_id: str) -> int:
    """Write the profile's current name onto every USER participant row of this account
    still showing an older one; returns how many rows changed. Raises on a failed write, so
    the queue redelivers the message and the next run resumes."""
    try:
        profile = Profile.get(*Profile.key(user_id), consistent_read=True)
    except Profile.DoesNotExist:
        return 0  # deleted meanwhile: the deletion removes its rows
    if profile.deleting:
        return 0
    return write_names(user_id, profile.DisplayName, profile.NameVersion or 0)


def write_names(user_id: str, display_name: str, version: int) -> int:
    """Mirror ``display_name`` at ``version`` onto the rows not at it or past it yet."""
    synced = 0
    older = Participant.NameVersion.does_not_exist() | (Participant.NameVersion < version)
    for membership in Participant.memberships(user_id):
        row = Participant(membership.GroupId, membership.SK)
        tx = Transaction().update(
            row, [Participant.DisplayName.set(display_name), Participant.NameVersion.set(version)],
            # existing: a removed participant is never resurrected
            condition=Participant.SK.exists() & older)
        changelog.record(tx, membership.GroupId, row, actor=membership.ParticipantId)
        try:
            tx.commit()
            synced += 1
        except DomainError:  # mirrored already (or newer), removed, or the group is gone
            continue
    logger.info("users.names_mirrored", extra={"user_id": user_id, "synced": synced})
    return synced
