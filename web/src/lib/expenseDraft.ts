// What the expense form holds while a person types, and how it becomes an API body: every
// amount in integer minor units, every percentage in basis points, no floating point.
import type { Expense, Group, Participant } from "../api/client";
import { minorToInput, parseMoney, parsePercent } from "./money";

export const MODES = ["EQUAL", "SHARES", "PERCENT", "EXACT", "ADJUSTMENT"] as const;
export type Mode = (typeof MODES)[number];
export const KINDS = ["EXPENSE", "INCOME"] as const;
export type Kind = (typeof KINDS)[number];
// Stored under these plain names (the same in every language; the app shows each translated).
export const EXTRA_TYPES = ["tax", "tip", "service", "discount", "other"] as const;
export type ExtraType = (typeof EXTRA_TYPES)[number];
// The categories the app offers (the API stores any text; MCP suggests these same words).
export const CATEGORIES = ["FOOD", "GROCERIES", "TRANSPORT", "ACCOMMODATION", "ENTERTAINMENT",
                           "UTILITIES", "SHOPPING", "OTHER"] as const;
// How a row in another currency counts (api.md "Currencies"): kept in its own currency, or
// converted at the day's reference rate, at a rate typed, or by what was really charged;
// "recorded" (edits only) leaves the row's recorded rate as it is.
export const CONVERSIONS = ["keep", "auto", "rate", "charged", "recorded"] as const;
export type Conversion = (typeof CONVERSIONS)[number];

export type ItemDraft = { name: string; amount: string; mode: Mode; chosen: Record<string, boolean>;
                          values: Record<string, string> };
export type ExtraDraft = { type: ExtraType; name: string; value: string; percent: boolean };

export function newItem(people: Participant[], group?: Group): ItemDraft {
  const preset = group?.defaultSplit;
  if (!preset) {
    return { name: "", amount: "", mode: "EQUAL", values: {},
             chosen: Object.fromEntries(people.map((p) => [p.participantId, true])) };
  }
  // The group's default split (api.md "Defaults"): who takes part, with their weights
  // (someone since removed from the group is left out, or the server would refuse the body).
  const here = new Set(people.map((p) => p.participantId));
  const splits = preset.splits.filter((s) => here.has(s.participantId));
  return {
    name: "", amount: "", mode: preset.splitMode as Mode,
    chosen: Object.fromEntries(splits.map((s) => [s.participantId, true])),
    values: Object.fromEntries(splits.map((s) => [s.participantId,
      preset.splitMode === "PERCENT" ? percentText(s.value ?? 0) : String(s.value ?? 1)])),
  };
}

/** 3333 basis points -> "33.33" (what a person types back). */
export function percentText(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const rest = basisPoints % 100;
  return rest ? `${whole}.${String(rest).padStart(2, "0").replace(/0$/, "")}` : String(whole);
}

export function itemsOf(expense: Expense): ItemDraft[] {
  const currency = expense.currency ?? "EUR";
  return expense.items.map((item) => ({
    name: item.name ?? "", amount: minorToInput(item.amount, currency), mode: item.splitMode as Mode,
    chosen: Object.fromEntries(item.splits.map((s) => [s.participantId, true])),
    values: Object.fromEntries(item.splits.map((s) => [s.participantId,
      item.splitMode === "EXACT" || item.splitMode === "ADJUSTMENT" ? minorToInput(s.value ?? 0, currency)
        : item.splitMode === "PERCENT" ? percentText(s.value ?? 0) : String(s.value)])),
  }));
}

export function extrasOf(expense: Expense): ExtraDraft[] {
  const currency = expense.currency ?? "EUR";
  return (expense.extras ?? []).map((extra) => {
    const type = (EXTRA_TYPES as readonly string[]).includes(extra.name) && extra.name !== "other"
      ? (extra.name as ExtraType) : "other";
    const shown = type === "discount" ? -extra.amount : extra.amount;
    return { type, name: type === "other" ? extra.name : "", value: minorToInput(shown, currency),
             percent: false };
  });
}

/** "-4.50", "+3", "−2,5" -> signed minor units; null when not an amount. */
export function parseSignedMoney(text: string, currency: string): number | null {
  const trimmed = text.trim();
  const negative = /^[-−]/.test(trimmed);
  const magnitude = parseMoney(trimmed.replace(/^[-−+]\s*/, ""), currency);
  return magnitude === null ? null : negative ? -magnitude : magnitude;
}

/** The extra in minor units: an amount as typed, or a percentage of the items' subtotal
 * rounded half away from zero in integers (BigInt: exact at any amount the API allows); a
 * discount counts negative. null when what was typed is not an amount or a percentage. */
export function extraAmount(extra: ExtraDraft, subtotal: number, currency: string): number | null {
  let amount: number | null;
  if (extra.percent) {
    const basisPoints = parsePercent(extra.value);
    if (basisPoints === null) return null;
    const twice = (BigInt(subtotal) * BigInt(basisPoints) * 2n) / 10000n;
    amount = Number((twice + 1n) / 2n);
  } else {
    amount = extra.type === "other" ? parseSignedMoney(extra.value, currency) : parseMoney(extra.value, currency);
  }
  if (amount === null) return null;
  return extra.type === "discount" ? -amount : amount;
}

export type Split = { participantId: string; value: number };

/** The item's splits in the API's units, or the key of what is wrong. */
export function splitsOf(item: ItemDraft, currency: string):
    Split[] | { problem: "nobody" | "invalid" | "percent" | "exact" } {
  const ids = Object.keys(item.chosen).filter((id) => item.chosen[id]);
  if (!ids.length) return { problem: "nobody" };
  const splits: Split[] = [];
  for (const participantId of ids) {
    const text = item.values[participantId] ?? "";
    const value = item.mode === "EQUAL" ? 1
      : item.mode === "SHARES" ? (/^\d{1,6}$/.test(text.trim()) && Number(text) > 0 ? Number(text) : null)
      : item.mode === "PERCENT" ? parsePercent(text)
      : item.mode === "ADJUSTMENT" ? (text.trim() ? parseSignedMoney(text, currency) : 0)
      : parseMoney(text, currency);
    if (value === null) return { problem: "invalid" };
    splits.push({ participantId, value });
  }
  const sum = splits.reduce((total, s) => total + s.value, 0);
  if (item.mode === "PERCENT" && sum !== 10000) return { problem: "percent" };
  if (item.mode === "EXACT" && sum !== parseMoney(item.amount, currency)) return { problem: "exact" };
  return splits;
}

/** The body's conversion fields for what the person chose (none: the row is kept, or an
 * edit leaves its recorded rate). A typed rate is a decimal string, as the API takes it. */
export function conversionOf(mode: Conversion, rate: string, charged: string, groupCurrency: string):
    { exchangeRate?: string; groupAmount?: number } | null {
  if (mode === "auto") return { exchangeRate: "auto" };
  if (mode === "rate") {
    const text = rate.trim().replace(",", ".");
    return /^\d{1,12}(\.\d{1,12})?$/.test(text) && Number(text) > 0 ? { exchangeRate: text } : null;
  }
  if (mode === "charged") {
    const amount = parseMoney(charged, groupCurrency);
    return amount && amount > 0 ? { groupAmount: amount } : null;
  }
  return {};
}
