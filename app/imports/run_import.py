"""Run an import: staged file -> rows -> balances checked -> ACTIVE, or nothing at all.

The ImportWorker function runs :func:`run_import` (through app.imports.worker.handle) for
each ``{"groupId", "importId"}`` message that app.imports.jobs.hand_off queued (local mode:
on a thread, through the same handler).

A run is safe to repeat: it starts by removing whatever an earlier, interrupted run wrote,
and an import that already ended is left as it is (a FAILED one has its sweep finished)."""
from __future__ import annotations

from typing import Dict, Optional

from app import metrics
from app.errors import DomainError
from app.logs import logger
from app.core.clock import iso_in, new_id, now_iso
from app.core.conditional import delete_if, update_if
from app.imports import checks, staging, threads
from app.imports.model import ImportFileError
from app.imports.parse import parse_file, resolve_me
from app.imports import writer
from models.groups import (IMPORT, IMPORT_CHUNK_PREFIX, META, Group, GroupItem, GroupStatus,
                           ImportJob)
from models.groups.imports import DONE, FAILED, RUNNING

IMPORTING = GroupStatus.IMPORTING
# A run's hold on its import: past the worker's 900 s timeout, so a live run is never joined
# by a duplicate delivery; a crashed run's hold runs out before the queue redelivers (5400 s).
LEASE_SECONDS = 1000
# How long after a lease runs out the queue may still redeliver the message: its visibility
# timeout (template.yaml ImportQueue, 5400 s) times maxReceiveCount (3). Past its lease plus
# this, a RUNNING import has no run left to finish it: the maintenance job fails it.
REDELIVERY_WINDOW_SECONDS = 5400 * 3
STUCK_MESSAGE = ("The import stopped: no run finished it within its lease and the queue's "
                 "redeliveries; nothing was kept. Try again.")
STUCK_LIMIT = 25  # imports failed per maintenance run


def overdue_at() -> str:
    """When an import leased (or staged) now is stuck if still RUNNING."""
    return iso_in(LEASE_SECONDS + REDELIVERY_WINDOW_SECONDS)


def _job(group_id: str) -> Optional[ImportJob]:
    try:
        return ImportJob.get(*ImportJob.key(group_id), consistent_read=True)
    except (ImportJob.DoesNotExist, ValueError):
        return None


def run_import(group_id: str, import_id: str) -> str:
    """Run (or finish) one import; returns its final status."""
    job = _job(group_id)
    if job is None or job.ImportId != import_id:
        logger.warning("import.unknown", extra={"group_id": group_id})
        return FAILED
    if job.Status == DONE:  # a run that died right after its flip
        threads.file_templates(group_id)
        staging.unstage(group_id, int(job.ChunkCount))
        return DONE
    if job.Status == FAILED:
        remove_group(group_id)
        return FAILED
    token = claim(group_id)
    if token is None:
        logger.info("import.held_by_another_run", extra={"group_id": group_id})
        return RUNNING
    try:
        _import(group_id, job, token)
        return DONE
    except ImportFileError as error:
        fail(group_id, error.line, error.reason, token=token)
    except DomainError as error:
        fail(group_id, None, error.message, token=token)
    except Exception:  # noqa: BLE001 — reported on the import, never left RUNNING
        logger.exception("import.failed", extra={"group_id": group_id})
        fail(group_id, None, "The import failed on our side; nothing was kept. Try again.",
             token=token)
    return FAILED


def claim(group_id: str) -> Optional[str]:
    """Hold the import for this run (LEASE_SECONDS, past the worker's timeout); None when
    another run holds it (the condition failed). Any other error (throttling, a timeout)
    raises, so the message is retried rather than acknowledged as held."""
    token = new_id()
    held = update_if(
        ImportJob(*ImportJob.key(group_id)),
        [ImportJob.RunToken.set(token), ImportJob.LeaseUntil.set(iso_in(LEASE_SECONDS)),
         ImportJob.NextRunAt.set(overdue_at())],
        (ImportJob.Status == RUNNING) & (ImportJob.LeaseUntil.does_not_exist()
                                         | (ImportJob.LeaseUntil < now_iso())))
    return token if held else None


def _import(group_id: str, job: ImportJob, token: str) -> None:
    options: Dict = job.Options.as_dict() if hasattr(job.Options, "as_dict") else \
        dict(job.Options or {})
    text = staging.staged_text(group_id, int(job.ChunkCount))
    parsed = parse_file(job.Format, text, currency=options.get("currency"),
                        fallback_currency=options.get("fallbackCurrency") or "EUR")
    owner_key = resolve_me(parsed, options.get("me"))
    clear_partial(group_id)
    owner_id = new_id()
    written = writer.write(group_id, parsed, importer=job.ImporterUserId, owner_key=owner_key,
                           owner_participant_id=owner_id, convert=options.get("convert"))
    checks.balances_match(group_id, written)
    checks.source_totals(parsed, written)
    checks.flip(group_id, job, parsed, written, token=token, owner_key=owner_key,
                owner_id=owner_id, owner_name=options.get("ownerName") or "Me")
    if parsed.templates:
        threads.file_templates(group_id)
    staging.unstage(group_id, int(job.ChunkCount))


def fail(group_id: str, line: Optional[int], message: str, *,
         token: Optional[str] = None, overdue_by: Optional[str] = None) -> bool:
    """Record the failure (first bad line) and remove everything but the IMPORT row; with
    ``token``, only while this run still holds the import; with ``overdue_by``, only if it
    is still overdue then (no run claimed it meanwhile). A conflict means it ended or was
    taken meanwhile (logged); any other error raises."""
    job = ImportJob(*ImportJob.key(group_id))
    actions = [ImportJob.Status.set(FAILED), ImportJob.ErrorMessage.set(message[:1000]),
               ImportJob.FinishedAt.set(now_iso())] + checks.ENDED
    if line is not None:
        actions.append(ImportJob.ErrorLine.set(line))
    condition = ImportJob.Status == RUNNING
    if token is not None:
        condition &= ImportJob.RunToken == token
    if overdue_by is not None:
        condition &= ImportJob.NextRunAt <= overdue_by
    if not update_if(job, actions, condition):  # it ended meanwhile (DONE stays DONE)
        logger.warning("import.fail_not_recorded", extra={"group_id": group_id})
        return False
    remove_group(group_id)  # the staged file's chunks too
    metrics.count(metrics.IMPORTS_FAILED)
    return True


def fail_stuck() -> dict:
    """The maintenance job's sweep: fail every RUNNING import past its lease plus the queue's
    redelivery window, cleanly (everything staged and written removed, the reason on the
    import), at most STUCK_LIMIT per run."""
    now, failed = now_iso(), 0
    for job in list(ImportJob.overdue(now, limit=STUCK_LIMIT)):
        if job.Status != RUNNING:
            continue
        failed += fail(job.GroupId, None, STUCK_MESSAGE, overdue_by=now)
    if failed:
        logger.warning("import.stuck_failed", extra={"count": failed})
    return {"stuckImportsFailed": failed}


def _keys(group_id: str, keep) -> list:
    found = []
    for page in GroupItem.raw_pages(group_id, keys_only=True):
        found += [key for key in page if not keep(key[1])]
    return found


def clear_partial(group_id: str) -> None:
    """What an interrupted earlier run wrote (all but the head, the import and its file)."""
    GroupItem.raw_batch_delete(_keys(group_id, lambda sk: sk in (META, IMPORT)
                                     or sk.startswith(IMPORT_CHUNK_PREFIX)))


def remove_group(group_id: str) -> None:
    """Every row of a failed import's group but its IMPORT row; the head goes last, so a
    sweep that stops midway leaves a group that still reads as gone (IMPORTING)."""
    head = Group.key(group_id)
    GroupItem.raw_batch_delete(_keys(group_id, lambda sk: sk in (META, IMPORT)))
    delete_if(Group(*head), Group.Status == IMPORTING)  # False: already gone
