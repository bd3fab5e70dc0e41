"""The official TypeScript MCP SDK (`@modelcontextprotocol/sdk`, pinned in tests/mcp/ts) end
to end against `python -m app serve`: discovery, registration, PKCE consent by form posts,
every tool (a tool error reaching the host as a result), a refresh, and a disconnect.

The SDK is what Node hosts are built on, and it checks more than the Python SDK does (1.32
validates structuredContent against outputSchema even on error results). It is installed
from npm on first use into tests/mcp/ts/node_modules (git-ignored), exactly as the lock file
says; later runs find it there and install nothing."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path


from tests.contract.node_tools import npm_ci
from tests.local.serving import sign_in

PROJECT = Path(__file__).parent / "ts"
EMAIL = "ts-host@example.com"


def installed_sdk() -> Path:
    """tests/mcp/ts/node_modules as package-lock.json pins it (tests/contract/node_tools)."""
    return npm_ci(PROJECT, "the TypeScript SDK test")


def run_host(server) -> dict:
    """Run tests/mcp/ts/e2e.mjs against the served app, and return its report."""
    project = installed_sdk()
    app_token, _ = sign_in(server, EMAIL)
    node = shutil.which("node")
    assert node, "node (20+) is needed for the TypeScript SDK test"
    run = subprocess.run([node, "e2e.mjs"], cwd=project, capture_output=True, text=True,
                         timeout=180, env={"PATH": str(Path(node).parent),
                                           "BASE_URL": server.url, "EMAIL": EMAIL,
                                           "APP_TOKEN": app_token})
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads(run.stdout)


def test_the_typescript_sdk_end_to_end(served_app):
    """One test (one Node run), so parallel workers never run it twice."""
    report = run_host(served_app)
    discovers_registers_and_signs_in(report)
    every_tool_answers_a_result_the_sdk_accepts(report)
    a_tool_error_reaches_the_host_as_a_result(report)
    refresh_then_disconnect_sends_the_host_back_to_sign_in(report)


def discovers_registers_and_signs_in(report):
    requests = report["requests"]
    assert "GET /.well-known/oauth-protected-resource/mcp" in requests or (
        "GET /.well-known/oauth-protected-resource" in requests)
    assert "GET /.well-known/oauth-authorization-server" in requests
    assert "POST /oauth/register" in requests and "POST /oauth/token" in requests
    assert report["registered"]["software_id"] == "tailspend-ts-e2e"
    assert report["consentPages"][-1] == "/oauth/consent" and report["iss"]


def every_tool_answers_a_result_the_sdk_accepts(report):
    assert set(report["calls"]) == set(report["tools"])  # every listed tool was called
    failed = [(name, call["text"]) for name, calls in report["calls"].items() for call in calls
              if call["isError"]]
    # only the deliberate ones: a refused amount, a receipt that was never uploaded and a
    # settlement with someone who shares no group
    assert sorted(name for name, _ in failed) == ["add_expense", "get_receipt",
                                                  "settle_with_person"], failed
    settled = report["calls"]["get_balances"][-1]["structured"]
    assert {b["net"] for b in settled["balances"]} == {0}
    recorded = report["calls"]["settle_up"][0]["structured"]["recorded"]
    assert [s["amountFormatted"] for s in recorded] == ["20.00 EUR"]


def a_tool_error_reaches_the_host_as_a_result(report):
    [failed] = [c for c in report["calls"]["add_expense"] if c["isError"]]
    assert failed["structured"] is None
    assert failed["text"].startswith("VALIDATION_ERROR:")
    assert "EUR has 2 decimal places; send at most 2" in failed["text"]


def refresh_then_disconnect_sends_the_host_back_to_sign_in(report):
    assert report["refreshed"] is True
    assert report["disconnected"] == 204
    assert report["afterDisconnect"] == "unauthorized"
    assert report["reauthorizeAfterDisconnect"] == 1  # the host asks the user to sign in again
