"""What a tool is: its name, schemas, the REST view it stands for, and how it runs."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional

from app.api.mcp.json_schema import json_schema, output_schema
from app.api.pat import required_scope
from app.auth.principal import Principal


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
    creates: bool = False
    args_extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def scope(self) -> Optional[str]:
        return required_scope(self.rest_view)

    def describe(self) -> dict:
        annotations = {"title": self.title, "readOnlyHint": not self.creates,
                       "destructiveHint": False, "idempotentHint": not self.creates,
                       "openWorldHint": False}
        return {"name": self.name, "title": self.title,
                "description": f"{self.description} Needs the {self.scope} scope.",
                "inputSchema": json_schema(self.args, extra=self.args_extra),
                "outputSchema": output_schema(self.result), "annotations": annotations}
