import { useEffect, useState } from "preact/hooks";
import { api, must, type Balances, type Participant, type Transfer } from "../api/client";
import { session } from "../api/session";
import { money, t } from "../i18n";
import type { GroupState } from "../lib/db";
import { cachedGroup, groups, refreshGroup } from "../lib/groups";
import { conflicts, dismissConflict, enqueue, failures, type Conflict } from "../lib/outbox";
import { linkProps } from "../lib/router";
import { useStore } from "../lib/store";
import { signInToKeep } from "../lib/claim";
import { Expenses } from "./ExpenseList";
import { Alert, Field, Heading, describe, useAction, useLoad, useModule } from "./parts";

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
      {current?.kind === "link" && me && <GuestBanner groupName={state.group.name} guestName={me.displayName} />}
      {state.group.archived && <p class="banner" role="note">{t("archived.banner")}</p>}
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
      {current?.kind !== "link" && (
        <p class="more">
          {/* Trash and settings are not a share link's (api.md "Share links"). */}
          <a {...linkProps(`/groups/${groupId}/trash`)}>{t("trash.title")}</a>
          {state.group.myRole === "OWNER" && <a {...linkProps(`/groups/${groupId}/settings`)}>{t("groupSettings.link")}</a>}
        </p>
      )}
    </section>
  );
}

/** A share-link guest: who they are here, and the way to keep it in an account. */
function GuestBanner({ groupName, guestName }: { groupName: string; guestName: string }) {
  const [error, busy, run] = useAction();
  return (
    <div class="banner">
      <p>{t("join.guestBanner", { name: guestName })}</p>
      <p>{t("claim.offer", { name: guestName })}</p>
      <button type="button" disabled={busy} onClick={() => run(() => signInToKeep(groupName, guestName))}>
        {t("claim.signIn")}
      </button>
      <Alert message={error} />
    </div>
  );
}

/** Activity and stats load their module (and its chart) only when opened. */
function Insight({ state, tab }: { state: GroupState; tab: "activity" | "stats" }) {
  const [module, error] = useModule(() => import("./Insights"));
  if (!module) return <><p>{t("common.loading")}</p><Alert message={error} /></>;
  return tab === "activity" ? <module.ActivityView state={state} /> : <module.StatsView state={state} />;
}

type View = "simplified" | "pairwise";

/** Balances, and the plan in either view (api.md "Balances that explain themselves"): the
 * group's simplifyDebts picks the first one shown; the other is read when chosen. */
function BalancesView({ state }: { state: GroupState }) {
  const [view, setView] = useState<View>(state.group.simplifyDebts === false ? "pairwise" : "simplified");
  const [other, setOther] = useState<Balances | null>(null);
  const [error, setError] = useState<string | null>(null);
  const guest = useStore(session)?.kind === "link";
  const stored = state.balances;
  const fetchOther = !!stored && (stored.view ?? "simplified") !== view;
  useEffect(() => {
    if (!fetchOther) return;
    setError(null);
    api.GET("/groups/{groupId}/balances", { params: { path: { groupId: state.groupId }, query: { view } } })
      .then(must).then(setOther).catch((e) => setError(describe(e)));
  }, [view, fetchOther, stored?.balanceRevision]);
  const balances = fetchOther ? (other?.view === view ? other : null) : stored;
  if (!balances) return <><p>{t("common.loading")}</p><Alert message={error} /></>;
  const who = names(state);
  const currency = balances.currency;
  const choose = (next: View) => setView(next);
  return (
    <div>
      <fieldset class="toggle">
        <legend>{t("balances.view")}</legend>
        {([["simplified", t("balances.simplified")], ["pairwise", t("balances.pairwise")]] as Array<[View, string]>)
          .map(([value, label]) => (
            <div class="field check" key={value}>
              <input type="radio" name="balances-view" id={`view-${value}`} value={value}
                     checked={view === value} onChange={() => choose(value)} />
              <label for={`view-${value}`}>{label}</label>
            </div>
          ))}
      </fieldset>
      <Alert message={error} />
      <h2>{t("balances.title")}</h2>
      {!guest && <p class="hint">{t("balances.statementHint")}</p>}
      <ul class="list" aria-label={t("balances.title")}>
        {balances.balances.map((b) => (
          <li key={b.participantId}>
            {/* The statement is not a share link's to read (the route refuses link sessions). */}
            {guest ? <span class="title">{b.displayName}</span> : (
              <a class="title" {...linkProps(`/groups/${state.groupId}/statement/${b.participantId}`)}
                 aria-label={t("balances.statementOf", { name: b.displayName })}>{b.displayName}</a>
            )}
            <span class={`amount ${b.net > 0 ? "owed" : b.net < 0 ? "owes" : ""}`}>{money(b.net, currency)}</span>
          </li>
        ))}
      </ul>
      {balances.households && balances.households.length > 0 && (
        <>
          <h2>{t("balances.households")}</h2>
          <ul class="list" aria-label={t("balances.households")}>
            {balances.households.map((h) => (
              <li key={h.household}>
                <span class="title">{h.household}</span>
                <span class={`amount ${h.net > 0 ? "owed" : h.net < 0 ? "owes" : ""}`}>{money(h.net, currency)}</span>
                <span class="muted">{h.participantIds.map((id) => who.get(id) ?? "?").join(", ")}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>{view === "pairwise" ? t("balances.pairwiseTitle") : t("balances.plan")}</h2>
      <Plan state={state} transfers={balances.transfers} currency={currency} />
      {balances.otherCurrencies.map((section) => (
        <div key={section.currency}>
          <h2>{t("balances.otherCurrency", { currency: section.currency })}</h2>
          <ul class="list" aria-label={t("balances.otherCurrency", { currency: section.currency })}>
            {section.balances.map((b) => (
              <li key={b.participantId}>
                <span class="title">{who.get(b.participantId) ?? "?"}</span>
                <span class={`amount ${b.net > 0 ? "owed" : b.net < 0 ? "owes" : ""}`}>{money(b.net, section.currency)}</span>
              </li>
            ))}
          </ul>
          <Plan state={state} transfers={section.transfers} currency={section.currency} />
        </div>
      ))}
      {balances.transfers.length > 0 && !state.group.archived && (
        <a class="button primary" {...linkProps(`/groups/${state.groupId}/settle`)}>{t("balances.settle")}</a>
      )}
    </div>
  );
}

/** The transfers of one currency: with households, a unit's label stands for its members. */
function Plan({ state, transfers, currency }: { state: GroupState; transfers: Transfer[]; currency: string }) {
  const who = names(state);
  // A reminder reaches an account: guests have none; an archived group takes none.
  const users = new Set(state.participants.filter((p) => p.type === "USER").map((p) => p.participantId));
  if (transfers.length === 0) return <p>{t("balances.noTransfers")}</p>;
  return (
    <ul class="list plan">
      {transfers.map((x) => (
        <li key={`${x.fromParticipantId}-${x.toParticipantId}`}>
          {t("balances.transfer", { from: x.fromHousehold ?? who.get(x.fromParticipantId) ?? "?",
                                    to: x.toHousehold ?? who.get(x.toParticipantId) ?? "?",
                                    amount: money(x.amount, currency) })}
          {x.toParticipantId === state.group.myParticipantId && users.has(x.fromParticipantId)
            && !state.group.archived && currency === state.group.currency && (
            <Remind groupId={state.groupId} participantId={x.fromParticipantId}
                    name={who.get(x.fromParticipantId) ?? "?"} />
          )}
        </li>
      ))}
    </ul>
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
  const role = state.group.archived ? "VIEWER" : state.group.myRole; // archived: read-only
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
