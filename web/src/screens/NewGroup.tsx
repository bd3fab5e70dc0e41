import { useState } from "preact/hooks";
import { api, must } from "../api/client";
import { t } from "../i18n";
import { navigate } from "../lib/router";
import { Alert, Back, Field, Heading, Select, currencies, useAction } from "./parts";

export function NewGroup() {
  const [name, setName] = useState("");
  const [currency, setCurrency] = useState("EUR");
  const [error, busy, run] = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    run(async () => {
      const group = must(await api.POST("/groups", {
        body: { name: name.trim(), currency: currency as never },
        headers: { "Idempotency-Key": crypto.randomUUID() },
      }));
      navigate(`/groups/${group.groupId}/people`, true);
    });
  };
  return (
    <section>
      <Back to="/" />
      <Heading>{t("newGroup.title")}</Heading>
      <form onSubmit={submit}>
        <Field label={t("newGroup.name")} value={name} onInput={setName} required />
        <Select label={t("newGroup.currency")} value={currency} onChange={setCurrency}
                options={currencies().map((c) => [c, c])} />
        <Alert message={error} />
        <button type="submit" class="primary" disabled={busy}>{t("newGroup.submit")}</button>
      </form>
    </section>
  );
}
