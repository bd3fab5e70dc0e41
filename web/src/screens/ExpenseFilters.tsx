// The expense list's filters (issue 49): words, a person (paid, or paid or shares in it),
// category, date range, amount range, kind (expense, income, payments between people).
//
// Online, what GET /groups/{groupId}/expenses filters itself goes to it (q, participantId,
// category, from, to, minAmount, maxAmount: api.md "Insight"); the API has no kind filter and its participantId
// means "pays or owes", so "paid" and the kind are applied here to the pages it returns.
// GET /groups/{groupId}/settlements takes no filter at all: payments between people are
// filtered here. Offline, the group's stored expenses are filtered here by the same rules.
import { useEffect, useState } from "preact/hooks";
import { api, isNetworkFailure, must, type Expense, type Schemas } from "../api/client";
import { t } from "../i18n";
import type { GroupState } from "../lib/db";
import { parseMoney } from "../lib/money";
import { CATEGORIES } from "../lib/expenseDraft";
import { online } from "../lib/groups";
import { useStore } from "../lib/store";
import { categoryLabel } from "./ExpenseForm";
import { Field, Select, describe } from "./parts";

export type Settlement = Schemas["Settlement"];
export const FILTER_KINDS = ["ALL", "EXPENSE", "INCOME", "SETTLEMENT"] as const;
export type FilterKind = (typeof FILTER_KINDS)[number];
export type Filters = { query: string; person: string; paidOnly: boolean; category: string;
                        from: string; to: string; kind: FilterKind;
                        // As typed, in the group's currency ("12,50"); read by amountRange.
                        minAmount: string; maxAmount: string };
export const NO_FILTERS: Filters = { query: "", person: "", paidOnly: false, category: "", from: "",
                                     to: "", kind: "ALL", minAmount: "", maxAmount: "" };

type AmountRange = { min?: number; max?: number; invalid: boolean };

/** The typed bounds in group minor units; a bound that is not an amount is reported, not
 * ignored (a filter silently dropped would show rows the person meant to exclude). */
function amountRange(filters: Filters, currency: string): AmountRange {
  const bound = (text: string) => (text.trim() ? parseMoney(text.trim(), currency) : undefined);
  const min = bound(filters.minAmount), max = bound(filters.maxAmount);
  const invalid = min === null || max === null || (min != null && max != null && min > max);
  return { min: min ?? undefined, max: max ?? undefined, invalid };
}

function inAmounts(amount: number, range: AmountRange): boolean {
  return (range.min === undefined || amount >= range.min) && (range.max === undefined || amount <= range.max);
}

/** Case- and accent-insensitive, as the API's q ("Café" finds "cafe"). */
function folded(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();
}

function words(filters: Filters): string[] {
  return folded(filters.query).split(/\s+/).filter(Boolean);
}

export function filtering(filters: Filters): boolean {
  return !!(filters.query.trim() || filters.person || filters.category || filters.from || filters.to
            || filters.minAmount.trim() || filters.maxAmount.trim() || filters.kind !== "ALL");
}

function inDates(date: string, filters: Filters): boolean {
  return (!filters.from || date >= filters.from) && (!filters.to || date <= filters.to);
}

/** What the API does not filter: the kind, and "paid" rather than "paid or shares". */
function keptHere(expense: Expense, filters: Filters): boolean {
  if (filters.kind !== "ALL" && (expense.kind ?? "EXPENSE") !== filters.kind) return false;
  return !filters.person || !filters.paidOnly
    || expense.payments.some((p) => p.participantId === filters.person);
}

/** The whole filter on this device (offline): the API's rules, then keptHere. */
function matchesLocally(expense: Expense, filters: Filters, range: AmountRange): boolean {
  const names = [expense.description, ...expense.items.map((i) => i.name ?? "")].map(folded);
  if (!words(filters).every((word) => names.some((name) => name.includes(word)))) return false;
  if (filters.category && (expense.category ?? "").toLocaleLowerCase() !== filters.category.toLocaleLowerCase()) return false;
  if (!inDates(expense.date, filters)) return false;
  // As the API: a converted row by its amount in the group's currency.
  if (!inAmounts(expense.groupAmount ?? expense.amount, range)) return false;
  if (filters.person) {
    const involved = [...expense.payments.map((p) => p.participantId),
                      ...expense.items.flatMap((i) => i.splits.map((s) => s.participantId))];
    if (!involved.includes(filters.person)) return false;
  }
  return keptHere(expense, filters);
}

function settlementMatches(settlement: Settlement, filters: Filters, range: AmountRange): boolean {
  if (!inDates(settlement.date ?? "", filters)) return false;
  if (!inAmounts(settlement.groupAmount ?? settlement.amount, range)) return false;
  if (filters.person && settlement.payerId !== filters.person
      && (filters.paidOnly || settlement.payeeId !== filters.person)) return false;
  const note = folded(settlement.note ?? "");
  return words(filters).every((word) => note.includes(word));
}

export type Found = { expenses: Expense[]; settlements: Settlement[]; more: boolean; local: boolean;
                      loading: boolean; error: string | null; showMore: () => void };

// One screenful: pages are read until this many rows match or the listing ends.
const ENOUGH = 50;
const MAX_PAGES = 20;

/** The rows matching `filters` (nothing to do while none is set: the list shows the group). */
export function useFiltered(state: GroupState, filters: Filters): Found {
  const isOnline = useStore(online);
  const [found, setFound] = useState<Omit<Found, "showMore">>(
    { expenses: [], settlements: [], more: false, local: false, loading: false, error: null });
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [wanted, setWanted] = useState(0); // "Show more" presses since the filters changed
  const active = filtering(filters);
  const key = JSON.stringify(filters);

  useEffect(() => setWanted(0), [key, state.revision]);
  useEffect(() => {
    if (!active) return;
    // Read once per change of the filters, not once per row filtered.
    const range = amountRange(filters, state.group.currency);
    if (range.invalid) {
      setFound({ expenses: [], settlements: [], more: false, local: false, loading: false,
                 error: t("filter.badAmount") });
      return;
    }
    if (!isOnline) {
      // The device keeps the group's expenses, not its settlements.
      setFound(filters.kind === "SETTLEMENT"
        ? { expenses: [], settlements: [], more: false, local: false, loading: false,
            error: t("filter.settlementsOffline") }
        : { expenses: state.expenses.filter((e) => matchesLocally(e, filters, range)), settlements: [],
            more: false, local: true, loading: false, error: null });
      return;
    }
    let stale = false;
    // A word typed waits a moment, so one request goes per pause rather than per key.
    const timer = setTimeout(() => {
      setFound((before) => ({ ...before, loading: true }));
      read(state.groupId, filters, range, wanted ? cursor : undefined).then((page) => {
        if (stale) return;
        setCursor(page.cursor);
        setFound((before) => ({
          expenses: wanted ? [...before.expenses, ...page.expenses] : page.expenses,
          settlements: wanted ? [...before.settlements, ...page.settlements] : page.settlements,
          more: !!page.cursor, local: false, loading: false, error: null,
        }));
      }).catch((error) => {
        if (stale) return;
        if (isNetworkFailure(error) && filters.kind !== "SETTLEMENT") {
          setFound({ expenses: state.expenses.filter((e) => matchesLocally(e, filters, range)), settlements: [],
                     more: false, local: true, loading: false, error: null });
        } else setFound((before) => ({ ...before, loading: false, error: describe(error) }));
      });
    }, filters.query ? 250 : 0);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
    // state.revision: a change (live or ours) may now match; read again.
  }, [key, isOnline, state.revision, wanted]);

  return { ...found, showMore: () => setWanted((n) => n + 1) };
}

async function read(groupId: string, filters: Filters, range: AmountRange, after: string | undefined):
    Promise<{ expenses: Expense[]; settlements: Settlement[]; cursor?: string }> {
  const expenses: Expense[] = [];
  const settlements: Settlement[] = [];
  let cursor = after;
  for (let page = 0; page < MAX_PAGES && expenses.length + settlements.length < ENOUGH; page++) {
    if (filters.kind === "SETTLEMENT") {
      const reply = must(await api.GET("/groups/{groupId}/settlements", {
        params: { path: { groupId }, query: { limit: 100, cursor } },
      }));
      settlements.push(...reply.items.filter((s) => settlementMatches(s, filters, range)));
      cursor = reply.nextCursor ?? undefined;
    } else {
      const query = {
        limit: 100, cursor, q: filters.query.trim() || undefined, participantId: filters.person || undefined,
        category: filters.category || undefined, from: filters.from || undefined, to: filters.to || undefined,
        minAmount: range.min, maxAmount: range.max,
      };
      const reply = must(await api.GET("/groups/{groupId}/expenses", { params: { path: { groupId }, query } }));
      expenses.push(...reply.items.filter((e) => keptHere(e, filters)));
      cursor = reply.nextCursor ?? undefined;
    }
    if (!cursor) break;
  }
  return { expenses, settlements, cursor };
}

export function FilterForm({ state, filters, onChange }: {
  state: GroupState; filters: Filters; onChange: (filters: Filters) => void;
}) {
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  const categories: string[] = [...CATEGORIES];
  for (const e of state.expenses) if (e.category && !categories.includes(e.category)) categories.push(e.category);
  const count = [filters.person, filters.category, filters.from, filters.to, filters.minAmount.trim(),
                 filters.maxAmount.trim(), filters.kind !== "ALL"].filter(Boolean).length;
  return (
    <details class="filters">
      <summary>{t("filter.title")}{count > 0 && ` (${t("filter.active", { count })})`}</summary>
      <Select label={t("filter.kind")} value={filters.kind} onChange={(v) => set({ kind: v as FilterKind })}
              options={FILTER_KINDS.map((k) => [k, t(`filter.kind.${k}`)])} />
      <Select label={t("filter.person")} value={filters.person} onChange={(v) => set({ person: v })}
              options={[["", t("filter.anyone")],
                        ...state.participants.map((p): [string, string] => [p.participantId, p.displayName])]} />
      {filters.person && (
        <Select label={t("filter.role")} value={filters.paidOnly ? "paid" : "involved"}
                onChange={(v) => set({ paidOnly: v === "paid" })}
                options={[["involved", t("filter.role.involved")], ["paid", t("filter.role.paid")]]} />
      )}
      {filters.kind !== "SETTLEMENT" && (
        <Select label={t("filter.category")} value={filters.category} onChange={(v) => set({ category: v })}
                options={[["", t("filter.anyCategory")],
                          ...categories.map((c): [string, string] => [c, categoryLabel(c)])]} />
      )}
      <Field label={t("filter.from")} type="date" value={filters.from} onInput={(v) => set({ from: v })} />
      <Field label={t("filter.to")} type="date" value={filters.to} onInput={(v) => set({ to: v })} />
      <Field label={t("filter.minAmount", { currency: state.group.currency })} inputMode="decimal"
             value={filters.minAmount} onInput={(v) => set({ minAmount: v })} />
      <Field label={t("filter.maxAmount", { currency: state.group.currency })} inputMode="decimal"
             value={filters.maxAmount} onInput={(v) => set({ maxAmount: v })} />
      {count > 0 && (
        <button type="button" onClick={() => onChange({ ...NO_FILTERS, query: filters.query })}>
          {t("filter.clear")}
        </button>
      )}
    </details>
  );
}
