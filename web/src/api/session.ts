import { Store } from "../lib/store";

// Who the app acts as: a signed-in account (a bearer token from local mode's issuer), or a
// share-link session acting as one guest of one group (api.md "Share links"). Kept in
// localStorage so a reload, or a reopen while offline, finds it.
// A hosted-UI (Cognito) session carries its refresh token and when the access token ends,
// and is kept in memory only: a reload signs in again through the hosted UI's own session.
export type UserSession = {
  kind: "user"; token: string; userId: string; refreshToken?: string | null; expiresAt?: number;
  inMemory?: boolean;
};
export type LinkSession = {
  kind: "link"; token: string; expiresAt: string; groupId: string; participantId: string;
  role: string; linkToken: string; pin?: string;
};
export type Session = UserSession | LinkSession;

const KEY = "tailspend.session";

function load(): Session | null {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "null") as Session | null;
  } catch {
    return null;
  }
}

export const session = new Store<Session | null>(load());
session.subscribe((value) => {
  if (value && !(value.kind === "user" && value.inMemory)) localStorage.setItem(KEY, JSON.stringify(value));
  else localStorage.removeItem(KEY);
});
