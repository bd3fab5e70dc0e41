// How a group shares money by default (api.md "Money as people share it"): the group's
// default split (OWNER) and a participant's household (OWNER, or the participant themselves).
// Loaded on first use, like the other secondary screens (the first screen's budget).
import { useEffect, useState } from "preact/hooks";
import { api, must, type Schemas } from "../api/client";
import { t } from "../i18n";
import { percentText } from "../lib/expenseDraft";
import { refreshGroup } from "../lib/groups";
import { parsePercent } from "../lib/money";
import { Alert, Back, Field, Heading, Select, useAction } from "./parts";
import { useGroup } from "./Group";

const DEFAULT_MODES = ["EQUAL", "SHARES", "PERCENT"] as const;
type DefaultMode = (typeof DEFAULT_MODES)[number];

export function DefaultSplitScreen({ groupId }: { groupId: string }) {
  const [state, loadError] = useGroup(groupId);
  const [mode, setMode] = useState<DefaultMode>("EQUAL");
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  const [values, setValues] = useState<Record<string, string>>({});
  const [ready, setReady] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [error, busy, run] = useAction();

  useEffect(() => {
    if (!state || ready) return;
    const preset = state.group.defaultSplit;
    if (preset) {
      setMode(preset.splitMode as DefaultMode);
      setChosen(Object.fromEntries(preset.splits.map((s) => [s.participantId, true])));
      setValues(Object.fromEntries(preset.splits.map((s) => [s.participantId,
        preset.splitMode === "PERCENT" ? percentText(s.value ?? 0) : String(s.value ?? 1)])));
    } else setChosen(Object.fromEntries(state.participants.map((p) => [p.participantId, true])));
    setReady(true);
  }, [state]);

  if (!state || !ready) return <section><Heading>{t("common.loading")}</Heading><Alert message={loadError} /></section>;
  const send = (defaultSplit: Schemas["GroupPatch"]["defaultSplit"], message: string) => run(async () => {
    must(await api.PATCH("/groups/{groupId}", {
      params: { path: { groupId } }, body: { defaultSplit },
    }));
    await refreshGroup(groupId);
    setSaved(message);
  });
  const submit = (event: Event) => {
    event.preventDefault();
    setProblem(null);
    setSaved(null);
    const splits = [];
    for (const p of state.participants.filter((p) => chosen[p.participantId])) {
      const text = (values[p.participantId] ?? "").trim();
      const value = mode === "EQUAL" ? null
        : mode === "SHARES" ? (/^\d{1,6}$/.test(text) && Number(text) > 0 ? Number(text) : undefined)
        : parsePercent(text) ?? undefined;
      if (value === undefined) return setProblem(t("expense.invalidAmount"));
      splits.push(value === null ? { participantId: p.participantId } : { participantId: p.participantId, value });
    }
    if (!splits.length) return setProblem(t("expense.nobody"));
    if (mode === "PERCENT" && splits.reduce((sum, s) => sum + (s.value ?? 0), 0) !== 10000) {
      return setProblem(t("defaultSplit.percentSum"));
    }
    send({ splitMode: mode, splits }, t("defaultSplit.saved"));
  };
  return (
    <section>
      <Back to={`/groups/${groupId}/people`} />
      <Heading>{t("defaultSplit.title")}</Heading>
      <p>{t("defaultSplit.hint")}</p>
      <form onSubmit={submit}>
        <Select label={t("expense.splitMode")} value={mode} onChange={(v) => setMode(v as DefaultMode)}
                options={DEFAULT_MODES.map((m) => [m, t(`expense.mode.${m}`)])} />
        <fieldset class="who">
          <legend>{t("expense.forWhom")}</legend>
          {state.participants.map((p) => {
            const id = `default-${p.participantId}`;
            return (
              <div class="person" key={p.participantId}>
                <input id={id} type="checkbox" checked={!!chosen[p.participantId]}
                       onChange={(e) => setChosen({ ...chosen, [p.participantId]: (e.target as HTMLInputElement).checked })} />
                <label for={id}>{p.displayName}</label>
                {mode !== "EQUAL" && chosen[p.participantId] && (
                  <input class="value" inputMode="decimal" value={values[p.participantId] ?? ""}
                         aria-label={t("expense.valueFor", { mode: t(`expense.mode.${mode}`), name: p.displayName })}
                         onInput={(e) => setValues({ ...values, [p.participantId]: (e.target as HTMLInputElement).value })} />
                )}
              </div>
            );
          })}
        </fieldset>
        <Alert message={problem ?? error} />
        {saved && <p role="status">{saved}</p>}
        <button type="submit" class="primary" disabled={busy}>{t("defaultSplit.save")}</button>
        {state.group.defaultSplit && (
          <button type="button" onClick={() => send(null, t("defaultSplit.cleared"))} disabled={busy}>
            {t("defaultSplit.clear")}
          </button>
        )}
      </form>
    </section>
  );
}

export function ParticipantScreen({ groupId, participantId }: { groupId: string; participantId: string }) {
  const [state, loadError] = useGroup(groupId);
  const person = state?.participants.find((p) => p.participantId === participantId);
  const [household, setHousehold] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  if (!state || !person) return <section><Heading>{t("common.loading")}</Heading><Alert message={loadError} /></section>;
  const text = household ?? person.household ?? "";
  const canEdit = state.group.myRole === "OWNER" || state.group.myParticipantId === participantId;
  const send = (value: string | null, message: string) => run(async () => {
    setSaved(null);
    must(await api.PATCH("/groups/{groupId}/participants/{participantId}", {
      params: { path: { groupId, participantId } }, body: { household: value },
    }));
    await refreshGroup(groupId);
    setHousehold(null);
    setSaved(message);
  });
  const submit = (event: Event) => {
    event.preventDefault();
    send(text.trim(), t("household.saved"));
  };
  // Labels already in use, offered so a second member joins the same household by one tap.
  const known = [...new Set(state.participants.map((p) => p.household).filter((h): h is string => !!h))];
  return (
    <section>
      <Back to={`/groups/${groupId}/people`} />
      <Heading>{person.displayName}</Heading>
      <p>{person.household ? t("household.current", { household: person.household }) : t("household.none")}</p>
      {canEdit && (
        <form onSubmit={submit}>
          <h2>{t("household.title")}</h2>
          <p class="hint">{t("household.hint")}</p>
          <Field label={t("household.label")} value={text} onInput={setHousehold} required list="households" />
          <datalist id="households">{known.map((h) => <option key={h} value={h} />)}</datalist>
          <Alert message={error} />
          {saved && <p role="status">{saved}</p>}
          <button type="submit" class="primary" disabled={busy}>{t("household.save")}</button>
          {person.household && (
            <button type="button" onClick={() => send(null, t("household.cleared"))} disabled={busy}>
              {t("household.clear")}
            </button>
          )}
        </form>
      )}
    </section>
  );
}
