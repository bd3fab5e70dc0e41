import { useState } from "preact/hooks";
import { api, must } from "../api/client";
import { LOCALES, LOCALE_NAMES, chosenLocale, setLocale, t, type Locale } from "../i18n";
import { NotificationSettings } from "./Notifications";
import { Alert, Field, Heading, Select, useAction, useLoad } from "./parts";

export function Settings() {
  const [language, setLanguage] = useState<string>(chosenLocale() ?? "");
  const [iban, setIban] = useState("");
  const [holder, setHolder] = useState("");
  const [paypal, setPaypal] = useState("");
  const [saved, setSaved] = useState(false);
  const [error, busy, run] = useAction();
  const loadError = useLoad(async () => {
    const reply = must(await api.GET("/users/me/payment-methods"));
    for (const method of reply.methods) {
      if (method.type === "SEPA") {
        setIban(method.iban ?? "");
        setHolder(method.name ?? "");
      }
      if (method.type === "PAYPAL") setPaypal(method.handle ?? "");
    }
  }, []);
  const chooseLanguage = (value: string) => {
    setLanguage(value);
    run(() => setLocale((value || null) as Locale | null));
  };
  const save = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    run(async () => {
      const methods = [
        ...(iban.trim() ? [{ type: "SEPA" as const, iban: iban.trim(), name: holder.trim() }] : []),
        ...(paypal.trim() ? [{ type: "PAYPAL" as const, handle: paypal.trim() }] : []),
      ];
      must(await api.PUT("/users/me/payment-methods", { body: { methods } }));
      setSaved(true);
    });
  };
  return (
    <section>
      <Heading>{t("settings.title")}</Heading>
      <Select label={t("settings.language")} value={language} onChange={chooseLanguage}
              options={[["", t("settings.languageAuto")], ...LOCALES.map((l): [string, string] => [l, LOCALE_NAMES[l]])]} />
      <h2>{t("settings.payment")}</h2>
      <form onSubmit={save}>
        <Field label={t("settings.iban")} value={iban} onInput={setIban} autoComplete="off" />
        <Field label={t("settings.holder")} value={holder} onInput={setHolder} autoComplete="name" />
        <Field label={t("settings.paypal")} value={paypal} onInput={setPaypal} autoComplete="off" />
        <Alert message={error ?? loadError} />
        {saved && <p role="status">{t("settings.saved")}</p>}
        <button type="submit" class="primary" disabled={busy}>{t("settings.save")}</button>
      </form>
      <NotificationSettings />
    </section>
  );
}
