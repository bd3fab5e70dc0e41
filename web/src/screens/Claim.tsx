import { ApiError, api, apiError } from "../api/client";
import { t } from "../i18n";
import { claimable, type Claimable } from "../lib/claim";
import { refreshHome } from "../lib/groups";
import { navigate } from "../lib/router";
import { useState } from "preact/hooks";
import { Alert, describe } from "./parts";

/** The link session's token, renewed through its link when its hour is (nearly) over. */
async function sessionToken(kept: Claimable): Promise<string> {
  const { session } = kept;
  if (Date.parse(session.expiresAt) - Date.now() > 60_000) return session.token;
  const made = await api.POST("/links/session", {
    body: { token: session.linkToken, ...(session.pin ? { pin: session.pin } : {}),
            participantId: session.participantId },
  });
  if (!made.data) throw apiError(made.response.status, made.error);
  return made.data.accessToken;
}

/** Offered on home after sign-in: make the guest this person was on a share link theirs
 * (same participant, every expense still theirs). */
export function ClaimOffer({ kept }: { kept: Claimable }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const groupId = kept.session.groupId;
  const claim = async () => {
    setError(null);
    setBusy(true);
    try {
      // Not must(): a 401 here is about the link's session, not this person's sign-in.
      const reply = await api.POST("/groups/{groupId}/links/claim", {
        params: { path: { groupId } }, body: { sessionToken: await sessionToken(kept) },
      });
      if (!reply.response.ok) throw apiError(reply.response.status, reply.error);
      claimable.set(null);
      await refreshHome();
      navigate(`/groups/${groupId}`);
    } catch (e) {
      setError(refusal(e, kept));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="card" role="region" aria-labelledby="claim-title">
      <h2 id="claim-title">{t("claim.title", { name: kept.guestName })}</h2>
      <p>{t("claim.body", { name: kept.guestName, group: kept.groupName })}</p>
      <Alert message={error} />
      <button type="button" class="primary" disabled={busy} onClick={() => void claim()}>
        {t("claim.submit", { name: kept.guestName })}
      </button>
      <button type="button" disabled={busy} onClick={() => claimable.set(null)}>{t("claim.dismiss")}</button>
    </div>
  );
}

/** The claim's refusals in words (api.md "Share links"). */
function refusal(e: unknown, kept: Claimable): string {
  if (!(e instanceof ApiError)) return describe(e);
  if (e.code === "ALREADY_MEMBER") return t("claim.alreadyMember", { group: kept.groupName });
  if (e.code === "TARGET_NOT_GUEST") return t("claim.taken", { name: kept.guestName });
  if (e.code === "GROUP_ARCHIVED") return t("archived.refused");
  if (e.status === 404 || e.status === 401) return t("claim.linkGone");
  return describe(e);
}
