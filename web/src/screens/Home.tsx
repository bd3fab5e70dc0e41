import { useState } from "preact/hooks";
import { api, isNetworkFailure, must, type HomeGroup } from "../api/client";
import { t, money } from "../i18n";
import { claimable } from "../lib/claim";
import { home, refreshHome } from "../lib/groups";
import { linkProps } from "../lib/router";
import { useStore } from "../lib/store";
import { Alert, Heading, useLoad, useModule } from "./parts";

export function Home() {
  const items = useStore(home);
  const kept = useStore(claimable);
  const [archived, setArchived] = useState<HomeGroup[]>([]);
  const error = useLoad(refreshHome, []);
  // Archived groups are listed apart (api.md "Archive and trash": only with ?archived=true).
  const archivedError = useLoad(async () => {
    try {
      const page = must(await api.GET("/users/me/groups", { params: { query: { archived: true, limit: 100 } } }));
      setArchived(page.items);
    } catch (e) {
      if (!isNetworkFailure(e)) throw e; // offline: the active groups from IndexedDB are enough
    }
  }, []);
  return (
    <section>
      <Heading>{t("home.title")}</Heading>
      {/* Above everything that arrives later (the list, a claim offer, an error), so a tap
          aimed at it never lands on what a late answer pushed into its place. */}
      <a class="button primary" {...linkProps("/new-group")}>{t("home.create")}</a>
      {kept && <Claim />}
      <Alert message={error ?? archivedError} />
      {items === null ? <p>{t("common.loading")}</p> : items.length === 0 ? <p>{t("home.empty")}</p> : (
        <Cards items={items} label={t("home.title")} />
      )}
      {archived.length > 0 && (
        <>
          <h2>{t("home.archived")}</h2>
          <Cards items={archived} label={t("home.archived")} />
        </>
      )}
    </section>
  );
}

function Cards({ items, label }: { items: HomeGroup[]; label: string }) {
  return (
    <ul class="cards" aria-label={label}>
      {items.map((g) => (
        <li key={g.groupId}>
          <a {...linkProps(`/groups/${g.groupId}`)}>
            <span class="title">{g.name}</span>
            <span class={g.myNet > 0 ? "owed" : g.myNet < 0 ? "owes" : "muted"}>
              {g.myNet > 0 ? t("home.youAreOwed", { amount: money(g.myNet, g.currency) })
                : g.myNet < 0 ? t("home.youOwe", { amount: money(-g.myNet, g.currency) })
                : t("home.settled")}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The claim of a share link's guest, offered after sign-in: its module loads only then. */
function Claim() {
  const kept = useStore(claimable);
  const [module] = useModule(() => import("./Claim"));
  return module && kept ? <module.ClaimOffer kept={kept} /> : null;
}
