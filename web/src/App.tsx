import { useEffect, useRef, useState } from "preact/hooks";
import { session } from "./api/session";
import { api } from "./api/client";
import { chosenLocale, negotiate, onLocaleChange, setLocale, t } from "./i18n";
import { forgetEverything } from "./lib/db";
import { forgetGroups, online } from "./lib/groups";
import { startLive, stopLive } from "./lib/live";
import { queued } from "./lib/outbox";
import { linkProps, navigate, path, route } from "./lib/router";
import { useStore } from "./lib/store";
import { ExpenseForm } from "./screens/ExpenseForm";
import { GroupScreen } from "./screens/Group";
import { Home } from "./screens/Home";
import { Join, renewLinkSession } from "./screens/Join";
import { NewGroup } from "./screens/NewGroup";
import { Settings } from "./screens/Settings";
import { SettleUp } from "./screens/SettleUp";
import { SignIn, SignedIn } from "./screens/SignIn";
import { renewTokens } from "./lib/auth";
import { Alert, Heading, useModule } from "./screens/parts";

export async function signOut(): Promise<void> {
  stopLive();
  session.set(null);
  forgetGroups();
  await forgetEverything();
  navigate("/", true);
}

function Status() {
  const isOnline = useStore(online);
  const waiting = useStore(queued);
  if (isOnline && !waiting.length) return null;
  return (
    <div class="status" role="status">
      {!isOnline && <p>{t("status.offline")}</p>}
      {waiting.length > 0 && <p>{t("status.queued", { count: waiting.length })}</p>}
    </div>
  );
}

/** Receipt capture loads its module only when opened (the first screen's budget). */
function ReceiptScreen({ groupId }: { groupId: string }) {
  const [module, error] = useModule(() => import("./screens/Receipt"));
  if (!module) return <section><Heading>{t("common.loading")}</Heading><Alert message={error} /></section>;
  return <module.ReceiptCapture groupId={groupId} />;
}

function RecurringScreen({ groupId }: { groupId: string }) {
  const [module, error] = useModule(() => import("./screens/Recurring"));
  if (!module) return <section><Heading>{t("common.loading")}</Heading><Alert message={error} /></section>;
  return <module.RecurringScreen groupId={groupId} />;
}

/** A participant's statement, the trash and the group's settings: loaded when opened. */
function StatementScreen({ groupId, participantId }: { groupId: string; participantId: string }) {
  const [module, error] = useModule(() => import("./screens/Statement"));
  if (!module) return <section><Heading>{t("common.loading")}</Heading><Alert message={error} /></section>;
  return <module.StatementScreen groupId={groupId} participantId={participantId} />;
}

function GroupAdminScreen({ groupId, screen }: { groupId: string; screen: "trash" | "groupSettings" }) {
  const [module, error] = useModule(() => import("./screens/GroupAdmin"));
  if (!module) return <section><Heading>{t("common.loading")}</Heading><Alert message={error} /></section>;
  return screen === "trash" ? <module.TrashScreen groupId={groupId} /> : <module.GroupSettingsScreen groupId={groupId} />;
}

/** The default split and a participant's household (SplitSetup.tsx), loaded when opened. */
function SplitSetupScreen({ where }: { where: { name: "defaultSplit" | "participant"; groupId: string; participantId?: string } }) {
  const [module, error] = useModule(() => import("./screens/SplitSetup"));
  if (!module) return <section><Heading>{t("common.loading")}</Heading><Alert message={error} /></section>;
  return where.name === "defaultSplit" ? <module.DefaultSplitScreen groupId={where.groupId} />
    : <module.ParticipantScreen groupId={where.groupId} participantId={where.participantId!} />;
}

function Screen() {
  const current = useStore(session);
  const where = route(useStore(path));
  if (where.name === "join") return <Join />;
  if (where.name === "signedIn") return <SignedIn />;
  if (!current) return <SignIn />;
  if (current.kind === "link") {
    // A share-link session reaches its own group only.
    const inGroup = "groupId" in where && where.groupId === current.groupId;
    if (!inGroup) return <GroupScreen groupId={current.groupId} tab="expenses" />;
  }
  switch (where.name) {
    case "home": return <Home />;
    case "newGroup": return <NewGroup />;
    case "settings": return <Settings />;
    case "group": return <GroupScreen groupId={where.groupId} tab={where.tab} />;
    case "expense": return <ExpenseForm groupId={where.groupId} expenseId={where.expenseId} />;
    case "settle": return <SettleUp groupId={where.groupId} />;
    case "receipt": return <ReceiptScreen groupId={where.groupId} />;
    case "recurring": return <RecurringScreen groupId={where.groupId} />;
    case "statement": return <StatementScreen groupId={where.groupId} participantId={where.participantId} />;
    case "trash": case "groupSettings":
      return <GroupAdminScreen key={where.name} groupId={where.groupId} screen={where.name} />;
    case "defaultSplit": case "participant": return <SplitSetupScreen where={where} />;
    default: return <Home />;
  }
}

export function App() {
  const current = useStore(session);
  const [, rerender] = useState(0);
  const main = useRef<HTMLElement>(null);
  const where = useStore(path);
  useEffect(() => onLocaleChange(() => rerender((n) => n + 1)), []);
  useEffect(() => {
    if (current) startLive();
    else stopLive();
    // Signed in, the profile's language (once the profile carries one, api.md "E-mail and
    // language") wins over the browser's; one chosen in Settings on this device wins over both.
    if (current?.kind === "user" && !chosenLocale()) {
      api.GET("/users/me").then(({ data }) => {
        const wanted = (data as { locale?: string } | undefined)?.locale;
        return wanted ? setLocale(null, negotiate([wanted])) : undefined;
      }).catch(() => undefined);
    }
  }, [current?.token]);
  useEffect(() => {
    // A hosted-UI session: a minute before its access token ends, the refresh token renews it.
    if (current?.kind !== "user" || !current.expiresAt || !current.refreshToken) return;
    const wait = Math.max(1_000, current.expiresAt - Date.now() - 60_000);
    const timer = setTimeout(() => void renewTokens().catch(() => session.set(null)), wait);
    return () => clearTimeout(timer);
  }, [current?.token]);
  useEffect(() => {
    // A share-link session lasts an hour: the link (kept with it) opens the next one.
    if (current?.kind !== "link") return;
    const wait = Math.max(10_000, Date.parse(current.expiresAt) - Date.now() - 5 * 60_000);
    const timer = setTimeout(() => void renewLinkSession().catch(() => undefined), wait);
    return () => clearTimeout(timer);
  }, [current?.token]);
  useEffect(() => {
    // A new screen: move focus to its heading, as a page load would for a screen reader.
    main.current?.querySelector<HTMLElement>("h1")?.focus();
  }, [where]);
  return (
    <>
      <a class="skip" href="#main">{t("app.skip")}</a>
      <header class="bar">
        <a class="brand" {...linkProps("/")}>{t("app.name")}</a>
        {current?.kind === "user" && (
          <nav aria-label={t("app.name")}>
            <a {...linkProps("/")}>{t("nav.home")}</a>
            <a {...linkProps("/settings")}>{t("nav.settings")}</a>
            <button type="button" class="link" onClick={() => void signOut()}>{t("nav.signOut")}</button>
          </nav>
        )}
      </header>
      <Status />
      <main id="main" ref={main}>
        <Screen />
      </main>
    </>
  );
}
