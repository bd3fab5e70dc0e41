"""Group export: /groups/{groupId}/export?format=csv|json."""
from __future__ import annotations

from flask import current_app, jsonify

from app.api.needs import needs
from app.api.spec import NOT_FOUND, Blueprint, errors
from app.schemas.balances import ExportArgsSchema, ExportSchema
from app.services.ledger import export

blp = Blueprint("export", __name__, description="Group export")

_RESPONSES = {"200": {"description": "CSV in the shape Splitwise exports, or (format=json) "
                                     "the whole group: head, participants, expenses, "
                                     "settlements, balances, every expense's comments and "
                                     "every recurring template, which POST /imports "
                                     "(tailspend-json) brings back",
                      "content": {"text/csv": {"schema": {"type": "string"}},
                                  "application/json": {"schema": ExportSchema}}}}


@blp.route("/groups/<uuid:groupId>/export")
@needs(role="VIEWER", pat="groups:read")
@blp.arguments(ExportArgsSchema, location="query")
@blp.doc(responses=_RESPONSES)
@errors(blp, NOT_FOUND)
def export_group(args, access):
    """The group's expenses, settlements, balances, comments and recurring templates
    (VIEWER+)."""
    if args["format"] == "json":
        return jsonify(ExportSchema().dump(export.export_json(access)))
    response = current_app.response_class(export.export_csv(access), mimetype="text/csv")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="tailspend-{access.group_id}.csv"')
    return response
