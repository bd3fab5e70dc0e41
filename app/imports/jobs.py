"""Start an import (POST /imports) and read its status (GET /imports/{importId})."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

from app.errors import Invalid, TooLarge, id_collision, not_found
from app.limits import IMPORT_SOURCES
from app.logs import logger
from app.core import handoff
from app.core.clock import new_id, now_iso
from app.core.transactions import Transaction
from app.imports import staging
from app.imports.model import ImportFileError
from app.imports.run_import import IMPORTING, fail, overdue_at, run_import
from app.imports.parse import FileTooLarge, group_name, parse_file, resolve_me
from app.users.profiles import get_profile
from models.groups import Group, ImportJob
from models.groups.imports import RUNNING
from models.groups.keys import IMPORT_BUCKET
from models.users import ImportPointer

DEFAULT_NAMES = IMPORT_SOURCES  # format -> "Imported from <app>"
QUEUE = handoff.Queue("import", lambda settings: settings.import_queue_url)


def hand_off(group_id: str, import_id: str) -> None:
    """Start the worker on a staged import: deployed, the "import" queue (template.yaml's
    ImportQueue, app.core.handoff); locally a runner feeds the worker's handler on a
    thread; with neither (tests, scripts) the import runs inline."""
    if handoff.send(QUEUE, {"groupId": group_id, "importId": import_id}) == handoff.NOWHERE:
        run_import(group_id, import_id)


def file_error(error: ImportFileError) -> Exception:
    """An unreadable file as the API answers it: 400 (413 past the size) with the line."""
    where = f"Line {error.line}: " if error.line else ""
    details = {"content": [f"{where}{error.reason}"], "line": error.line}
    if isinstance(error, FileTooLarge):
        return TooLarge(f"{where}{error.reason}", details=details)
    return Invalid(f"The file cannot be imported. {where}{error.reason}", details=details)


def start_import(user_id: str, *, file_format: str, content: str, name: Optional[str] = None,
                 currency: Optional[str] = None, me: Optional[str] = None,
                 convert: Optional[str] = None) -> dict:
    """Check the whole file, stage it, create the IMPORTING group and hand it to the worker.

    Nothing is created for a file that cannot be imported (400 naming its first bad line)."""
    profile = get_profile(user_id)
    fallback = profile.DefaultCurrency or "EUR"
    try:
        parsed = parse_file(file_format, content, currency=currency, fallback_currency=fallback)
        title = group_name(name, parsed.name, f"Imported from {DEFAULT_NAMES[file_format]}")
    except ImportFileError as error:
        raise file_error(error) from None
    resolve_me(parsed, me)
    group_id, import_id, now = new_id(), new_id(), now_iso()
    chunks = staging.stage(group_id, content)
    head = Group(*Group.key(group_id), Name=title,
                 Currency=parsed.currency, CreatedBy=user_id, OwnerCount=1,
                 ParticipantCount=len(parsed.members) + (0 if me else 1),
                 Status=IMPORTING, CreatedAt=now, UpdatedAt=now)
    job = ImportJob(*ImportJob.key(group_id), ImportId=import_id, ImporterUserId=user_id,
                    Format=file_format, Status=RUNNING, ChunkCount=chunks, CreatedAt=now,
                    DueBucket=IMPORT_BUCKET, NextRunAt=overdue_at(),
                    Options={"currency": parsed.currency, "me": me, "convert": convert,
                             "fallbackCurrency": fallback, "ownerName": profile.DisplayName})
    pointer = ImportPointer(user_id, ImportPointer.sort_key(import_id), GroupId=group_id,
                            CreatedAt=now)
    # Nothing any read shows: the group is unreadable until the flip, which records its first
    # changes (numbered from 2, so a client syncing from 0 is told to refetch it whole).
    tx = Transaction().require_live_account(user_id).without_change("an IMPORTING group's head")
    for row in (head, job, pointer):
        tx.put(row, condition=type(row).SK.does_not_exist(), on_fail=id_collision())
    try:
        tx.commit()
    except Exception:
        staging.unstage(group_id, chunks)
        raise
    try:
        hand_off(group_id, import_id)
    except Exception:  # noqa: BLE001 — reported on the import itself, never left RUNNING
        logger.exception("import.hand_off_failed", extra={"group_id": group_id})
        fail(group_id, None, "The import could not be started; nothing was kept. "
                                    "Try again.")
    return {"importId": import_id, "status": RUNNING, "groupId": group_id}


@dataclass(frozen=True)
class ImportStatus:
    """An import as GET /imports/{importId} shows it."""

    job: ImportJob

    def as_reply(self) -> dict:
        job = self.job
        counts = dict(job.Counts.as_dict() if hasattr(job.Counts, "as_dict") else job.Counts or {})
        reply = {"importId": job.ImportId, "status": job.Status, "groupId": job.GroupId,
                 "format": job.Format,
                 "counts": {name: int(counts.get(name, 0)) for name in
                            ("participants", "expenses", "settlements", "skipped")},
                 "warnings": _warnings(job)}
        if job.Status == "FAILED":
            reply["error"] = {"line": int(job.ErrorLine) if job.ErrorLine is not None else None,
                              "message": job.ErrorMessage or ""}
        return reply


def _warnings(job: ImportJob) -> List[dict]:
    shown = [{"line": int(w.Line) if w.Line is not None else None, "message": w.Message}
             for w in job.Warnings or []]
    more = int(job.WarningCount or 0) - len(shown)
    if more > 0:
        shown.append({"line": None, "message": f"{more} more warnings not shown."})
    return shown


def get_import(user_id: str, import_id: str) -> dict:
    """The caller's import; anyone else's (or none) is 404."""
    try:
        pointer = ImportPointer.get(user_id, ImportPointer.sort_key(import_id),
                                    consistent_read=True)
        job = ImportJob.get(*ImportJob.key(pointer.GroupId), consistent_read=True)
    except (ImportPointer.DoesNotExist, ImportJob.DoesNotExist, ValueError):
        raise not_found("Import") from None
    # The pointer, in the caller's own partition, says the import is theirs.
    if job.ImportId != import_id or job.ImporterUserId not in (None, user_id):
        raise not_found("Import")
    return ImportStatus(job).as_reply()
