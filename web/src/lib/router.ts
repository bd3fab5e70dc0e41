import { Store } from "./store";

// Paths under /app/ (the server answers every one with index.html); no hash routing, since
// the hash carries a share link's token and never reaches the server.
export const BASE = "/app";
export const path = new Store<string>(location.pathname);

export function navigate(to: string, replace = false): void {
  const url = BASE + to;
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  path.set(location.pathname);
  window.scrollTo(0, 0);
}

window.addEventListener("popstate", () => path.set(location.pathname));

export type Route =
  | { name: "home" } | { name: "join" } | { name: "signedIn" } | { name: "newGroup" } | { name: "settings" }
  | { name: "group"; groupId: string; tab: "expenses" | "balances" | "people" | "activity" | "stats" }
  | { name: "expense"; groupId: string; expenseId?: string }
  | { name: "settle"; groupId: string }
  | { name: "receipt"; groupId: string }
  | { name: "recurring"; groupId: string }
  | { name: "statement"; groupId: string; participantId: string }
  | { name: "trash"; groupId: string }
  | { name: "groupSettings"; groupId: string }
  | { name: "defaultSplit"; groupId: string }
  | { name: "participant"; groupId: string; participantId: string }
  | { name: "notFound" };

export function route(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split("/").filter(Boolean);
  if (parts.length === 0) return { name: "home" };
  if (parts[0] === "join" && parts.length === 1) return { name: "join" };
  if (parts[0] === "signed-in" && parts.length === 1) return { name: "signedIn" };
  if (parts[0] === "new-group") return { name: "newGroup" };
  if (parts[0] === "settings") return { name: "settings" };
  if (parts[0] === "groups" && parts[1]) {
    const groupId = parts[1];
    if (parts.length === 2) return { name: "group", groupId, tab: "expenses" };
    if (["balances", "people", "activity", "stats"].includes(parts[2]) && parts.length === 3) {
      return { name: "group", groupId, tab: parts[2] as "balances" | "people" | "activity" | "stats" };
    }
    if (parts[2] === "settle") return { name: "settle", groupId };
    if (parts[2] === "receipt") return { name: "receipt", groupId };
    if (parts[2] === "recurring") return { name: "recurring", groupId };
    if (parts[2] === "statement" && parts[3] && parts.length === 4) {
      return { name: "statement", groupId, participantId: parts[3] };
    }
    if (parts[2] === "trash" && parts.length === 3) return { name: "trash", groupId };
    if (parts[2] === "settings" && parts.length === 3) return { name: "groupSettings", groupId };
    if (parts[2] === "default-split") return { name: "defaultSplit", groupId };
    if (parts[2] === "people" && parts[3]) return { name: "participant", groupId, participantId: parts[3] };
    if (parts[2] === "expenses" && parts[3] === "new") return { name: "expense", groupId };
    if (parts[2] === "expenses" && parts[3]) return { name: "expense", groupId, expenseId: parts[3] };
  }
  return { name: "notFound" };
}

/** A link that routes in the page (a plain <a href> for the keyboard and screen readers). */
export function linkProps(to: string) {
  return {
    href: BASE + to,
    onClick: (event: MouseEvent) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      navigate(to);
    },
  };
}
