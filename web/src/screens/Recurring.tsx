import { useState } from "preact/hooks";
import { api, must, type Schemas } from "../api/client";
import { money, t } from "../i18n";
import { parseMoney } from "../lib/money";
import { Alert, Back, Field, Heading, Select, useAction, useLoad } from "./parts";
import { useGroup } from "./Group";

// A group's recurring expenses (api.md "recurring"): the templates, a new one (paid by me,
// split equally over everyone: the expense it records can be edited like any other), pause
// and resume, delete. Online only; loaded only when this screen opens.

type Recurring = Schemas["Recurring"];
const FREQUENCIES = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"] as const;
type Frequency = (typeof FREQUENCIES)[number];

export function RecurringScreen({ groupId }: { groupId: string }) {
  const [state, groupError] = useGroup(groupId);
  const [templates, setTemplates] = useState<Recurring[] | null>(null);
  const [error, busy, run] = useAction();
  const load = async () => {
    const page = must(await api.GET("/groups/{groupId}/recurring", { params: { path: { groupId } } }));
    setTemplates(page.items);
  };
  const loadError = useLoad(load, [groupId]);
  const canWrite = state?.group.myRole !== "VIEWER";
  const setPaused = (template: Recurring, paused: boolean) => run(async () => {
    must(await api.PATCH("/groups/{groupId}/recurring/{recurringId}", {
      params: { path: { groupId, recurringId: template.recurringId } },
      body: { paused, updatedAt: template.updatedAt },
    }));
    await load();
  });
  const remove = (template: Recurring) => run(async () => {
    must(await api.DELETE("/groups/{groupId}/recurring/{recurringId}", {
      params: { path: { groupId, recurringId: template.recurringId } },
    }));
    await load();
  });
  return (
    <section>
      <Back to={`/groups/${groupId}`} />
      <Heading>{t("recurring.title")}</Heading>
      <Alert message={groupError ?? loadError ?? error} />
      {templates === null ? <p>{t("common.loading")}</p> : templates.length === 0 ? <p>{t("recurring.empty")}</p> : (
        <ul class="list" aria-label={t("recurring.title")}>
          {templates.map((r) => (
            <li key={r.recurringId}>
              <span class="title">{r.description}</span>
              <span class="amount">{money(r.amount, r.currency)}</span>
              <span class="muted">
                {t(`recurring.every.${r.frequency}` as "recurring.every.MONTHLY", { count: r.interval })} · {r.paused
                  ? t("recurring.paused") : r.nextDate ? t("recurring.next", { date: r.nextDate }) : t("recurring.finished")}
              </span>
              {canWrite && (
                <span class="actions">
                  <button type="button" disabled={busy} onClick={() => setPaused(r, !r.paused)}>
                    {t(r.paused ? "recurring.resume" : "recurring.pause", { description: r.description })}
                  </button>
                  <button type="button" class="danger" disabled={busy} onClick={() => remove(r)}>
                    {t("recurring.delete", { description: r.description })}
                  </button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {canWrite && state && <NewRecurring groupId={groupId} currency={state.group.currency}
                                          me={state.group.myParticipantId ?? null}
                                          everyone={state.participants.map((p) => p.participantId)}
                                          onMade={load} />}
    </section>
  );
}

function NewRecurring({ groupId, currency, me, everyone, onMade }: {
  groupId: string; currency: string; me: string | null; everyone: string[]; onMade: () => Promise<void>;
}) {
  const [description, setDescription] = useState("");
  const [amount, setAmount] = useState("");
  const [frequency, setFrequency] = useState<Frequency>("MONTHLY");
  const [startDate, setStartDate] = useState(new Date().toISOString().slice(0, 10));
  const [error, busy, run] = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const minor = parseMoney(amount, currency);
    run(async () => {
      if (minor === null || minor <= 0) throw new Error(t("expense.invalidAmount"));
      if (!me) throw new Error(t("expense.nobody"));
      must(await api.POST("/groups/{groupId}/recurring", {
        params: { path: { groupId } },
        body: { description: description.trim(), amount: minor, frequency, startDate, splitMode: "EQUAL",
                payments: [{ participantId: me, amount: minor }],
                splits: everyone.map((participantId) => ({ participantId, value: 1 })) },
        headers: { "Idempotency-Key": crypto.randomUUID() },
      }));
      setDescription("");
      setAmount("");
      await onMade();
    });
  };
  return (
    <form onSubmit={submit}>
      <h2>{t("recurring.new")}</h2>
      <Field label={t("expense.description")} value={description} onInput={setDescription} required />
      <Field label={t("expense.amount")} value={amount} onInput={setAmount} inputMode="decimal" required />
      <Select label={t("recurring.frequency")} value={frequency} onChange={(v) => setFrequency(v as Frequency)}
              options={FREQUENCIES.map((f) => [f, t(`recurring.frequency.${f}` as "recurring.frequency.MONTHLY")])} />
      <Field label={t("recurring.startDate")} type="date" value={startDate} onInput={setStartDate} required />
      <p class="hint">{t("recurring.hint")}</p>
      <Alert message={error} />
      <button type="submit" class="primary" disabled={busy}>{t("recurring.create")}</button>
    </form>
  );
}
