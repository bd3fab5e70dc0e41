import { api, must, isNetworkFailure, type Change, type Expense, type Group,
         type HomeGroup, type Participant } from "../api/client";
import { db, type GroupState } from "./db";
import { Store } from "./store";

// Group state: IndexedDB first (offline, instant), then the server: a full read the first
// time, afterwards only GET /changes since the revision we hold (docs/changes.md).

export const groups = new Store<Record<string, GroupState>>({});
export const home = new Store<HomeGroup[] | null>(null);
export const online = new Store<boolean>(navigator.onLine);
window.addEventListener("online", () => online.set(true));
window.addEventListener("offline", () => online.set(false));

function put(state: GroupState): void {
  groups.update((all) => ({ ...all, [state.groupId]: state }));
  void db().then((database) => database.put("groups", state)).catch(() => undefined);
}

export async function cachedGroup(groupId: string): Promise<GroupState | undefined> {
  const known = groups.get()[groupId];
  if (known) return known;
  const stored = await (await db()).get("groups", groupId);
  if (stored) groups.update((all) => ({ ...all, [groupId]: stored }));
  return stored;
}

async function fullRead(groupId: string): Promise<GroupState> {
  const path = { params: { path: { groupId } } };
  // The balances' revision first: whatever changes after it comes again through /changes.
  const balances = must(await api.GET("/groups/{groupId}/balances", path));
  const [group, participants] = await Promise.all([
    api.GET("/groups/{groupId}", path).then(must),
    api.GET("/groups/{groupId}/participants", path).then(must),
  ]);
  const expenses: Expense[] = [];
  let cursor: string | undefined;
  do {
    const page = must(await api.GET("/groups/{groupId}/expenses", {
      params: { path: { groupId }, query: { limit: 100, cursor } },
    }));
    expenses.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && expenses.length < 2000);
  return { groupId, group, participants: participantList(participants), expenses, balances,
           revision: balances.revision };
}

function participantList(reply: unknown): Participant[] {
  return Array.isArray(reply) ? reply : ((reply as { items: Participant[] }).items ?? []);
}

function byDateDesc(a: Expense, b: Expense): number {
  return b.date.localeCompare(a.date) || (b.createdAt ?? "").localeCompare(a.createdAt ?? "");
}

function applyChange(state: GroupState, change: Change): GroupState {
  const data = change.data as unknown;
  if (change.kind === "EXPENSE") {
    const rest = state.expenses.filter((e) => e.expenseId !== change.id);
    const expenses = change.op === "DELETE" ? rest : [...rest, data as Expense].sort(byDateDesc);
    return { ...state, expenses };
  }
  if (change.kind === "PARTICIPANT") {
    const rest = state.participants.filter((p) => p.participantId !== change.id);
    return { ...state, participants: change.op === "DELETE" ? rest : [...rest, data as Participant] };
  }
  if (change.kind === "GROUP" && change.op === "UPSERT" && data) {
    return { ...state, group: { ...state.group, ...(data as Group) } };
  }
  return state;
}

async function catchUp(state: GroupState): Promise<GroupState> {
  let current = state;
  let moved = false;
  for (let page = 0; page < 50; page++) {
    const feed = must(await api.GET("/groups/{groupId}/changes", {
      params: { path: { groupId: state.groupId }, query: { since: current.revision, limit: 100 } },
    }));
    if (feed.reset) return fullRead(state.groupId);
    for (const change of feed.changes) current = applyChange(current, change);
    moved ||= feed.changes.length > 0 || feed.revision !== current.revision;
    current = { ...current, revision: feed.nextSince ?? feed.revision };
    if (!feed.hasMore) break;
  }
  if (moved) {
    const balances = must(await api.GET("/groups/{groupId}/balances", {
      params: { path: { groupId: state.groupId } },
    }));
    current = { ...current, balances };
  }
  return current;
}

const running = new Map<string, Promise<void>>();
const again = new Set<string>();

/** Bring one group up to date; pokes arriving meanwhile coalesce into one more pass. */
export function refreshGroup(groupId: string): Promise<void> {
  const busy = running.get(groupId);
  if (busy) {
    again.add(groupId);
    return busy;
  }
  const pass = (async () => {
    do {
      again.delete(groupId);
      const known = await cachedGroup(groupId);
      try {
        put(known ? await catchUp(known) : await fullRead(groupId));
      } catch (error) {
        if (!isNetworkFailure(error)) throw error;
        online.set(false); // what we hold stays on screen; the outbox retries when back
        return;
      }
    } while (again.has(groupId));
  })().finally(() => running.delete(groupId));
  running.set(groupId, pass);
  return pass;
}

export async function refreshHome(): Promise<void> {
  const database = await db();
  if (home.get() === null) {
    const stored = await database.get("home", "groups");
    if (stored) home.set(stored.items);
  }
  try {
    const page = must(await api.GET("/users/me/groups", { params: { query: { limit: 100 } } }));
    home.set(page.items);
    await database.put("home", { id: "groups", items: page.items });
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    online.set(false);
  }
}

export function forgetGroups(): void {
  groups.set({});
  home.set(null);
}

/** A group's own fields as a reply just returned them (settings, archive), shown at once
 * rather than after the next /changes pass. */
export function replaceGroup(groupId: string, group: Group): void {
  const known = groups.get()[groupId];
  if (known) put({ ...known, group: { ...known.group, ...group } });
}
