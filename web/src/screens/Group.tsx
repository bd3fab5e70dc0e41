import { useState } from "preact/hooks";
import { api, must, type Participant } from "../api/client";
import { session } from "../api/session";
import { money, t } from "../i18n";
import type { GroupState } from "../lib/db";
import { cachedGroup, groups, refreshGroup } from "../lib/groups";
import { conflicts, dismissConflict, enqueue, failures, type Conflict } from "../lib/outbox";
import { linkProps } from "../lib/router";
import { useStore } from "../lib/store";
import { Expenses } from "./ExpenseList";
import { Alert, Field, Heading, useAction, useLoad, useModule } from "./parts";

type Tab = "expenses" | "balances" | "people" | "activity" | "stats";

export function names(state: GroupState): Map<string, string> {
  return new Map(state.participants.map((p) => [p.participantId, p.displayName]));
}

export function useGroup(groupId: string): [GroupState | undefined, string | null] {
  const state = useStore(groups)[groupId];
  const error = useLoad(async () => {
    await cachedGroup(groupId);
    await refreshGroup(groupId);
  }, [groupId]);
  return [state, error];
}

export function GroupScreen({ groupId, tab }: { groupId: string; tab: Tab }) {
  const [state, error] = useGroup(groupId);
  const current = useStore(session);
  if (!state) return <section><Heading>{t("common.loading")}</Heading><Alert message={error} /></section>;
  const tabs: Array<[Tab, string, string]> = [
    ["expenses", t("group.expenses"), `/groups/${groupId}`],
    ["balances", t("group.balances"), `/groups/${groupId}/balances`],
    ["people", t("group.people"), `/groups/${groupId}/people`],
    ["activity", t("group.activity"), `/groups/${groupId}/activity`],
    ["stats", t("group.stats"), `/groups/${groupId}/stats`],
  ];
  const me = state.participants.find((p) => p.participantId === state.group.myParticipantId);
  return (
    <section>
      <Heading>{state.group.name}</Heading>
      {current?.kind === "link" && me && <p class="banner">{t("join.guestBanner", { name: me.displayName })}</p>}
      <Alert message={error} />
      <Conflicts state={state} />
      <Failures />
      <nav class="tabs" aria-label={state.group.name}>
        {tabs.map(([name, label, to]) => (
          <a key={name} {...linkProps(to)} aria-current={name === tab ? "page" : undefined}>{label}</a>
        ))}
      </nav>
      {tab === "expenses" && <Expenses state={state} />}
      {tab === "balances" && <BalancesView state={state} />}
      {tab === "people" && <People state={state} />}
      {(tab === "activity" || tab === "stats") && <Insight state={state} tab={tab} />}
    </section>
  );
}

/** Activity and stats load their module (and its chart) only when opened. */
function Insight({ state, tab }: { state: GroupState; tab: "activity" | "stats" }) {
  const [module, error] = useModule(() => import("./Insights"));
  if (!module) return <><p>{t("common.loading")}</p><Alert message={error} /></>;
  return tab === "activity" ? <module.ActivityView state={state} /> : <module.StatsView state={state} />;
}

function BalancesView({ state }: { state: GroupState }) {
  const balances = state.balances;
  if (!balances) return <p>{t("common.loading")}</p>;
  const who = names(state);
  const currency = balances.currency;
  // A reminder reaches an account: guests have none.
  const users = new Set(state.participants.filter((p) => p.type === "USER").map((p) => p.participantId));
  return (
    <div>
      <h2>{t("balances.title")}</h2>
      <ul class="list">
        {balances.balances.map((b) => (
          <li key={b.participantId}>
            <span class="title">{b.displayName}</span>
            <span class={`amount ${b.net > 0 ? "owed" : b.net < 0 ? "owes" : ""}`}>{money(b.net, currency)}</span>
          </li>
        ))}
      </ul>
      <h2>{t("balances.plan")}</h2>
      {balances.transfers.length === 0 ? <p>{t("balances.noTransfers")}</p> : (
        <ul class="list plan">
          {balances.transfers.map((x) => (
            <li key={`${x.fromParticipantId}-${x.toParticipantId}`}>
              {t("balances.transfer", { from: who.get(x.fromParticipantId) ?? "?",
                                        to: who.get(x.toParticipantId) ?? "?",
                                        amount: money(x.amount, currency) })}
              {x.toParticipantId === state.group.myParticipantId && users.has(x.fromParticipantId) && (
                <Remind groupId={state.groupId} participantId={x.fromParticipantId}
                        name={who.get(x.fromParticipantId) ?? "?"} />
              )}
            </li>
          ))}
        </ul>
      )}
      {balances.transfers.length > 0 && (
        <a class="button primary" {...linkProps(`/groups/${state.groupId}/settle`)}>{t("balances.settle")}</a>
      )}
    </div>
  );
}

/** api.md "reminders": one per person a day; a second is refused with the envelope's message. */
function Remind({ groupId, participantId, name }: { groupId: string; participantId: string; name: string }) {
  const [sent, setSent] = useState(false);
  const [error, busy, run] = useAction();
  const send = () => run(async () => {
    must(await api.POST("/groups/{groupId}/reminders", {
      params: { path: { groupId } }, body: { participantId },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    }));
    setSent(true);
  });
  return (
    <div>
      {sent ? <p role="status">{t("balances.reminded", { name })}</p>
        : <button type="button" onClick={send} disabled={busy}>{t("balances.remind", { name })}</button>}
      <Alert message={error} />
    </div>
  );
}

function People({ state }: { state: GroupState }) {
  const [name, setName] = useState("");
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, busy, run] = useAction();
  const role = state.group.myRole;
  const linkGuest = useStore(session)?.kind === "link";
  const addGuest = (event: Event) => {
    event.preventDefault();
    run(async () => {
      must(await api.POST("/groups/{groupId}/participants", {
        params: { path: { groupId: state.groupId } }, body: { displayName: name.trim() },
        headers: { "Idempotency-Key": crypto.randomUUID() },
      }));
      setName("");
      await refreshGroup(state.groupId);
    });
  };
  const createLink = () => run(async () => {
    const made = must(await api.POST("/groups/{groupId}/links", {
      params: { path: { groupId: state.groupId } }, body: { role: "MEMBER" },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    }));
    setLink(`${location.origin}/app/join#${made.token}`);
  });
  const copy = () => run(async () => {
    await navigator.clipboard.writeText(link!);
    setCopied(true);
  });
  return (
    <div>
      <ul class="list" aria-label={t("group.people")}>
        {state.participants.map((p: Participant) => (
          <li key={p.participantId}>
            <span class="title">
              {/* The participant's screen: their household (api.md "Households"); not for a share-link guest. */}
              {linkGuest ? p.displayName : <a {...linkProps(`/groups/${state.groupId}/people/${p.participantId}`)}>{p.displayName}</a>}
            </span>
            {p.type === "GUEST" && <span class="muted">{t("people.guest")}</span>}
            {p.household && <span class="muted">{t("household.current", { household: p.household })}</span>}
          </li>
        ))}
      </ul>
      {role !== "VIEWER" && (
        <form onSubmit={addGuest}>
          <Field label={t("people.name")} value={name} onInput={setName} required />
          <button type="submit" disabled={busy}>{t("people.add")}</button>
        </form>
      )}
      <Alert message={error} />
      {role === "OWNER" && !linkGuest && (
        <a class="button" {...linkProps(`/groups/${state.groupId}/default-split`)}>{t("defaultSplit.title")}</a>
      )}
      {role === "OWNER" && (
        <div class="share">
          <h2>{t("people.shareLink")}</h2>
          <p>{t("people.shareLinkHint")}</p>
          {link ? (
            <>
              <Field label={t("people.shareLink")} value={link} onInput={() => undefined} />
              <button type="button" onClick={copy}>{copied ? t("people.copied") : t("people.copy")}</button>
            </>
          ) : <button type="button" onClick={createLink} disabled={busy}>{t("people.createLink")}</button>}
        </div>
      )}
    </div>
  );
}

function Conflicts({ state }: { state: GroupState }) {
  const mine = useStore(conflicts).filter((c) => c.write.groupId === state.groupId);
  const currency = state.group.currency;
  const useMine = (conflict: Conflict) => {
    dismissConflict(conflict);
    const body = { ...(conflict.write.body as object), version: conflict.current?.version };
    void enqueue({ ...conflict.write, body }).catch(() => undefined);
  };
  return (
    <>
      {mine.map((c) => {
        const body = c.write.body as { description?: string; amount?: number };
        return (
          <div class="conflict" role="alert" key={c.write.key}>
            <h2>{t("conflict.title")}</h2>
            <p>{t("conflict.body")}</p>
            {c.current && <p>{t("conflict.theirs", { description: c.current.description,
                                                     amount: money(c.current.amount, currency) })}</p>}
            <p>{t("conflict.mine", { description: body.description ?? c.write.label,
                                     amount: money(body.amount ?? c.write.amount ?? 0, currency) })}</p>
            <button type="button" onClick={() => dismissConflict(c)}>{t("conflict.keepTheirs")}</button>
            {c.current && <button type="button" onClick={() => useMine(c)}>{t("conflict.useMine")}</button>}
          </div>
        );
      })}
    </>
  );
}

function Failures() {
  const all = useStore(failures);
  return <>{all.map((message, n) => <p class="alert" role="alert" key={n}>{message}</p>)}</>;
}
