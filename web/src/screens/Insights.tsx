import { useId, useState } from "preact/hooks";
import { api, must, type Schemas } from "../api/client";
import { currentLocale, money, t } from "../i18n";
import type { GroupState } from "../lib/db";
import { Alert, Select, useAction, useLoad } from "./parts";
import { names } from "./Group";

// The group's activity and its stats as charts. This module is loaded only when one of the
// two tabs opens (Group.tsx), so the first screen's JavaScript does not carry it.

type Activity = Schemas["Activity"];
type Stats = Schemas["GroupStats"];
type Row = Schemas["StatsRow"];
type By = "category" | "month" | "participant";

export function ActivityView({ state }: { state: GroupState }) {
  const [items, setItems] = useState<Activity[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [moreError, busy, run] = useAction();
  const page = async (after: string | null) => {
    const reply = must(await api.GET("/groups/{groupId}/activity", {
      params: { path: { groupId: state.groupId }, query: { limit: 25, cursor: after ?? undefined } },
    }));
    setItems((shown) => (after ? [...shown, ...reply.items] : reply.items));
    setCursor(reply.nextCursor ?? null);
    setLoaded(true);
  };
  // Read again when the group moves (a live poke or this device's own write).
  const error = useLoad(() => page(null), [state.groupId, state.revision]);
  if (!loaded) return <><p>{t("common.loading")}</p><Alert message={error} /></>;
  return (
    <div>
      <h2>{t("activity.title")}</h2>
      <Alert message={error ?? moreError} />
      {items.length === 0 ? <p>{t("activity.empty")}</p> : (
        <ol class="list activity" aria-label={t("activity.title")}>
          {items.map((item) => <ActivityRow key={`${item.revision}-${item.id}`} item={item}
                                            currency={state.group.currency} />)}
        </ol>
      )}
      {cursor && <button type="button" disabled={busy} onClick={() => run(() => page(cursor))}>{t("activity.more")}</button>}
    </div>
  );
}

function ActivityRow({ item, currency }: { item: Activity; currency: string }) {
  const when = new Date(item.at);
  return (
    <li>
      <span class="title">{item.summary}</span>
      <time class="muted" dateTime={item.at}>
        {new Intl.DateTimeFormat(currentLocale(), { dateStyle: "medium", timeStyle: "short" }).format(when)}
      </time>
      {item.diff.length > 0 && (
        <ul class="diff muted">
          {item.diff.map((d) => (
            <li key={d.field}>{describeChange(d, currency)}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** One changed field in words: money as money, plain values before → after; payers, splits
 * and items (lists of ids and numbers) only as "changed", which the expense itself shows. */
function describeChange(d: Schemas["FieldDiff"], currency: string): string {
  const plain = (v: unknown) => v === null || v === undefined || typeof v === "string" || typeof v === "number";
  if (!plain(d.before) || !plain(d.after)) return t("activity.changedOnly", { field: d.field });
  const text = (v: unknown) => v === null || v === undefined ? "—"
    : d.field === "amount" && typeof v === "number" ? money(v, currency) : String(v);
  return t("activity.changed", { field: d.field, before: text(d.before), after: text(d.after) });
}

export function StatsView({ state }: { state: GroupState }) {
  const [by, setBy] = useState<By>("participant");
  const [stats, setStats] = useState<Stats | null>(null);
  const error = useLoad(async () => {
    setStats(must(await api.GET("/groups/{groupId}/stats", {
      params: { path: { groupId: state.groupId }, query: { by } },
    })));
  }, [state.groupId, state.revision, by]);
  const who = names(state);
  // Labelled by what the shown reply was grouped by (the choice may be newer than the reply).
  const shownBy = stats?.by;
  const label = (key: string | null | undefined): string => {
    if (shownBy === "participant") return who.get(key ?? "") ?? "?";
    const [year, month] = (key ?? "").split("-").map(Number);
    if (shownBy === "month" && year && month) {
      return new Intl.DateTimeFormat(currentLocale(), { month: "short", year: "numeric", timeZone: "UTC" })
        .format(new Date(Date.UTC(year, month - 1, 1)));
    }
    return key ?? t("stats.noCategory");
  };
  return (
    <div>
      <h2>{t("stats.title")}</h2>
      <Select label={t("stats.by")} value={by} onChange={(v) => setBy(v as By)}
              options={[["participant", t("stats.by.participant")], ["category", t("stats.by.category")],
                        ["month", t("stats.by.month")]]} />
      <Alert message={error} />
      {!stats ? <p>{t("common.loading")}</p> : stats.total.count === 0 && !stats.otherCurrencies.length
        ? <p>{t("stats.empty")}</p> : (
          <>
            <Chart currency={stats.currency} rows={stats.rows} label={label} total={stats.total.spent} />
            {stats.otherCurrencies.map((section) => (
              <Chart key={section.currency} currency={section.currency} rows={section.rows} label={label}
                     total={section.total.spent} />
            ))}
          </>
        )}
    </div>
  );
}

// The chart's own units (the SVG scales to the screen's width): per row a label line, the
// spent bar and the paid bar.
const WIDTH = 340;
const ROW = 58;

/** A hand-drawn bar chart (no chart library: a few hundred bytes, loaded with this screen).
 * The SVG is one image with a name; the same numbers are in the table under it, which is
 * what a screen reader reads. */
function Chart({ currency, rows, label, total }: {
  currency: string; rows: Row[]; label: (key: string | null | undefined) => string; total: number;
}) {
  const titleId = useId();
  const widest = Math.max(1, ...rows.map((r) => Math.max(r.spent, r.paid)));
  const bar = (value: number) => Math.max(value > 0 ? 2 : 0, Math.round((value / widest) * (WIDTH - 90)));
  const caption = t("stats.caption", { currency, total: money(total, currency) });
  return (
    <figure class="chart">
      <figcaption id={titleId}>{caption}</figcaption>
      <svg role="img" aria-labelledby={titleId} viewBox={`0 0 ${WIDTH} ${rows.length * ROW}`} width="100%">
        {rows.map((row, n) => {
          const top = n * ROW;
          return (
            <g key={row.key ?? "none"}>
              <text x={0} y={top + 14} class="label">{label(row.key)}</text>
              <rect class="spent" x={0} y={top + 20} height={14} width={bar(row.spent)} />
              <text x={bar(row.spent) + 6} y={top + 32} class="value">{money(row.spent, currency)}</text>
              <rect class="paid" x={0} y={top + 37} height={14} width={bar(row.paid)} />
              <text x={bar(row.paid) + 6} y={top + 49} class="value">{money(row.paid, currency)}</text>
            </g>
          );
        })}
      </svg>
      <div class="legend" aria-hidden="true">
        <span><i class="spent" /> {t("stats.spent")}</span> <span><i class="paid" /> {t("stats.paid")}</span>
      </div>
      <table class="numbers">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr><th scope="col">{t("stats.key")}</th><th scope="col">{t("stats.spent")}</th><th scope="col">{t("stats.paid")}</th></tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key ?? "none"}>
              <th scope="row">{label(row.key)}</th>
              <td>{money(row.spent, currency)}</td>
              <td>{money(row.paid, currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
