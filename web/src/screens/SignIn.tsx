import { useEffect, useState } from "preact/hooks";
import { api, must } from "../api/client";
import { session } from "../api/session";
import { t } from "../i18n";
import { forgetEverything } from "../lib/db";
import { authConfig, completeSignIn } from "../lib/auth";
import { type CognitoConfig, startSignIn } from "../lib/pkce";
import { linkProps, navigate } from "../lib/router";
import { useStore } from "../lib/store";
import { Alert, Field, Heading, useAction } from "./parts";

/** AWS: the Cognito hosted UI (PKCE); local mode: any e-mail. */
export function SignIn() {
  const config = useStore(authConfig);
  return config ? <HostedSignIn config={config} /> : <LocalSignIn />;
}

function HostedSignIn({ config }: { config: CognitoConfig }) {
  const [error, busy, run] = useAction();
  return (
    <section>
      <Heading>{t("signIn.title")}</Heading>
      <p>{t("signIn.hostedIntro")}</p>
      <Alert message={error} />
      <button type="button" class="primary" disabled={busy} onClick={() => run(() => startSignIn(config))}>
        {t("signIn.submit")}
      </button>
    </section>
  );
}

/** Back from the hosted UI: the code is swapped for tokens, then home. */
export function SignedIn() {
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    const search = location.search;
    history.replaceState(null, "", location.pathname); // the code leaves the address bar
    completeSignIn(search).then(() => navigate("/", true))
      .catch((e) => setFailed(t("signIn.failed", { message: String((e as Error)?.message ?? e) })));
  }, []);
  return (
    <section>
      <Heading>{t("signIn.title")}</Heading>
      {failed ? <><Alert message={failed} /><a {...linkProps("/")}>{t("signIn.again")}</a></>
        : <p role="status">{t("common.loading")}</p>}
    </section>
  );
}

/** Local mode's sign-in: any e-mail (POST /dev/tokens provisions the account). */
function LocalSignIn() {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [error, busy, run] = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    run(async () => {
      const issued = must(await api.POST("/dev/tokens", {
        body: { email, ...(name.trim() ? { displayName: name.trim() } : {}) },
      }));
      await forgetEverything(); // nothing of a previous person stays on this device
      session.set({ kind: "user", token: issued.accessToken, userId: issued.userId });
      navigate("/", true);
    });
  };
  return (
    <section>
      <Heading>{t("signIn.title")}</Heading>
      <p>{t("signIn.intro")}</p>
      <form onSubmit={submit}>
        <Field label={t("signIn.email")} type="email" value={email} onInput={setEmail}
               required autoComplete="email" />
        <Field label={t("signIn.name")} value={name} onInput={setName} autoComplete="name" />
        <Alert message={error} />
        <button type="submit" class="primary" disabled={busy}>{t("signIn.submit")}</button>
      </form>
    </section>
  );
}
