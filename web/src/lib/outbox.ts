import { apiError, isNetworkFailure, type Expense } from "../api/client";
import { session } from "../api/session";
import { db, type QueuedWrite } from "./db";
import { online, refreshGroup } from "./groups";
import { Store } from "./store";

// Every write goes through here, online or not: queued in IndexedDB with its Idempotency-Key,
// then sent in order. Offline, it waits for the `online` event; a send whose reply was lost
// is sent again with the same key, and the server replays the first reply instead of
// writing twice (api.md "Idempotency-Key").

export const queued = new Store<QueuedWrite[]>([]);
/** An edit the server refused with 409 VERSION_CONFLICT: ours, and the expense as it is now. */
export type Conflict = { write: QueuedWrite; current: Expense | null };
export const conflicts = new Store<Conflict[]>([]);
export const failures = new Store<string[]>([]);

async function reload(): Promise<void> {
  queued.set(await (await db()).getAll("outbox"));
}

export async function enqueue(write: Omit<QueuedWrite, "key" | "createdAt">): Promise<void> {
  const entry: QueuedWrite = { ...write, key: crypto.randomUUID(), createdAt: new Date().toISOString() };
  await (await db()).add("outbox", entry);
  await reload();
  void flush();
}

async function send(write: QueuedWrite): Promise<Response> {
  const current = session.get();
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (current) headers.Authorization = `Bearer ${current.token}`;
  if (write.method === "POST") headers["Idempotency-Key"] = write.key;
  return fetch(write.path, {
    method: write.method, headers,
    body: write.body === undefined ? undefined : JSON.stringify(write.body),
  });
}

let flushing: Promise<void> | null = null;

/** Send what is queued, oldest first; stops at the first write the network did not carry. */
export function flush(): Promise<void> {
  flushing ??= (async () => {
    try {
      await reload();
      const database = await db();
      for (const write of await database.getAll("outbox")) {
        let reply: Response;
        try {
          reply = await send(write);
        } catch (error) {
          if (isNetworkFailure(error)) {
            online.set(false);
            return;
          }
          throw error;
        }
        if (reply.status >= 500 || reply.status === 429 || reply.status === 409 &&
            (await reply.clone().json().catch(() => null))?.error?.code === "IDEMPOTENCY_IN_PROGRESS") {
          setTimeout(() => void flush(), 3000); // the server is busy: keep the order, retry
          return;
        }
        if (!online.get()) online.set(true); // a reply came: whatever said offline was wrong
        if (!reply.ok) await refused(write, reply);
        await database.delete("outbox", write.seq!);
        await reload();
        void refreshGroup(write.groupId).catch(() => undefined);
      }
    } finally {
      flushing = null;
    }
  })();
  return flushing;
}

async function refused(write: QueuedWrite, reply: Response): Promise<void> {
  const error = apiError(reply.status, await reply.json().catch(() => undefined));
  if (error.code === "VERSION_CONFLICT") {
    const now = await fetch(write.path, {
      headers: { Authorization: `Bearer ${session.get()?.token ?? ""}` },
    }).then((r) => (r.ok ? r.json() : null)).catch(() => null);
    conflicts.update((all) => [...all, { write, current: now as Expense | null }]);
  } else {
    failures.update((all) => [...all, `${write.label}: ${error.message}`]);
  }
}

export function dismissConflict(conflict: Conflict): void {
  conflicts.update((all) => all.filter((c) => c !== conflict));
}

online.subscribe((isOnline) => {
  if (isOnline) void flush();
});
// A server that was down while the browser stayed online fires no `online` event.
setInterval(() => {
  if (queued.get().length && navigator.onLine) void flush();
}, 5000);
void reload();
