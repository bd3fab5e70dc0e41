// Sign-in through the Cognito hosted UI (AWS): the authorization code flow with PKCE (RFC
// 7636, S256), for a public client with no secret. The tokens are kept in memory only (never
// in storage a script could read later); the verifier and state wait in sessionStorage for
// the one redirect back, then go.

/** What the app is told at run time by /app/config.json (AWS); absent: local mode. */
export type CognitoConfig = {
  auth: "cognito";
  domain: string; // https://<prefix>.auth.<region>.amazoncognito.com
  clientId: string;
  redirectUri: string; // <origin>/app/signed-in
  scopes?: string[];
};

export type Tokens = { accessToken: string; refreshToken: string | null; expiresAt: number };

const PENDING = "tailspend.pkce";

export function base64url(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** 32 random bytes: a 43-character verifier (RFC 7636 asks 43 to 128 unreserved characters). */
export function newVerifier(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** S256: BASE64URL(SHA-256(ASCII(verifier))). */
export async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

export function authorizeUrl(config: CognitoConfig, challenge: string, state: string): string {
  const query = new URLSearchParams({
    response_type: "code", client_id: config.clientId, redirect_uri: config.redirectUri,
    scope: (config.scopes ?? ["openid", "email"]).join(" "), state,
    code_challenge: challenge, code_challenge_method: "S256",
  });
  return `${config.domain}/oauth2/authorize?${query}`;
}

/** The config from /app/config.json when it says cognito; local mode serves none (the
 * app's index comes back instead, which is not JSON). */
export async function loadConfig(): Promise<CognitoConfig | null> {
  try {
    const reply = await fetch(new URL("config.json", location.origin + "/app/"), { cache: "no-cache" });
    if (!reply.ok || !(reply.headers.get("Content-Type") ?? "").includes("json")) return null;
    const config = await reply.json() as Partial<CognitoConfig>;
    return config.auth === "cognito" && config.domain && config.clientId && config.redirectUri
      ? config as CognitoConfig : null;
  } catch {
    return null;
  }
}

/** Off to the hosted UI; the verifier and a fresh state wait for the way back. */
export async function startSignIn(config: CognitoConfig): Promise<void> {
  const verifier = newVerifier();
  const state = newVerifier();
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state }));
  location.assign(authorizeUrl(config, await challengeOf(verifier), state));
}

async function tokenRequest(config: CognitoConfig, form: Record<string, string>): Promise<Tokens> {
  const reply = await fetch(`${config.domain}/oauth2/token`, {
    method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: config.clientId, ...form }),
  });
  const body = await reply.json().catch(() => ({})) as {
    access_token?: string; refresh_token?: string; expires_in?: number; error?: string;
  };
  if (!reply.ok || !body.access_token) throw new Error(body.error ?? `HTTP ${reply.status}`);
  return { accessToken: body.access_token, refreshToken: body.refresh_token ?? form.refresh_token ?? null,
           expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 };
}

/** Back from the hosted UI with ?code&state: the state must be ours, the code is swapped
 * (with the verifier) for tokens. The pending pair is used once. */
export async function finishSignIn(config: CognitoConfig, search: string): Promise<Tokens> {
  const params = new URLSearchParams(search);
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? "null") as { verifier: string; state: string } | null;
  sessionStorage.removeItem(PENDING);
  if (params.get("error")) throw new Error(params.get("error_description") ?? params.get("error")!);
  const code = params.get("code");
  if (!pending || !code || params.get("state") !== pending.state) throw new Error("state mismatch");
  return tokenRequest(config, { grant_type: "authorization_code", code, redirect_uri: config.redirectUri,
                                code_verifier: pending.verifier });
}

/** A new access token from the refresh token (Cognito keeps the refresh token the same). */
export function refreshTokens(config: CognitoConfig, refreshToken: string): Promise<Tokens> {
  return tokenRequest(config, { grant_type: "refresh_token", refresh_token: refreshToken });
}
