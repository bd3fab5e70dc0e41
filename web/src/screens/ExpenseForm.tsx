import { useEffect, useState } from "preact/hooks";
import type { Expense, ExpenseCreate } from "../api/client";
import { money, t } from "../i18n";
import type { GroupState } from "../lib/db";
import { minorToInput, parseMoney, parsePercent } from "../lib/money";
import { enqueue } from "../lib/outbox";
import { navigate } from "../lib/router";
import { Alert, Back, Field, Heading, Select, currencies, useAction } from "./parts";
import { useGroup } from "./Group";

const MODES = ["EQUAL", "SHARES", "PERCENT", "EXACT"] as const;
type Mode = (typeof MODES)[number];

type ItemDraft = { name: string; amount: string; mode: Mode; chosen: Record<string, boolean>;
                   values: Record<string, string> };

function newItem(state: GroupState, name = ""): ItemDraft {
  return { name, amount: "", mode: "EQUAL",
           chosen: Object.fromEntries(state.participants.map((p) => [p.participantId, true])),
           values: {} };
}

function fromExpense(expense: Expense): ItemDraft[] {
  const currency = expense.currency ?? "EUR";
  return expense.items.map((item) => ({
    name: item.name ?? "", amount: minorToInput(item.amount, currency), mode: item.splitMode as Mode,
    chosen: Object.fromEntries(item.splits.map((s) => [s.participantId, true])),
    values: Object.fromEntries(item.splits.map((s) => [s.participantId,
      item.splitMode === "EXACT" ? minorToInput(s.value, currency)
        : item.splitMode === "PERCENT" ? minorToInput(s.value, "EUR") : String(s.value)])),
  }));
}

/** The item's splits in the API's units, or the message saying what is wrong. */
function splitsOf(item: ItemDraft, amount: number, currency: string): ExpenseCreate["splits"] | string {
  const ids = Object.keys(item.chosen).filter((id) => item.chosen[id]);
  if (!ids.length) return t("expense.nobody");
  const splits = [];
  for (const participantId of ids) {
    const text = item.values[participantId] ?? "";
    const value = item.mode === "EQUAL" ? 1
      : item.mode === "SHARES" ? (/^\d{1,6}$/.test(text.trim()) && Number(text) > 0 ? Number(text) : null)
      : item.mode === "PERCENT" ? parsePercent(text) : parseMoney(text, currency);
    if (value === null) return t("expense.invalidAmount");
    splits.push({ participantId, value });
  }
  const sum = splits.reduce((total, s) => total + s.value, 0);
  if (item.mode === "PERCENT" && sum !== 10000) return `${item.name || t("expense.amount")}: 100 %`;
  if (item.mode === "EXACT" && sum !== amount) return `${item.name || t("expense.amount")}: ${money(amount, currency)}`;
  return splits;
}

export function ExpenseForm({ groupId, expenseId }: { groupId: string; expenseId?: string }) {
  const [state, loadError] = useGroup(groupId);
  const existing = expenseId ? state?.expenses.find((e) => e.expenseId === expenseId) : undefined;
  const [description, setDescription] = useState("");
  const [date, setDate] = useState(new Date().toISOString().slice(0, 10));
  const [currency, setCurrency] = useState("");
  const [payer, setPayer] = useState("");
  const [itemised, setItemised] = useState(false);
  const [items, setItems] = useState<ItemDraft[]>([]);
  const [error, busy, run] = useAction();
  const [problem, setProblem] = useState<string | null>(null);
  // The version this edit started from: a live update may bring a newer one into the group's
  // state while the person types, and saving on that one would overwrite the change unseen.
  const [baseVersion, setBaseVersion] = useState<number | null>(null);

  useEffect(() => {
    if (!state || items.length) return;
    setCurrency(existing?.currency ?? state.group.currency);
    setPayer(existing?.payments[0]?.participantId ?? state.group.myParticipantId ?? state.participants[0]?.participantId ?? "");
    if (existing) {
      setBaseVersion(existing.version);
      setDescription(existing.description);
      setDate(existing.date);
      setItems(fromExpense(existing));
      setItemised(existing.items.length > 1);
    } else setItems([newItem(state)]);
  }, [state, existing]);

  if (!state || !items.length) return <section><Heading>{t("common.loading")}</Heading><Alert message={loadError} /></section>;
  const back = `/groups/${groupId}`;
  const change = (index: number, patch: Partial<ItemDraft>) =>
    setItems(items.map((item, n) => (n === index ? { ...item, ...patch } : item)));
  const amounts = items.map((item) => parseMoney(item.amount, currency));
  const total = amounts.reduce<number>((sum, a) => sum + (a ?? 0), 0);

  const submit = (event: Event) => {
    event.preventDefault();
    setProblem(null);
    const built = [];
    for (const [n, item] of items.entries()) {
      const amount = amounts[n];
      if (amount === null || amount <= 0) return setProblem(t("expense.invalidAmount"));
      const splits = splitsOf(item, amount, currency);
      if (typeof splits === "string") return setProblem(splits);
      built.push({ name: item.name.trim() || description.trim(), amount, splitMode: item.mode, splits });
    }
    const body = {
      description: description.trim(), date, payments: [{ participantId: payer, amount: total }],
      items: built, ...(currency !== state.group.currency || existing?.currency ? { currency } : {}),
    } as ExpenseCreate;
    run(async () => {
      await enqueue(existing
        ? { groupId, method: "PATCH", path: `/groups/${groupId}/expenses/${existing.expenseId}`,
            body: { ...body, version: baseVersion ?? existing.version }, label: body.description,
            amount: total }
        : { groupId, method: "POST", path: `/groups/${groupId}/expenses`, body,
            label: body.description, amount: total });
      navigate(back);
    });
  };
  const remove = () => run(async () => {
    await enqueue({ groupId, method: "DELETE", path: `/groups/${groupId}/expenses/${existing!.expenseId}`,
                    label: existing!.description });
    navigate(back);
  });

  const people = state.participants;
  return (
    <section>
      <Back to={back} />
      <Heading>{existing ? t("expense.editTitle") : t("expense.title")}</Heading>
      <form onSubmit={submit}>
        <Field label={t("expense.description")} value={description} onInput={setDescription} required />
        {!itemised && <Field label={t("expense.amount")} value={items[0].amount} inputMode="decimal" required
                             onInput={(v) => change(0, { amount: v })} />}
        <Select label={t("expense.currency")} value={currency} onChange={setCurrency}
                options={currencies().map((c) => [c, c])} />
        <Field label={t("expense.date")} type="date" value={date} onInput={setDate} required />
        <Select label={t("expense.paidBy")} value={payer} onChange={setPayer}
                options={people.map((p) => [p.participantId, p.displayName])} />
        <div class="field check">
          <input id="itemise" type="checkbox" checked={itemised}
                 onChange={(e) => setItemised((e.target as HTMLInputElement).checked)} />
          <label for="itemise">{t("expense.itemise")}</label>
        </div>
        {(itemised ? items : items.slice(0, 1)).map((item, n) => (
          <fieldset key={n} class="item">
            <legend>{itemised ? t("expense.item", { number: n + 1 }) : t("expense.splitMode")}</legend>
            {itemised && <Field label={t("expense.itemName")} value={item.name} onInput={(v) => change(n, { name: v })} />}
            {itemised && <Field label={t("expense.amount")} value={item.amount} inputMode="decimal" required
                                onInput={(v) => change(n, { amount: v })} />}
            <Select label={t("expense.splitMode")} value={item.mode} onChange={(v) => change(n, { mode: v as Mode })}
                    options={MODES.map((m) => [m, t(`expense.mode.${m}`)])} />
            <fieldset class="who">
              <legend>{t("expense.forWhom")}</legend>
              {people.map((p) => {
                const id = `item${n}-${p.participantId}`;
                return (
                  <div class="person" key={p.participantId}>
                    <input id={id} type="checkbox" checked={!!item.chosen[p.participantId]}
                           onChange={(e) => change(n, { chosen: { ...item.chosen, [p.participantId]: (e.target as HTMLInputElement).checked } })} />
                    <label for={id}>{p.displayName}</label>
                    {item.mode !== "EQUAL" && item.chosen[p.participantId] && (
                      <input class="value" inputMode="decimal" value={item.values[p.participantId] ?? ""}
                             aria-label={t("expense.valueFor", { mode: t(`expense.mode.${item.mode}`), name: p.displayName })}
                             onInput={(e) => change(n, { values: { ...item.values, [p.participantId]: (e.target as HTMLInputElement).value } })} />
                    )}
                  </div>
                );
              })}
            </fieldset>
            {itemised && items.length > 1 && (
              <button type="button" class="link" onClick={() => setItems(items.filter((_, k) => k !== n))}>
                {t("expense.removeItem", { number: n + 1 })}
              </button>
            )}
          </fieldset>
        ))}
        {itemised && <button type="button" onClick={() => setItems([...items, newItem(state)])}>{t("expense.addItem")}</button>}
        <p class="total" aria-live="polite">{t("expense.total", { amount: money(total, currency) })}</p>
        <Alert message={problem ?? error} />
        <button type="submit" class="primary" disabled={busy}>{t("expense.save")}</button>
        {existing && <button type="button" class="danger" onClick={remove} disabled={busy}>{t("expense.delete")}</button>}
      </form>
    </section>
  );
}
