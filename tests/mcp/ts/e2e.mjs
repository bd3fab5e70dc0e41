// The official TypeScript MCP SDK (pinned in package.json) as a host would use it, against
// `python -m app serve` (tests/mcp/test_mcp_ts_sdk_e2e.py starts both and reads the report).
//
// Discovery from /mcp's 401, dynamic registration, PKCE consent by form posts (the person at
// the browser: sign in on the local form, approve), every tool, a tool error that must reach
// the host as a result, a refresh, and a disconnect after which the host is sent back to
// sign-in. Prints one JSON report on stdout; any throw is a non-zero exit.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const BASE = process.env.BASE_URL;
const EMAIL = process.env.EMAIL;
const APP_TOKEN = process.env.APP_TOKEN;
const REDIRECT = "http://127.0.0.1:8977/callback"; // never listened on: the script reads the 302
const report = { requests: [], calls: {}, registered: null, reauthorize: 0 };

// Every HTTP request the SDK makes, by method and path (discovery, registration, tokens).
const recordingFetch = async (url, init) => {
  const target = new URL(url);
  report.requests.push(`${init?.method ?? "GET"} ${target.pathname}`);
  return fetch(url, init);
};

function hiddenFields(page) {
  const fields = {};
  for (const match of page.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
    fields[match[1]] = match[2].replaceAll("&amp;", "&").replaceAll("&#34;", '"').replaceAll("&quot;", '"');
  }
  return fields;
}

// The person at the browser: follows the authorization URL through sign-in and consent.
async function consent(authorizationUrl) {
  const cookies = new Map();
  const send = async (url, init = {}) => {
    const headers = { ...(init.headers ?? {}) };
    if (cookies.size) headers.Cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const reply = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const cookie of reply.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return reply;
  };
  const post = (url, form) => send(url, {
    method: "POST", body: new URLSearchParams(form).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  let url = authorizationUrl.toString();
  const pages = [];
  for (let step = 0; step < 10; step++) {
    if (url.startsWith(REDIRECT)) {
      const query = new URL(url).searchParams;
      report.consentPages = pages;
      report.iss = query.get("iss");
      return query.get("code");
    }
    const page = await send(url);
    pages.push(new URL(url).pathname);
    if (page.status === 302 || page.status === 303) {
      url = new URL(page.headers.get("location"), url).toString();
      continue;
    }
    if (page.status !== 200) throw new Error(`${url}: ${page.status} ${await page.text()}`);
    const text = await page.text();
    const path = new URL(url).pathname;
    const reply = path.endsWith("/login")
      ? await post(new URL("/oauth/login", url), { ...hiddenFields(text), email: EMAIL })
      : await post(new URL("/oauth/consent", url), { ...hiddenFields(text), decision: "approve" });
    if (reply.status !== 302 && reply.status !== 303) {
      throw new Error(`${path}: ${reply.status} ${await reply.text()}`);
    }
    url = new URL(reply.headers.get("location"), url).toString();
  }
  throw new Error(`consent did not finish: ${pages}`);
}

class MemoryProvider {
  constructor() { this.pendingCode = null; this.interactive = true; }
  get redirectUrl() { return REDIRECT; }
  get clientMetadata() {
    return { client_name: "TS E2E", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"],
             response_types: ["code"], token_endpoint_auth_method: "none", software_id: "tailspend-ts-e2e",
             software_version: "1.32.2" };
  }
  clientInformation() { return this.client; }
  saveClientInformation(info) { this.client = info; report.registered ??= info; }
  tokens() { return this.saved; }
  saveTokens(tokens) { this.saved = tokens; report.tokensSaved = (report.tokensSaved ?? 0) + 1; }
  saveCodeVerifier(verifier) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
  async redirectToAuthorization(url) {
    report.reauthorize += 1;
    if (this.interactive) this.pendingCode = await consent(url);
  }
  invalidateCredentials(scope) { (report.invalidated ??= []).push(scope); if (scope === "all" || scope === "tokens") this.saved = undefined; }
}

async function connect(provider) {
  const open = () => {
    const transport = new StreamableHTTPClientTransport(new URL(BASE + "/mcp"), { authProvider: provider, fetch: recordingFetch });
    return { transport, client: new Client({ name: "tailspend-ts-e2e", version: "1.0.0" }) };
  };
  let { transport, client } = open();
  try {
    await client.connect(transport);
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || !provider.pendingCode) throw error;
    await transport.finishAuth(provider.pendingCode);
    ({ transport, client } = open());
    await client.connect(transport);
  }
  return client;
}

const provider = new MemoryProvider();
const mcp = await connect(provider);
report.tools = (await mcp.listTools()).tools.map((tool) => tool.name);

async function call(name, args) {
  const result = await mcp.callTool({ name, arguments: args });
  report.calls[name] = report.calls[name] ?? [];
  report.calls[name].push({ isError: result.isError ?? false, structured: result.structuredContent ?? null,
                            text: result.content?.[0]?.text ?? null });
  return result;
}
const data = (result) => {
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent;
};

const group = data(await call("create_group", { name: "TS trip", currency: "EUR", idempotencyKey: "ts-group" }));
const groupId = group.groupId, me = group.myParticipantId;
const bob = data(await call("add_guest", { groupId, displayName: "Bob" })).participantId;
data(await call("list_groups", { name: "ts trip" }));
data(await call("get_group", { groupId }));
const dinner = data(await call("add_expense", {
  groupId, description: "Dinner", amount: "45.00", category: "FOOD", splitMode: "EQUAL",
  payments: [{ participantId: me, amount: "45.00" }], splits: [{ participantId: me }, { participantId: bob }],
  idempotencyKey: "ts-dinner" }));
data(await call("add_comment", { groupId, expenseId: dinner.expenseId, body: "Worth it" }));
const read = data(await call("get_expense", { groupId, expenseId: dinner.expenseId }));
data(await call("update_expense", { groupId, expenseId: dinner.expenseId, version: read.version, amount: "40.00",
                                    payments: [{ participantId: me, amount: "40.00" }] }));
data(await call("list_expenses", { groupId, text: "dinner", participantId: bob }));
// The error a host must show the model, as a result (not a thrown -32602).
await call("add_expense", { groupId, description: "Tea", amount: "5.001", splitMode: "EQUAL",
                            payments: [{ participantId: me, amount: "5.001" }], splits: [{ participantId: me }] });
const paid = data(await call("record_settlement", { groupId, payerId: bob, payeeId: me, amount: "5.00" }));
data(await call("list_settlements", { groupId }));
data(await call("delete_settlement", { groupId, settlementId: paid.settlementId }));
const plan = data(await call("get_balances", { groupId }));
data(await call("settle_up", { groupId, revision: plan.revision, idempotencyKey: "ts-settle" }));
data(await call("get_balances", { groupId, view: "pairwise" }));
data(await call("explain_balance", { groupId, participantId: bob }));
// Nobody else has an account in the group: settling with a stranger is NOTHING_OWED, a tool
// error the SDK still reads as a result.
const nobody = await call("settle_with_person", { userId: "00000000-0000-4000-8000-000000000000",
                                                  currency: "EUR", direction: "PAY" });
if (!nobody.isError || !nobody.content[0].text.startsWith("NOTHING_OWED")) throw new Error(JSON.stringify(nobody));
data(await call("get_stats", { groupId, by: "category" }));
data(await call("get_stats", { by: "month" }));
data(await call("search_expenses", { text: "dinner" }));
data(await call("list_people_balances", {}));
const housed = data(await call("set_household", { groupId, participantId: bob, household: "Flat" }));
if (housed.household !== "Flat") throw new Error(JSON.stringify(housed));
// No receipt was uploaded over MCP (an upload is a presigned POST): a tool error the SDK
// still reads as a result.
const missing = await call("get_receipt", { groupId, receiptId: "00000000-0000-4000-8000-000000000000" });
if (!missing.isError || !missing.content[0].text.startsWith("NOT_FOUND")) throw new Error(JSON.stringify(missing));
const extra = data(await call("add_expense", { groupId, description: "Oops", amount: "1.00", splitMode: "EQUAL",
                                               payments: [{ participantId: me, amount: "1.00" }], splits: [{ participantId: me }] }));
data(await call("delete_expense", { groupId, expenseId: extra.expenseId }));

// Refresh: the access token is no longer accepted; the SDK refreshes and retries.
const before = provider.saved.refresh_token;
provider.saved = { ...provider.saved, access_token: "expired" };
data(await call("list_groups", {}));
report.refreshed = provider.saved.refresh_token !== before;

// Disconnect: the user removes the connection in the app; the host is sent back to sign-in.
const listed = await (await fetch(BASE + "/users/me/connections", { headers: { Authorization: `Bearer ${APP_TOKEN}` } })).json();
const connection = listed.items.find((item) => (item.clientName ?? item.client) === "TS E2E");
const removed = await fetch(`${BASE}/users/me/connections/${connection.grantId}`,
                            { method: "DELETE", headers: { Authorization: `Bearer ${APP_TOKEN}` } });
report.disconnected = removed.status;
provider.interactive = false;
const reauthorizeBefore = report.reauthorize;
try {
  await mcp.callTool({ name: "list_groups", arguments: {} });
  report.afterDisconnect = "answered";
} catch (error) {
  report.afterDisconnect = error instanceof UnauthorizedError ? "unauthorized" : `other: ${error}`;
}
report.reauthorizeAfterDisconnect = report.reauthorize - reauthorizeBefore;
await mcp.close();
process.stdout.write(JSON.stringify(report));
