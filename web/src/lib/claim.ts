import { session, type LinkSession } from "../api/session";
import { forgetEverything } from "./db";
import { forgetGroups } from "./groups";
import { navigate } from "./router";
import { Store } from "./store";

// A guest who took part through a share link and then signs in may claim that guest into
// their account (api.md "Share links": POST /groups/{groupId}/links/claim with the link
// session's token). The link session is kept aside here while they sign in.
export type Claimable = { session: LinkSession; groupName: string; guestName: string };

const KEY = "tailspend.claimable";

function load(): Claimable | null {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "null") as Claimable | null;
  } catch {
    return null;
  }
}

export const claimable = new Store<Claimable | null>(load());
claimable.subscribe((value) => {
  if (value) localStorage.setItem(KEY, JSON.stringify(value));
  else localStorage.removeItem(KEY);
});

/** From a share-link session to the sign-in screen, keeping the guest to claim afterwards. */
export async function signInToKeep(groupName: string, guestName: string): Promise<void> {
  const current = session.get();
  if (current?.kind !== "link") return;
  claimable.set({ session: current, groupName, guestName });
  session.set(null);
  forgetGroups();
  await forgetEverything();
  navigate("/", true);
}
