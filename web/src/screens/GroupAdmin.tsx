import { useState } from "preact/hooks";
import { ApiError, api, must, type Group, type Schemas } from "../api/client";
import { money, t } from "../i18n";
import { refreshGroup, replaceGroup } from "../lib/groups";
import { Alert, Back, Field, Heading, Select, currencies, describe, useAction, useLoad } from "./parts";
import { names, useGroup } from "./Group";

type TrashItem = Schemas["TrashItem"];

/** A refused write in words: the 409s and 404s these screens meet (api.md "Archive and trash"). */
function refusal(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === "PARTICIPANT_GONE") return t("trash.participantGone");
    if (error.code === "GROUP_ARCHIVED") return t("archived.refused");
    if (error.code === "CURRENCY_LOCKED") return t("groupSettings.currencyLocked");
    if (error.status === 404) return t("trash.gone");
  }
  return describe(error);
}

/** The group's trash: deleted expenses and settlements for 30 days, newest deletion first;
 * a MEMBER or OWNER restores one (its balance effect comes back with it). */
export function TrashScreen({ groupId }: { groupId: string }) {
  const [state, loadError] = useGroup(groupId);
  const [items, setItems] = useState<TrashItem[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [restored, setRestored] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const read = async (from: string | null) => {
    const page = must(await api.GET("/groups/{groupId}/trash", {
      params: { path: { groupId }, query: { limit: 50, ...(from ? { cursor: from } : {}) } },
    }));
    setItems((known) => (from ? [...(known ?? []), ...page.items] : page.items));
    setCursor(page.nextCursor);
  };
  const listError = useLoad(() => read(null), [groupId]);
  const more = () => {
    setError(null);
    read(cursor).catch((e) => setError(describe(e)));
  };
  const restore = (item: TrashItem, label: string) => {
    setError(null);
    setRestored(null);
    setBusy(true);
    api.POST("/groups/{groupId}/trash/{id}/restore", { params: { path: { groupId, id: item.id } } })
      .then(must)
      .then(async () => {
        setItems((known) => (known ?? []).filter((i) => i.id !== item.id));
        setRestored(t("trash.restored", { description: label }));
        await refreshGroup(groupId);
      })
      .catch((e) => setError(refusal(e)))
      .finally(() => setBusy(false));
  };

  if (!state) return <section><Heading>{t("common.loading")}</Heading><Alert message={loadError} /></section>;
  const who = names(state);
  const canRestore = state.group.myRole !== "VIEWER" && !state.group.archived;
  return (
    <section>
      <Back to={`/groups/${groupId}`} />
      <Heading>{t("trash.title")}</Heading>
      <p class="hint">{t("trash.hint")}</p>
      {state.group.archived && <p class="banner">{t("archived.banner")}</p>}
      <Alert message={listError ?? error} />
      {restored && <p role="status">{restored}</p>}
      {items === null ? <p>{t("common.loading")}</p> : items.length === 0 ? <p>{t("trash.empty")}</p> : (
        <ul class="list" aria-label={t("trash.title")}>
          {items.map((item) => {
            const label = item.description || (item.kind === "SETTLEMENT" ? t("statement.settlement") : t("statement.expense"));
            return (
              <li key={item.id}>
                <span class="title">{label}</span>
                <span class="amount">{money(item.amount, item.currency ?? state.group.currency)}</span>
                <span class="muted">
                  {t("trash.deleted", { name: who.get(item.deletedBy) ?? "?", date: item.deletedAt.slice(0, 10) })}
                  {" · "}{t("trash.expires", { date: item.expiresAt.slice(0, 10) })}
                </span>
                {canRestore && (
                  <button type="button" disabled={busy} onClick={() => restore(item, label)}
                          aria-label={t("trash.restoreNamed", { description: label })}>
                    {t("trash.restore")}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {cursor && <button type="button" onClick={more}>{t("statement.more")}</button>}
    </section>
  );
}

/** The group's settings (OWNER changes them): name, currency (until money exists), the
 * default balances view, rounding; archive and unarchive. */
export function GroupSettingsScreen({ groupId }: { groupId: string }) {
  const [state, loadError] = useGroup(groupId);
  if (!state) return <section><Heading>{t("common.loading")}</Heading><Alert message={loadError} /></section>;
  return (
    <section>
      <Back to={`/groups/${groupId}`} />
      <Heading>{t("groupSettings.title")}</Heading>
      <Alert message={loadError} />
      {state.group.myRole === "OWNER" ? <>
        <SettingsForm group={state.group} groupId={groupId} />
        <Archive group={state.group} groupId={groupId} />
      </> : <p>{t("groupSettings.ownerOnly")}</p>}
    </section>
  );
}

function SettingsForm({ group, groupId }: { group: Group; groupId: string }) {
  const [name, setName] = useState(group.name);
  const [currency, setCurrency] = useState(group.currency);
  const [simplify, setSimplify] = useState(group.simplifyDebts);
  const [rounding, setRounding] = useState<string>(group.rounding);
  const [saved, setSaved] = useState(false);
  const [error, busy, run] = useAction();
  const [refused, setRefused] = useState<string | null>(null);
  const save = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    setRefused(null);
    // Only what changed: the currency is locked once money exists (409 CURRENCY_LOCKED).
    const body = {
      ...(name.trim() !== group.name ? { name: name.trim() } : {}),
      ...(currency !== group.currency ? { currency: currency as "EUR" } : {}),
      ...(simplify !== group.simplifyDebts ? { simplifyDebts: simplify } : {}),
      ...(rounding !== group.rounding ? { rounding: rounding as "FAIR" | "LIST_ORDER" } : {}),
    };
    run(async () => {
      try {
        const reply = must(await api.PATCH("/groups/{groupId}", { params: { path: { groupId } }, body }));
        replaceGroup(groupId, reply);
        setSaved(true);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        setRefused(refusal(e));
      }
    });
  };
  const disabled = group.archived;
  return (
    <form onSubmit={save}>
      {disabled && <p class="banner">{t("archived.banner")}</p>}
      <fieldset disabled={disabled}>
        <legend>{t("groupSettings.title")}</legend>
        <Field label={t("newGroup.name")} value={name} onInput={setName} required />
        <Select label={t("newGroup.currency")} value={currency} onChange={setCurrency}
                options={currencies().map((c): [string, string] => [c, c])} />
        <div class="field check">
          <input type="checkbox" id="simplify" checked={simplify}
                 onChange={(e) => setSimplify((e.target as HTMLInputElement).checked)} aria-describedby="simplify-hint" />
          <label for="simplify">{t("groupSettings.simplify")}</label>
        </div>
        <p class="hint" id="simplify-hint">{t("groupSettings.simplifyHint")}</p>
        <Select label={t("groupSettings.rounding")} value={rounding} onChange={setRounding}
                options={[["LIST_ORDER", t("groupSettings.roundingListOrder")], ["FAIR", t("groupSettings.roundingFair")]]} />
        <p class="hint">{t("groupSettings.roundingHint")}</p>
        <Alert message={error ?? refused} />
        {saved && <p role="status">{t("settings.saved")}</p>}
        <button type="submit" class="primary" disabled={busy || disabled}>{t("settings.save")}</button>
      </fieldset>
    </form>
  );
}

function Archive({ group, groupId }: { group: Group; groupId: string }) {
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const flip = () => run(async () => {
    setNote(null);
    const path = group.archived ? "/groups/{groupId}/unarchive" as const : "/groups/{groupId}/archive" as const;
    const reply = must(await api.POST(path, { params: { path: { groupId } } }));
    replaceGroup(groupId, reply);
    setNote(reply.archived ? (reply.unsettled ? t("archive.doneUnsettled") : t("archive.done")) : t("archive.undone"));
  });
  return (
    <div class="card">
      <h2>{t("archive.title")}</h2>
      <p>{group.archived ? t("archived.banner") : t("archive.hint")}</p>
      {note && <p role="status">{note}</p>}
      <Alert message={error} />
      <button type="button" disabled={busy} onClick={flip}>
        {group.archived ? t("archive.unarchive") : t("archive.archive")}
      </button>
    </div>
  );
}
