import { t, money } from "../i18n";
import { home, refreshHome } from "../lib/groups";
import { linkProps } from "../lib/router";
import { useStore } from "../lib/store";
import { Alert, Heading, useLoad } from "./parts";

export function Home() {
  const items = useStore(home);
  const error = useLoad(refreshHome, []);
  return (
    <section>
      <Heading>{t("home.title")}</Heading>
      <Alert message={error} />
      {items === null ? <p>{t("common.loading")}</p> : items.length === 0 ? <p>{t("home.empty")}</p> : (
        <ul class="cards">
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
      )}
      <a class="button primary" {...linkProps("/new-group")}>{t("home.create")}</a>
    </section>
  );
}
