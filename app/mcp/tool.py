"""What a tool is: its name, schemas, the REST view it stands for, and how it runs."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from app.mcp.json_schema import input_schema, output_schema
from app.api import needs
from app.auth.principal import Principal
from app.mcp.schemas import PROPERTY_TEXT


class Dumped(dict):
    """A result already in wire form (an idempotent replay stores the dumped reply)."""


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    args: type  # marshmallow schema of the arguments
    result: Any  # marshmallow schema (class or instance) the REST route answers with
    rest_view: Callable  # the REST view this tool stands for: its PAT scope is the tool's
    run: Callable[[Principal, dict], dict]  # (caller, loaded arguments) -> service result
    creates: bool = False  # its REST twin is a POST: counts against the daily creates
    writes: bool = False  # changes something (every create does)
    destructive: bool = False  # overwrites or deletes what was there
    # A tool that does only part of a route PATs may not call (set_household: a household,
    # never a role) names its own scope; otherwise the REST view's is the tool's.
    own_scope: Optional[str] = None

    @property
    def scope(self) -> Optional[str]:
        return self.own_scope or needs.of(self.rest_view).pat

    def describe(self) -> dict:
        writes = self.writes or self.creates
        annotations = {"title": self.title, "readOnlyHint": not writes,
                       "destructiveHint": self.destructive,
                       "idempotentHint": not self.creates, "openWorldHint": False}
        # The scope rides in _meta (OpenAI's per-tool securitySchemes shape), not in the text
        # the model reads: a call without it is answered 403 insufficient_scope to step up.
        meta = {"securitySchemes": [{"type": "oauth2", "scopes": [self.scope]}]}
        return {"name": self.name, "title": self.title, "description": self.description,
                "inputSchema": input_schema(self.args, property_text=PROPERTY_TEXT),
                "outputSchema": output_schema(self.result), "annotations": annotations,
                "_meta": meta}
