"""/imports: bring a group's whole history in from another app (docs/import.md)."""
from __future__ import annotations

from app.api.context import principal
from app.api.needs import needs
from app.api.spec import Blueprint, errors
from app.schemas.imports import ImportCreateSchema, ImportSchema, ImportStartedSchema
from app.services.imports import jobs

blp = Blueprint("imports", __name__, description="Import from Splitwise, Spliit, ihatemoney, "
                                                 "Cospend or a TailSpend export")

# The file travels inside the JSON body: 5 MB of text can take twice that once escaped.
# API Gateway takes at most 10 MB.
MAX_IMPORT_BODY = 10 * 1024 * 1024

START_DESCRIPTION = (
    "Reads the whole file first: one that cannot be imported is a 400 whose details name "
    "its first bad line (`details.line`), and nothing is created. Otherwise the new group "
    "is created unreadable (Status IMPORTING) and a background worker writes every row, "
    "checks that the balances equal a recomputation, and turns it ACTIVE in one write; on "
    "any failure it removes what it wrote and the import reports the first bad line. "
    "Members become GUEST participants; `me` makes one of them the caller's OWNER "
    "participant (otherwise the caller joins as a new OWNER). Poll GET /imports/{importId}.")


@blp.route("/imports", methods=["POST"])
@needs(idempotent=True, max_body_bytes=MAX_IMPORT_BODY)
@blp.arguments(ImportCreateSchema)
@blp.response(202, ImportStartedSchema)
@blp.doc(description=START_DESCRIPTION)
@errors(blp, (413, "PAYLOAD_TOO_LARGE: the file is past 5 MB (details.line: where)."))
def start_import(body):
    """Import a group from another app's export."""
    return jobs.start_import(principal().user_id, file_format=body["format"],
                             content=body["content"], name=body.get("name"),
                             currency=body.get("currency"), me=body.get("me"),
                             convert=body.get("convert"))


@blp.route("/imports/<uuid:importId>")
@needs()
@blp.response(200, ImportSchema)
@errors(blp, (404, "No import of the caller's with this id."))
def get_import(import_id):
    """An import's progress: RUNNING, DONE or FAILED, with counts and warnings."""
    return jobs.get_import(principal().user_id, str(import_id))
