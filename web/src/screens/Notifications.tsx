import { useState } from "preact/hooks";
import { api, must, type Schemas } from "../api/client";
import { t } from "../i18n";
import { home, refreshHome } from "../lib/groups";
import { useStore } from "../lib/store";
import { Alert, useAction, useLoad } from "./parts";

// Notification settings (api.md "Notifications"): each type on or off, and groups muted.
// Every change is sent at once (a checkbox has no Save), so each is its own small write.

// Each type has a push and an e-mail channel (api.md "E-mail and language"); this screen
// switches push, the channel a phone shows.
type Channels = { push: boolean; email: boolean };
type Type = keyof Schemas["NotificationTypes"];
type Types = Partial<Record<Type, Channels>>;
export const TYPES: Type[] = [
  "EXPENSE_ADDED", "EXPENSE_UPDATED", "EXPENSE_DELETED", "COMMENT_ADDED", "MENTION", "SETTLEMENT_ADDED",
  "REMINDER", "RECURRING_CREATED", "RECURRING_REMINDER", "JOIN_REQUEST_SUBMITTED", "JOIN_REQUEST_DECIDED",
  "GROUP_INVITATION", "FRIEND_REQUEST", "FRIEND_ACCEPTED",
];

export function NotificationSettings() {
  const [types, setTypes] = useState<Types | null>(null);
  const [muted, setMuted] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  const groups = useStore(home);
  const [error, busy, run] = useAction();
  const loadError = useLoad(async () => {
    const prefs = must(await api.GET("/notifications/preferences"));
    setTypes(prefs.types);
    setMuted(prefs.mutedGroupIds);
    await refreshHome();
  }, []);
  // The box shows the change at once (a controlled checkbox would otherwise spring back until
  // the reply); a refused change puts it back.
  const toggleType = (type: Type, on: boolean) => {
    setSaved(false);
    const before = types;
    const channels: Channels = { push: on, email: types?.[type]?.email ?? false };
    setTypes({ ...types, [type]: channels });
    run(async () => {
      try {
        setTypes(must(await api.PATCH("/notifications/preferences",
                                      { body: { types: { [type]: { push: on } } } })).types);
        setSaved(true);
      } catch (e) {
        setTypes(before);
        throw e;
      }
    });
  };
  const toggleMute = (groupId: string, mute: boolean) => {
    setSaved(false);
    const before = muted;
    setMuted(mute ? [...muted, groupId] : muted.filter((id) => id !== groupId));
    run(async () => {
      const params = { params: { path: { groupId } } };
      try {
        must(mute ? await api.PUT("/notifications/mutes/{groupId}", params)
          : await api.DELETE("/notifications/mutes/{groupId}", params));
        setSaved(true);
      } catch (e) {
        setMuted(before);
        throw e;
      }
    });
  };
  return (
    <div>
      <h2>{t("notifications.title")}</h2>
      <Alert message={error ?? loadError} />
      {types && (
        <fieldset>
          <legend>{t("notifications.types")}</legend>
          {TYPES.map((type) => (
            <Check key={type} label={t(`notifications.type.${type}` as "notifications.type.REMINDER")}
                   checked={types[type]?.push !== false} disabled={busy} onChange={(on) => toggleType(type, on)} />
          ))}
        </fieldset>
      )}
      {types && groups && groups.length > 0 && (
        <fieldset>
          <legend>{t("notifications.muted")}</legend>
          {groups.map((g) => (
            <Check key={g.groupId} label={t("notifications.mute", { name: g.name })}
                   checked={muted.includes(g.groupId)} disabled={busy} onChange={(on) => toggleMute(g.groupId, on)} />
          ))}
        </fieldset>
      )}
      {saved && <p role="status">{t("notifications.saved")}</p>}
    </div>
  );
}

function Check({ label, checked, disabled, onChange }: {
  label: string; checked: boolean; disabled: boolean; onChange: (on: boolean) => void;
}) {
  return (
    <label class="field check">
      <input type="checkbox" checked={checked} disabled={disabled}
             onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />
      {label}
    </label>
  );
}
