import { api, must } from "../api/client";
import { session } from "../api/session";
import { forgetEverything } from "./db";
import { type CognitoConfig, finishSignIn, refreshTokens, type Tokens } from "./pkce";
import { Store } from "./store";

/** The hosted UI's config when the app runs in AWS; null in local mode (e-mail sign-in). */
export const authConfig = new Store<CognitoConfig | null>(null);

async function signedIn(tokens: Tokens, userId?: string): Promise<void> {
  const base = { kind: "user" as const, token: tokens.accessToken, refreshToken: tokens.refreshToken,
                 expiresAt: tokens.expiresAt, inMemory: true };
  if (userId) {
    session.set({ ...base, userId });
    return;
  }
  session.set({ ...base, userId: "" }); // the token first: /users/me needs it
  const me = must(await api.GET("/users/me"));
  session.set({ ...base, userId: me.userId });
}

/** /app/signed-in?code&state: the code becomes tokens; nothing of a previous person stays. */
export async function completeSignIn(search: string): Promise<void> {
  const config = authConfig.get();
  if (!config) throw new Error("no hosted sign-in configured");
  const tokens = await finishSignIn(config, search);
  await forgetEverything();
  await signedIn(tokens);
}

/** A minute before the access token ends, the refresh token gets a new one. */
export async function renewTokens(): Promise<void> {
  const config = authConfig.get();
  const current = session.get();
  if (!config || current?.kind !== "user" || !current.refreshToken) return;
  await signedIn(await refreshTokens(config, current.refreshToken), current.userId);
}
