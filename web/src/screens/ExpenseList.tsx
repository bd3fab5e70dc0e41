import { useState } from "preact/hooks";
import type { Expense } from "../api/client";
import { session } from "../api/session";
import { money, t } from "../i18n";
import type { GroupState } from "../lib/db";
import { queued } from "../lib/outbox";
import { linkProps } from "../lib/router";
import { useStore } from "../lib/store";
import { Field } from "./parts";
import { names } from "./Group";

export function Expenses({ state }: { state: GroupState }) {
  const current = useStore(session);
  const [query, setQuery] = useState("");
  const waiting = useStore(queued).filter((w) => w.groupId === state.groupId && w.method === "POST"
                                          && w.path.endsWith("/expenses"));
  const who = names(state);
  const needle = query.trim().toLocaleLowerCase();
  const shown = state.expenses.filter((e) => !needle || e.description.toLocaleLowerCase().includes(needle)
                                       || (e.category ?? "").toLocaleLowerCase().includes(needle));
  const currency = state.group.currency;
  const canWrite = state.group.myRole !== "VIEWER";
  return (
    <div>
      {canWrite && <a class="button primary" {...linkProps(`/groups/${state.groupId}/expenses/new`)}>{t("group.addExpense")}</a>}
      {canWrite && <a class="button" {...linkProps(`/groups/${state.groupId}/receipt`)}>{t("group.scanReceipt")}</a>}
      {/* A share-link guest reaches expenses, settlements and receipts only (api.md "Share links"). */}
      {current?.kind !== "link" && <a class="button" {...linkProps(`/groups/${state.groupId}/recurring`)}>{t("group.recurring")}</a>}
      <Field label={t("group.search")} type="search" value={query} onInput={setQuery} />
      <ul class="list" aria-label={t("group.expenses")}>
        {waiting.map((w) => (
          <li key={w.key} class="pending">
            <span class="title">{w.label}</span>
            {w.amount !== undefined && <span class="amount">{money(w.amount, currency)}</span>}
            <span class="muted">{t("group.pending")}</span>
          </li>
        ))}
        {shown.map((e) => <ExpenseRow key={e.expenseId} expense={e} who={who} currency={currency}
                                      groupId={state.groupId} canWrite={canWrite} />)}
      </ul>
      {!waiting.length && !state.expenses.length && <p>{t("group.noExpenses")}</p>}
      {needle && state.expenses.length > 0 && !shown.length && <p>{t("group.noMatch", { query })}</p>}
    </div>
  );
}

/** An INCOME row is money in: shown with the opposite sign, "received" rather than "paid". */
export function ExpenseRow({ expense, who, currency, groupId, canWrite }: {
  expense: Expense; who: Map<string, string>; currency: string; groupId: string; canWrite: boolean;
}) {
  const payer = expense.payments.map((p) => who.get(p.participantId) ?? "?").join(", ");
  const income = expense.kind === "INCOME";
  const rowCurrency = expense.currency ?? currency;
  const amount = money(expense.amount, rowCurrency);
  return (
    <li class={income ? "income" : undefined}>
      <span class="title">
        {canWrite ? <a {...linkProps(`/groups/${groupId}/expenses/${expense.expenseId}`)}
                       aria-label={t("group.edit", { description: expense.description })}>{expense.description}</a>
          : expense.description}
      </span>
      <span class="amount">{income ? money(-expense.amount, rowCurrency) : amount}</span>
      <span class="muted">
        {income ? t("group.received", { name: payer, amount }) : t("group.paidBy", { name: payer, amount })}
        {" · "}<time>{expense.date}</time>
      </span>
    </li>
  );
}
