import { useEffect, useRef, useState } from "preact/hooks";
import { api, must, type Schemas } from "../api/client";
import { money, t } from "../i18n";
import { Alert, Back, Heading, Select, describe } from "./parts";
import { names, useGroup } from "./Group";

type Line = Schemas["StatementLine"];

/** A participant's statement (api.md "Balances that explain themselves"): every row that
 * moved their net, oldest first, with the net after each; one section per currency they hold
 * money in (the group's, then each kept currency), older pages on request. */
export function StatementScreen({ groupId, participantId }: { groupId: string; participantId: string }) {
  const [state, loadError] = useGroup(groupId);
  const [currency, setCurrency] = useState("");
  const [lines, setLines] = useState<Line[]>([]);
  const [net, setNet] = useState<number | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0); // a reply for a section no longer shown is dropped

  const main = state?.group.currency ?? "";
  const section = currency || main;
  const page = async (from: string | null, reset: boolean) => {
    const mine = reset ? ++generation.current : generation.current;
    setBusy(true);
    setError(null);
    try {
      // Each page is one Query of the group's rows: one may hold none of this person's, so
      // read on until a page shows something (or the statement ends).
      let next = from;
      let reply;
      for (let read = 0; read < 20; read++) {
        reply = must(await api.GET("/groups/{groupId}/participants/{participantId}/statement", {
          params: { path: { groupId, participantId },
                    query: { limit: 50, ...(next ? { cursor: next } : {}),
                             ...(currency && currency !== main ? { currency: currency as "EUR" } : {}) } },
        }));
        next = reply.nextCursor;
        if (reply.items.length || !next) break;
      }
      const last = reply!;
      if (mine !== generation.current) return;
      setLines((known) => (reset ? last.items : [...known, ...last.items]));
      setNet(last.net);
      setCursor(last.nextCursor);
    } catch (e) {
      setError(describe(e));
    } finally {
      setBusy(false);
    }
  };
  // A new section, or new money in the group (its balances' revision): read from the start.
  const revision = state?.balances?.balanceRevision;
  useEffect(() => {
    if (state) void page(null, true);
  }, [groupId, participantId, section, revision === undefined, revision]);

  if (!state) return <section><Heading>{t("common.loading")}</Heading><Alert message={loadError} /></section>;
  const who = names(state);
  const name = who.get(participantId) ?? "?";
  // The kept currencies this participant holds money in.
  const kept = (state.balances?.otherCurrencies ?? [])
    .filter((c) => c.balances.some((b) => b.participantId === participantId))
    .map((c) => c.currency);
  return (
    <section>
      <Back to={`/groups/${groupId}/balances`} />
      <Heading>{t("statement.title", { name })}</Heading>
      <Alert message={loadError} />
      {kept.length > 0 && (
        <Select label={t("statement.currency")} value={section} onChange={setCurrency}
                options={[main, ...kept].map((c): [string, string] => [c, c])} />
      )}
      {net !== null && (
        <p class={`total ${net > 0 ? "owed" : net < 0 ? "owes" : ""}`}>
          {net > 0 ? t("statement.isOwed", { name, amount: money(net, section) })
            : net < 0 ? t("statement.owes", { name, amount: money(-net, section) })
            : t("statement.even", { name })}
        </p>
      )}
      <p class="hint">{t("statement.hint")}</p>
      <ol class="list statement" aria-label={t("statement.rows", { name })}>
        {lines.map((line) => <StatementRow key={`${line.kind}-${line.id}`} line={line} currency={section} />)}
      </ol>
      {!busy && !error && !cursor && lines.length === 0 && <p>{t("statement.empty")}</p>}
      {busy && <p role="status">{t("common.loading")}</p>}
      <Alert message={error} />
      {cursor && !busy && (
        <button type="button" onClick={() => void page(cursor, false)}>{t("statement.more")}</button>
      )}
    </section>
  );
}

function StatementRow({ line, currency }: { line: Line; currency: string }) {
  const title = line.description || t(line.kind === "SETTLEMENT" ? "statement.settlement"
    : line.kind === "CONVERSION" ? "statement.conversion" : "statement.expense");
  const sign = line.effect > 0 ? "+" : "−";
  return (
    <li>
      <span class="title">{title}</span>
      <span class={`amount ${line.effect > 0 ? "owed" : "owes"}`}>
        {sign}{money(Math.abs(line.effect), currency)}
      </span>
      <span class="muted">
        <time>{line.date}</time>
        {details(line, currency).map((part, n) => <span key={n}> · {part}</span>)}
      </span>
      <span class="muted">{t("statement.running", { amount: money(line.runningNet, currency) })}</span>
    </li>
  );
}

/** What the row did, in the person's words: an INCOME row's paid and owed come negative
 * (received, and their part of it); a settlement's paid is what they paid, its owed what
 * they received. */
function details(line: Line, currency: string): string[] {
  const amount = (minor: number) => money(Math.abs(minor), currency);
  const parts: string[] = [];
  if (line.kind === "INCOME") {
    parts.push(t("statement.income"));
    if (line.paid) parts.push(t("statement.received", { amount: amount(line.paid) }));
    if (line.owed) parts.push(t("statement.share", { amount: amount(line.owed) }));
  } else if (line.kind === "SETTLEMENT") {
    if (line.paid) parts.push(t("statement.paid", { amount: amount(line.paid) }));
    if (line.owed) parts.push(t("statement.received", { amount: amount(line.owed) }));
  } else if (line.kind === "EXPENSE") {
    if (line.paid) parts.push(t("statement.paid", { amount: amount(line.paid) }));
    if (line.owed) parts.push(t("statement.share", { amount: amount(line.owed) }));
  }
  return parts;
}
