import { useEffect, useState } from "preact/hooks";
import { api, must, ApiError, type Schemas } from "../api/client";
import { session } from "../api/session";
import { t } from "../i18n";
import { forgetEverything } from "../lib/db";
import { forgetGroups } from "../lib/groups";
import { navigate } from "../lib/router";
import { Alert, Field, Heading, describe, useAction } from "./parts";

// A share link, <origin>/app/join#<token>: the token rides in the fragment, which no
// request carries, and leaves the address bar as soon as the page has read it.
const token = { value: "" };

export async function openSession(linkToken: string, pin: string | undefined,
                                  choice: { participantId?: string; displayName?: string }) {
  const made = must(await api.POST("/links/session", { body: { token: linkToken, ...(pin ? { pin } : {}), ...choice } }));
  session.set({ kind: "link", token: made.accessToken, expiresAt: made.expiresAt, groupId: made.groupId,
                participantId: made.participantId, role: made.role, linkToken, pin });
  return made;
}

export function Join() {
  const [opened, setOpened] = useState<Schemas["LinkOpened"] | null>(null);
  const [pin, setPin] = useState("");
  const [guest, setGuest] = useState("");
  const [newName, setNewName] = useState("");
  const [invalid, setInvalid] = useState(false);
  const [error, busy, run] = useAction();

  const open = (withPin?: string) => run(async () => {
    try {
      const reply = must(await api.POST("/links/open", { body: { token: token.value, ...(withPin ? { pin: withPin } : {}) } }));
      setOpened(reply);
      if (reply.participantId) setGuest(reply.participantId);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) setInvalid(true);
      else throw e;
    }
  });

  useEffect(() => {
    if (location.hash.length > 1) {
      token.value = decodeURIComponent(location.hash.slice(1));
      history.replaceState(null, "", location.pathname);
    }
    if (token.value) open();
    else setInvalid(true);
  }, []);

  const join = (event: Event) => {
    event.preventDefault();
    if (opened?.pinRequired && !opened.guests) return open(pin);
    run(async () => {
      if (session.get()?.kind !== "link") {
        await forgetEverything(); // a guest session starts with nothing of an account here
        forgetGroups();
      }
      const choice = guest ? { participantId: guest } : { displayName: newName.trim() };
      const made = await openSession(token.value, pin || undefined, choice);
      navigate(`/groups/${made.groupId}`, true);
    });
  };

  if (invalid) return <section><Heading>{t("join.title", { name: "TailSpend" })}</Heading><p role="alert">{t("join.invalid")}</p></section>;
  if (!opened) return <section><Heading>{t("join.opening")}</Heading><Alert message={error} /></section>;
  const guests = opened.guests ?? [];
  return (
    <section>
      <Heading>{t("join.title", { name: opened.name ?? "TailSpend" })}</Heading>
      <form onSubmit={join}>
        {opened.pinRequired && <Field label={t("join.pin")} value={pin} onInput={setPin} inputMode="numeric" required />}
        {guests.length > 0 && (
          <fieldset>
            <legend>{t("join.who")}</legend>
            {guests.map((g) => (
              <div class="person" key={g.participantId}>
                <input type="radio" name="guest" id={`guest-${g.participantId}`} value={g.participantId}
                       checked={guest === g.participantId} onChange={() => setGuest(g.participantId)} />
                <label for={`guest-${g.participantId}`}>{g.displayName}</label>
              </div>
            ))}
          </fieldset>
        )}
        {opened.role === "MEMBER" && !opened.participantId && (
          <Field label={t("join.newName")} value={newName}
                 onInput={(v) => { setNewName(v); if (v) setGuest(""); }} />
        )}
        <Alert message={error} />
        <button type="submit" class="primary" disabled={busy || (!guest && !newName.trim() && !opened.pinRequired)}>
          {t("join.submit")}
        </button>
      </form>
    </section>
  );
}

/** Renew a link session before its hour ends (the link itself is the credential). */
export async function renewLinkSession(): Promise<void> {
  const current = session.get();
  if (current?.kind !== "link") return;
  try {
    await openSession(current.linkToken, current.pin, { participantId: current.participantId });
  } catch (e) {
    throw new Error(describe(e));
  }
}
