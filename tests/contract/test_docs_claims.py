"""No page says a route is "not built (yet)" while the route answers.

Every line of README.md and docs/*.md that says "not built" or "not yet" must name the
routes it is about (`GET /path`), and each of them must really be absent (404, or 405 where
its path serves other methods). A claim that names no route cannot be checked, so it fails
too: say what is missing by its route, or take the claim out once it is built. Then the three
claims this page once made falsely are checked against the server: personal access tokens,
415 for a body that is not JSON, and 409 GROUP_FULL (tests/groups/test_participant_cap.py
proves the cap itself; here, that the page says it). Then claims that once drifted from the
code: the MCP tools api.md lists, the CLI options local-mode.md lists, and currencies.md's
/fx/rates example."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CLAIM = re.compile(r"not\s+(?:built|yet)", re.IGNORECASE)
ROUTE = re.compile(r"\b(GET|POST|PUT|PATCH|DELETE) (/[\w{}\-./]*)")
# docs/api.md's explanation of its own "built" column, which the route rows below it use.
ABOUT_THE_COLUMN = ("this page is the overview and says what is **not built yet**",
                    "`not yet` means it is part of the contract but no server code")
ANY_ID = "1b4e28ba-2fa1-4d2b-a0c5-4f3c0d2e1a90"


def claims() -> list[tuple[str, int, str]]:
    found = []
    for page in PAGES:
        for number, line in enumerate(page.read_text().splitlines(), 1):
            if CLAIM.search(line) and not any(text in line for text in ABOUT_THE_COLUMN):
                found.append((page.relative_to(ROOT).as_posix(), number, line.strip()))
    return found


def test_every_not_built_claim_names_routes_that_are_really_absent(client, sign_in):
    headers, _ = sign_in("claims@example.com")
    wrong = []
    for page, number, line in claims():
        routes = ROUTE.findall(line)
        if not routes:
            wrong.append(f"{page}:{number}: names no route to check: {line[:120]}")
        for method, path in routes:
            concrete = re.sub(r"\{\w+\}", ANY_ID, path)
            status = client.open(concrete, method=method, headers=headers, json={}).status_code
            if status not in (404, 405):
                wrong.append(f"{page}:{number}: {method} {path} answers {status}")
    assert wrong == [], "\n".join(wrong)


def test_the_claims_the_api_page_once_got_wrong_are_true_now(client, sign_in):
    headers, _ = sign_in("claims@example.com")
    page = (ROOT / "docs" / "api.md").read_text()
    token = client.post("/developer/tokens", headers=headers,
                        json={"name": "claims", "scopes": ["groups:read"]}).get_json()["token"]
    assert token.startswith("tsp_")
    assert client.get("/users/me/groups",
                      headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert "A personal access token (`tsp_<tokenId>_<secret>`" in page
    not_json = client.post("/groups", headers={**headers, "Content-Type": "text/plain"},
                           data="name=Trip")
    assert not_json.status_code == 415
    assert "415 `UNSUPPORTED_MEDIA_TYPE`" in page
    assert "409 `GROUP_FULL`" in page


def test_the_api_page_names_every_mcp_tool():
    from app.mcp import registry

    row = next(line for line in (ROOT / "docs" / "api.md").read_text().splitlines()
               if line.startswith("| POST /mcp |"))
    assert [name for name in registry.TOOLS if f"`{name}`" not in row] == []


def test_the_local_mode_page_names_every_cli_option():
    from app.__main__ import _parser

    page = (ROOT / "docs" / "local-mode.md").read_text()
    commands = next(action for action in _parser()._actions
                    if action.dest == "command").choices
    missing = [f"{name} {option}" for name, command in commands.items()
               for action in command._actions for option in action.option_strings
               if option.startswith("--") and option != "--help"
               and not re.search(rf"`python -m app {name} [^`]*\[{option}[ \]]", page)
               and not re.search(rf"on each of them `[^`]*\[{option}[ \]]", page)]
    assert missing == []


def test_the_reference_rates_example_is_what_the_server_answers(client, sign_in):
    headers, _ = sign_in("claims@example.com")
    page = (ROOT / "docs" / "currencies.md").read_text()
    example = re.search(r"`GET (/fx/rates\?[^`]+)` \(any signed-in user\) →\n"
                        r"`\{base, date: \"([\d-]+)\", requestedDate, source: \"ECB\", "
                        r"rates: \{\"USD\": \"([\d.]+)\"", page)
    assert example, "docs/currencies.md's /fx/rates example changed shape"
    path, date, usd = example.groups()
    reply = client.get(path, headers=headers).get_json()
    assert (reply["date"], reply["rates"]["USD"]) == (date, usd)
