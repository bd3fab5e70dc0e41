"""A group's way out and in: export (CSV, JSON), import from other apps and our JSON."""
from __future__ import annotations

from flask import current_app, jsonify
from app.api.context import principal
from app.api.needs import needs
from app.api.spec import NOT_FOUND, Blueprint, errors
from app.imports import export, jobs
from app.imports.schemas import ImportCreateSchema, ImportSchema, ImportStartedSchema
from app.imports.schemas import ExportArgsSchema, ExportSchema


# ---------------------------------------------------------------- export
# Group export: /groups/{groupId}/export?format=csv|json.

export_blp = Blueprint("export", __name__, description="Group export")

_RESPONSES = {"200": {"description": "CSV in the shape Splitwise exports, or (format=json) "
                                     "the whole group: head, participants, expenses, "
                                     "settlements, balances, every expense's comments and "
                                     "every recurring template, which POST /imports "
                                     "(tailspend-json) brings back",
                      "content": {"text/csv": {"schema": {"type": "string"}},
                                  "application/json": {"schema": ExportSchema}}}}


@export_blp.route("/groups/<uuid:groupId>/export")
@needs(role="VIEWER", pat="groups:read")
@export_blp.arguments(ExportArgsSchema, location="query")
@export_blp.doc(responses=_RESPONSES)
@errors(export_blp, NOT_FOUND)
def export_group(args, access):
    """The group's expenses, settlements, balances, comments and recurring templates
    (VIEWER+)."""
    if args["format"] == "json":
        return jsonify(ExportSchema().dump(export.export_json(access)))
    response = current_app.response_class(export.export_csv(access), mimetype="text/csv")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="tailspend-{access.group_id}.csv"')
    return response


# ---------------------------------------------------------------- imports
# /imports: bring a group's whole history in from another app (docs/import.md).

imports_blp = Blueprint("imports", __name__, description="Import from Splitwise, Spliit, ihatemoney, "
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


@imports_blp.route("/imports", methods=["POST"])
@needs(idempotent=True, max_body_bytes=MAX_IMPORT_BODY)
@imports_blp.arguments(ImportCreateSchema)
@imports_blp.response(202, ImportStartedSchema)
@imports_blp.doc(description=START_DESCRIPTION)
@errors(imports_blp, (413, "PAYLOAD_TOO_LARGE: the file is past 5 MB (details.line: where)."))
def start_import(body):
    """Import a group from another app's export."""
    return jobs.start_import(principal().user_id, file_format=body["format"],
                             content=body["content"], name=body.get("name"),
                             currency=body.get("currency"), me=body.get("me"),
                             convert=body.get("convert"))


@imports_blp.route("/imports/<uuid:importId>")
@needs()
@imports_blp.response(200, ImportSchema)
@errors(imports_blp, (404, "No import of the caller's with this id."))
def get_import(import_id):
    """An import's progress: RUNNING, DONE or FAILED, with counts and warnings."""
    return jobs.get_import(principal().user_id, str(import_id))
