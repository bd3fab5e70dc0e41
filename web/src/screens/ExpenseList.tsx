import { useState } from "preact/hooks";
import type { Expense } from "../api/client";
import { session } from "../api/session";
import { money, t } from "../i18n";
import type { GroupState } from "../lib/db";
import { queued } from "../lib/outbox";
import { linkProps } from "../lib/router";
import { useStore } from "../lib/store";
import { FilterForm, NO_FILTERS, filtering, useFiltered, type Filters } from "./ExpenseFilters";
import { Alert, Field } from "./parts";
import { names } from "./Group";

export function Expenses({ state }: { state: GroupState }) {
  const current = useStore(session);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const found = useFiltered(state, filters);
  const active = filtering(filters);
  const waiting = useStore(queued).filter((w) => w.groupId === state.groupId && w.method === "POST"
                                          && w.path.endsWith("/expenses"));
  const who = names(state);
  const shown = active ? found.expenses : state.expenses;
  const currency = state.group.currency;
  const canWrite = state.group.myRole !== "VIEWER" && !state.group.archived;
  const onlyWords = active && !filtering({ ...filters, query: "" });
  const nothing = active && !found.loading && !found.error && !shown.length && !found.settlements.length;
  return (
    <div>
      {canWrite && <a class="button primary" {...linkProps(`/groups/${state.groupId}/expenses/new`)}>{t("group.addExpense")}</a>}
      {canWrite && <a class="button" {...linkProps(`/groups/${state.groupId}/receipt`)}>{t("group.scanReceipt")}</a>}
      {/* A share-link guest reaches expenses, settlements and receipts only (api.md "Share links"). */}
      {current?.kind !== "link" && !state.group.archived && <a class="button" {...linkProps(`/groups/${state.groupId}/recurring`)}>{t("group.recurring")}</a>}
      <Field label={t("group.search")} type="search" value={filters.query} onInput={(query) => setFilters({ ...filters, query })} />
      <FilterForm state={state} filters={filters} onChange={setFilters} />
      {active && found.local && <p class="muted" role="status">{t("filter.offline")}</p>}
      <Alert message={found.error} />
      <ul class="list" aria-label={t("group.expenses")} aria-busy={found.loading}>
        {!active && waiting.map((w) => (
          <li key={w.key} class="pending">
            <span class="title">{w.label}</span>
            {w.amount !== undefined && <span class="amount">{money(w.amount, currency)}</span>}
            <span class="muted">{t("group.pending")}</span>
          </li>
        ))}
        {shown.map((e) => <ExpenseRow key={e.expenseId} expense={e} who={who} currency={currency}
                                      groupId={state.groupId} canWrite={canWrite} />)}
        {active && found.settlements.map((s) => (
          <li key={s.settlementId}>
            <span class="title">{t("filter.settled", { from: who.get(s.payerId) ?? "?", to: who.get(s.payeeId) ?? "?" })}</span>
            <span class="amount">{money(s.amount, s.currency ?? currency)}</span>
            <span class="muted">{s.note ? `${s.note} · ` : ""}<time>{s.date}</time></span>
          </li>
        ))}
      </ul>
      {active && found.more && <button type="button" onClick={found.showMore} disabled={found.loading}>{t("filter.more")}</button>}
      {!active && !waiting.length && !state.expenses.length && <p>{t("group.noExpenses")}</p>}
      {nothing && (onlyWords ? <p>{t("group.noMatch", { query: filters.query })}</p> : <p>{t("filter.none")}</p>)}
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
        {/* A converted row: what it counts in the group's currency. */}
        {expense.groupAmount != null && rowCurrency !== currency
          && ` ${t("extra.is", { amount: money(income ? -expense.groupAmount : expense.groupAmount, currency) })}`}
        {" · "}<time>{expense.date}</time>
      </span>
    </li>
  );
}
