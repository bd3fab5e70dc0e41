import { useState } from "preact/hooks";
import { api, must } from "../api/client";
import { session } from "../api/session";
import { t } from "../i18n";
import { forgetEverything } from "../lib/db";
import { navigate } from "../lib/router";
import { Alert, Field, Heading, useAction } from "./parts";

/** Local mode's sign-in: any e-mail (POST /dev/tokens provisions the account). */
export function SignIn() {
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
