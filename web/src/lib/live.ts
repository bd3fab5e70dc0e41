import { api, must } from "../api/client";
import { session } from "../api/session";
import { groups, refreshGroup, refreshHome } from "./groups";
import { Store } from "./store";

// Live updates (docs/realtime.md): a WebSocket speaking AppSync Events' protocol, local
// mode's server or AWS's. A poke names a group and its revision, never data: the group is
// brought up to date through /changes, so a lost poke loses nothing.

export const connected = new Store<boolean>(false);
let socket: WebSocket | null = null;
let renewTimer: ReturnType<typeof setTimeout> | undefined;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let stopped = true;

function base64url(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

type Poke = { groupId: string | null; revision: number | null; kind: string; id: string };

function onPoke(poke: Poke): void {
  if (poke.kind === "HOME" || poke.kind === "REVOKED") {
    void refreshHome().catch(() => undefined);
    if (poke.kind === "HOME") reconnect(); // a new group: a new token lists its channel
    return;
  }
  if (poke.groupId && groups.get()[poke.groupId]) void refreshGroup(poke.groupId).catch(() => undefined);
  else if (poke.groupId) void refreshHome().catch(() => undefined);
}

async function connect(): Promise<void> {
  if (stopped || !session.get() || !navigator.onLine) return;
  let grant;
  try {
    grant = must(await api.POST("/realtime/token", {}));
  } catch {
    retry();
    return;
  }
  const auth = { host: grant.host, Authorization: grant.token };
  let ws: WebSocket;
  try {
    ws = new WebSocket(grant.url, ["aws-appsync-event-ws", `header-${base64url(JSON.stringify(auth))}`]);
  } catch {
    retry(); // an endpoint the browser refuses (a CSP, a bad URL): try again later
    return;
  }
  socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "connection_init" }));
  ws.onmessage = (message) => {
    let frame;
    try {
      frame = JSON.parse(String(message.data));
    } catch {
      return; // not a frame of the protocol: nothing to act on
    }
    if (frame.type === "connection_ack") {
      for (const channel of grant.channels) {
        ws.send(JSON.stringify({ type: "subscribe", id: crypto.randomUUID(), channel, authorization: auth }));
      }
      connected.set(true);
      // Pokes sent while we were away are gone: catch every open group up once.
      for (const groupId of Object.keys(groups.get())) void refreshGroup(groupId).catch(() => undefined);
    } else if (frame.type === "data") {
      try {
        onPoke(JSON.parse(frame.event) as Poke);
      } catch {
        // A poke we cannot read: the next sync catches up anyway.
      }
    }
  };
  ws.onclose = () => {
    if (socket === ws) {
      socket = null;
      connected.set(false);
      retry();
    }
  };
  // Renew a minute before the token's end (the server closes the socket at expiresAt).
  clearTimeout(renewTimer);
  const renewIn = Math.max(5_000, Date.parse(grant.expiresAt) - Date.now() - 60_000);
  renewTimer = setTimeout(reconnect, renewIn);
}

function retry(): void {
  clearTimeout(retryTimer);
  if (!stopped) retryTimer = setTimeout(() => void connect(), 2_000);
}

export function reconnect(): void {
  const old = socket;
  socket = null;
  old?.close();
  connected.set(false);
  void connect();
}

export function startLive(): void {
  if (!stopped) return;
  stopped = false;
  void connect();
}

export function stopLive(): void {
  stopped = true;
  clearTimeout(renewTimer);
  clearTimeout(retryTimer);
  const old = socket;
  socket = null;
  old?.close();
  connected.set(false);
}

window.addEventListener("online", () => {
  if (!stopped && !socket) void connect();
});
