import { useEffect, useState } from "preact/hooks";
import type { Expense, ExpenseCreate } from "../api/client";
import { money, t } from "../i18n";
import type { MessageKey } from "../i18n/en";
import type { GroupState } from "../lib/db";
import {
  CATEGORIES, EXTRA_TYPES, KINDS, MODES, conversionOf, extraAmount, extrasOf, itemsOf, newItem,
  splitsOf, type Conversion, type ExtraDraft, type ExtraType, type ItemDraft, type Kind, type Mode,
} from "../lib/expenseDraft";
import { parseMoney } from "../lib/money";
import { enqueue } from "../lib/outbox";
import { navigate } from "../lib/router";
import { Alert, Back, Field, Heading, Select, currencies, useAction } from "./parts";
import { names, useGroup } from "./Group";

/** A stored extra's name as the person reads it: the app's own types translated. */
export function extraLabel(name: string): string {
  return (EXTRA_TYPES as readonly string[]).includes(name) && name !== "other"
    ? t(`extra.type.${name as ExtraType}` as MessageKey) : name;
}

export function ExpenseForm({ groupId, expenseId }: { groupId: string; expenseId?: string }) {
  const [state, loadError] = useGroup(groupId);
  const existing = expenseId ? state?.expenses.find((e) => e.expenseId === expenseId) : undefined;
  const [kind, setKind] = useState<Kind>("EXPENSE");
  const [description, setDescription] = useState("");
  const [category, setCategory] = useState("");
  const [date, setDate] = useState(new Date().toISOString().slice(0, 10));
  const [currency, setCurrency] = useState("");
  const [conversion, setConversion] = useState<Conversion>("keep");
  const [rate, setRate] = useState("");
  const [charged, setCharged] = useState("");
  const [payer, setPayer] = useState("");
  const [itemised, setItemised] = useState(false);
  const [items, setItems] = useState<ItemDraft[]>([]);
  const [extras, setExtras] = useState<ExtraDraft[]>([]);
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
      setKind((existing.kind as Kind) ?? "EXPENSE");
      setDescription(existing.description);
      setCategory(existing.category ?? "");
      setDate(existing.date);
      setItems(itemsOf(existing));
      setExtras(extrasOf(existing));
      setItemised(existing.items.length > 1);
      if (existing.exchangeRate) setConversion("recorded");
    } else setItems([newItem(state.participants, state.group)]);
  }, [state, existing]);

  if (!state || !items.length) return <section><Heading>{t("common.loading")}</Heading><Alert message={loadError} /></section>;
  const back = `/groups/${groupId}`;
  const groupCurrency = state.group.currency;
  const change = (index: number, patch: Partial<ItemDraft>) =>
    setItems(items.map((item, n) => (n === index ? { ...item, ...patch } : item)));
  const changeExtra = (index: number, patch: Partial<ExtraDraft>) =>
    setExtras(extras.map((extra, n) => (n === index ? { ...extra, ...patch } : extra)));
  const used = itemised ? items : items.slice(0, 1);
  const amounts = used.map((item) => parseMoney(item.amount, currency));
  const subtotal = amounts.reduce<number>((sum, a) => sum + (a ?? 0), 0);
  const extraAmounts = extras.map((extra) => extraAmount(extra, subtotal, currency));
  const total = subtotal + extraAmounts.reduce<number>((sum, a) => sum + (a ?? 0), 0);
  const conversions: Conversion[] = existing?.exchangeRate ? ["recorded", "auto", "rate", "charged"]
    : ["keep", "auto", "rate", "charged"];

  const submit = (event: Event) => {
    event.preventDefault();
    setProblem(null);
    const built = [];
    for (const [n, item] of used.entries()) {
      const amount = amounts[n];
      if (amount === null || amount <= 0) return setProblem(t("expense.invalidAmount"));
      const splits = splitsOf(item, currency);
      const label = item.name || t("expense.amount");
      if ("problem" in splits) {
        return setProblem(splits.problem === "nobody" ? t("expense.nobody")
          : splits.problem === "percent" ? `${label}: 100 %`
          : splits.problem === "exact" ? `${label}: ${money(amount, currency)}`
          : t("expense.invalidAmount"));
      }
      built.push({ name: item.name.trim() || description.trim(), amount, splitMode: item.mode, splits });
    }
    const extrasSent = [];
    for (const [n, extra] of extras.entries()) {
      const amount = extraAmounts[n];
      if (amount === null) return setProblem(t("extra.invalid"));
      const name = extra.type === "other" ? extra.name.trim() : extra.type;
      if (!name) return setProblem(t("extra.nameMissing"));
      extrasSent.push({ name, amount });
    }
    if (total <= 0) return setProblem(t("expense.invalidAmount"));
    const foreign = currency !== groupCurrency;
    const converted = foreign ? conversionOf(conversion, rate, charged, groupCurrency) : {};
    if (converted === null) return setProblem(t("expense.invalidRate"));
    const body = {
      description: description.trim(), date, kind, payments: [{ participantId: payer, amount: total }],
      items: built, extras: extrasSent,
      ...(category ? { category } : existing?.category ? { category: null } : {}),
      ...(foreign || existing?.currency ? { currency } : {}), ...converted,
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
  const categories: string[] = [...CATEGORIES];
  if (category && !categories.includes(category)) categories.push(category);
  return (
    <section>
      <Back to={back} />
      <Heading>{existing ? t("expense.editTitle") : t("expense.title")}</Heading>
      <form onSubmit={submit}>
        <fieldset class="kind">
          <legend>{t("expense.kind")}</legend>
          {KINDS.map((k) => (
            <div class="field check" key={k}>
              <input id={`kind-${k}`} type="radio" name="kind" checked={kind === k} onChange={() => setKind(k)} />
              <label for={`kind-${k}`}>{t(`expense.kind.${k}`)}</label>
            </div>
          ))}
        </fieldset>
        <Field label={t("expense.description")} value={description} onInput={setDescription} required />
        {!itemised && <Field label={t("expense.amount")} value={items[0].amount} inputMode="decimal" required
                             onInput={(v) => change(0, { amount: v })} />}
        <Select label={t("expense.currency")} value={currency} onChange={setCurrency}
                options={currencies().map((c) => [c, c])} />
        {currency !== groupCurrency && (
          <>
            <Select label={t("expense.conversion")} value={conversion} onChange={(v) => setConversion(v as Conversion)}
                    options={conversions.map((c) => [c, t(`expense.conversion.${c}`, { currency, group: groupCurrency,
                                                                                     rate: existing?.exchangeRate ?? "" })])} />
            {conversion === "rate" && <Field label={t("expense.rate", { currency, group: groupCurrency })} value={rate}
                                             inputMode="decimal" onInput={setRate} required />}
            {conversion === "charged" && <Field label={t("expense.charged", { group: groupCurrency })} value={charged}
                                                inputMode="decimal" onInput={setCharged} required />}
          </>
        )}
        <Field label={t("expense.date")} type="date" value={date} onInput={setDate} required />
        <Select label={t("expense.category")} value={category} onChange={setCategory}
                options={[["", t("expense.noCategory")],
                          ...categories.map((c): [string, string] => [c, categoryLabel(c)])]} />
        <Select label={kind === "INCOME" ? t("expense.receivedBy") : t("expense.paidBy")} value={payer} onChange={setPayer}
                options={people.map((p) => [p.participantId, p.displayName])} />
        <div class="field check">
          <input id="itemise" type="checkbox" checked={itemised}
                 onChange={(e) => setItemised((e.target as HTMLInputElement).checked)} />
          <label for="itemise">{t("expense.itemise")}</label>
        </div>
        {used.map((item, n) => (
          <fieldset key={n} class="item">
            <legend>{itemised ? t("expense.item", { number: n + 1 }) : t("expense.splitMode")}</legend>
            {itemised && <Field label={t("expense.itemName")} value={item.name} onInput={(v) => change(n, { name: v })} />}
            {itemised && <Field label={t("expense.amount")} value={item.amount} inputMode="decimal" required
                                onInput={(v) => change(n, { amount: v })} />}
            <Select label={t("expense.splitMode")} value={item.mode} onChange={(v) => change(n, { mode: v as Mode })}
                    options={MODES.map((m) => [m, t(`expense.mode.${m}`)])} />
            {item.mode === "ADJUSTMENT" && <p class="hint">{t("expense.adjustmentHint")}</p>}
            <fieldset class="who">
              <legend>{kind === "INCOME" ? t("expense.forWhomIncome") : t("expense.forWhom")}</legend>
              {people.map((p) => {
                const id = `item${n}-${p.participantId}`;
                return (
                  <div class="person" key={p.participantId}>
                    <input id={id} type="checkbox" checked={!!item.chosen[p.participantId]}
                           onChange={(e) => change(n, { chosen: { ...item.chosen, [p.participantId]: (e.target as HTMLInputElement).checked } })} />
                    <label for={id}>{p.displayName}</label>
                    {item.mode !== "EQUAL" && item.chosen[p.participantId] && (
                      <input class="value" inputMode={item.mode === "ADJUSTMENT" ? "text" : "decimal"}
                             value={item.values[p.participantId] ?? ""}
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
        {itemised && <button type="button" onClick={() => setItems([...items, newItem(people)])}>{t("expense.addItem")}</button>}
        <Extras extras={extras} amounts={extraAmounts} currency={currency} onChange={changeExtra}
                onRemove={(n) => setExtras(extras.filter((_, k) => k !== n))}
                onAdd={() => setExtras([...extras, { type: "tip", name: "", value: "", percent: true }])} />
        {extras.length > 0 && <p>{t("expense.subtotal", { amount: money(subtotal, currency) })}</p>}
        <p class="total" aria-live="polite">{t("expense.total", { amount: money(total, currency) })}</p>
        {existing && existing.extras.length > 0 && <SavedShares expense={existing} state={state} />}
        <Alert message={problem ?? error} />
        <button type="submit" class="primary" disabled={busy}>{t("expense.save")}</button>
        {existing && <button type="button" class="danger" onClick={remove} disabled={busy}>{t("expense.delete")}</button>}
      </form>
    </section>
  );
}

export function categoryLabel(category: string): string {
  return (CATEGORIES as readonly string[]).includes(category)
    ? t(`category.${category}` as MessageKey) : category;
}

function Extras({ extras, amounts, currency, onChange, onRemove, onAdd }: {
  extras: ExtraDraft[]; amounts: Array<number | null>; currency: string;
  onChange: (n: number, patch: Partial<ExtraDraft>) => void; onRemove: (n: number) => void; onAdd: () => void;
}) {
  return (
    <fieldset class="extras">
      <legend>{t("extra.title")}</legend>
      {extras.map((extra, n) => (
        <fieldset key={n} class="extra">
          <legend>{t("extra.number", { number: n + 1 })}</legend>
          <Select label={t("extra.type")} value={extra.type} onChange={(v) => onChange(n, { type: v as ExtraType })}
                  options={EXTRA_TYPES.map((type) => [type, t(`extra.type.${type}`)])} />
          {extra.type === "other" && <Field label={t("extra.name")} value={extra.name} required
                                            onInput={(v) => onChange(n, { name: v })} />}
          <Select label={t("extra.unit")} value={extra.percent ? "percent" : "amount"}
                  onChange={(v) => onChange(n, { percent: v === "percent" })}
                  options={[["percent", t("extra.unit.percent")], ["amount", t("extra.unit.amount", { currency })]]} />
          <Field label={extra.percent ? t("extra.percent") : t("extra.amount")} value={extra.value} required
                 inputMode={extra.type === "other" && !extra.percent ? "text" : "decimal"}
                 onInput={(v) => onChange(n, { value: v })}
                 hint={extra.type === "other" && !extra.percent ? t("extra.signHint") : undefined} />
          {amounts[n] !== null && extra.value.trim() !== "" && (
            <p class="muted">{t("extra.is", { amount: money(amounts[n]!, currency) })}</p>
          )}
          <button type="button" class="link" onClick={() => onRemove(n)}>{t("extra.remove", { number: n + 1 })}</button>
        </fieldset>
      ))}
      <button type="button" onClick={onAdd}>{t("extra.add")}</button>
    </fieldset>
  );
}

/** The server's apportioning of each extra, as saved (api.md "Tax, tip, service, discount"). */
function SavedShares({ expense, state }: { expense: Expense; state: GroupState }) {
  const who = names(state);
  const currency = expense.currency ?? state.group.currency;
  return (
    <div class="saved-shares">
      <h2>{t("extra.sharesTitle")}</h2>
      {expense.extras.map((extra, n) => (
        <div key={n}>
          <h3>{t("extra.sharesOf", { name: extraLabel(extra.name), amount: money(extra.amount, currency) })}</h3>
          <ul class="list" aria-label={extraLabel(extra.name)}>
            {extra.shares.map((share) => (
              <li key={share.participantId}>
                <span class="title">{who.get(share.participantId) ?? "?"}</span>
                <span class="amount">{money(share.amount, currency)}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
