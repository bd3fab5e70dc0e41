import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { Balances, Expense, Group, HomeGroup, Participant } from "../api/client";

/** The last state of a group this device opened: shown at once, offline too, then brought
 * up to date through /changes since `revision`. */
export type GroupState = {
  groupId: string;
  group: Group;
  participants: Participant[];
  expenses: Expense[];
  balances: Balances | null;
  revision: number;
};

/** A write made on this device, sent in `seq` order with its Idempotency-Key. */
export type QueuedWrite = {
  seq?: number;
  groupId: string;
  method: "POST" | "PATCH" | "DELETE";
  path: string;
  body?: unknown;
  key: string;
  label: string;
  amount?: number;
  createdAt: string;
};

interface Tables extends DBSchema {
  groups: { key: string; value: GroupState };
  outbox: { key: number; value: QueuedWrite };
  home: { key: string; value: { id: string; items: HomeGroup[] } };
}

let opened: Promise<IDBPDatabase<Tables>> | null = null;

export function db(): Promise<IDBPDatabase<Tables>> {
  opened ??= openDB<Tables>("tailspend", 1, {
    upgrade(database) {
      database.createObjectStore("groups", { keyPath: "groupId" });
      database.createObjectStore("outbox", { keyPath: "seq", autoIncrement: true });
      database.createObjectStore("home", { keyPath: "id" });
    },
  });
  return opened;
}

/** Sign-out (or another person signing in on this device) leaves nothing behind. */
export async function forgetEverything(): Promise<void> {
  const database = await db();
  await Promise.all([database.clear("groups"), database.clear("outbox"), database.clear("home")]);
}
