"""Notifications: /notifications (history, read marks, preferences, mutes, devices)."""
from __future__ import annotations

from app.api.context import principal, scope, settings
from app.api.needs import needs
from app.api.spec import NOT_FOUND, Blueprint, errors
from app.api.schemas import PageArgsSchema
from app.notifications.schemas import (DeviceCreateSchema, DeviceSchema, MarkReadSchema,
                                       NotificationPageSchema, PreferencesPatchSchema,
                                       PreferencesSchema, UnreadSchema,
                                       UnsubscribeArgsSchema, UnsubscribeSchema,
                                       WebPushKeySchema)
from app.notifications import devices, history, preferences, unsubscribe as one_click, vapid

blp = Blueprint("notifications", __name__, description="Notifications")


@blp.route("/notifications")
@needs()
@blp.arguments(PageArgsSchema, location="query")
@blp.response(200, NotificationPageSchema)
def list_notifications(args):
    """The caller's history, newest first, with the unread count."""
    return history.list_history(principal().user_id, limit=args["limit"], cursor=args["cursor"],
                                scope=scope("notifications"))


@blp.route("/notifications/read", methods=["POST"])
@needs()
@blp.arguments(MarkReadSchema)
@blp.response(200, UnreadSchema)
def mark_read(body):
    """Mark the given ids (unknown ones are skipped) or everything read."""
    return history.mark_read(principal().user_id, ids=body.get("ids"),
                             everything=bool(body.get("all")))


@blp.route("/notifications/preferences")
@needs()
@blp.response(200, PreferencesSchema)
def get_preferences():
    """Per-type switches (absent means on) and muted groups."""
    return preferences.get_preferences(principal().user_id)


@blp.route("/notifications/preferences", methods=["PATCH"])
@needs()
@blp.arguments(PreferencesPatchSchema)
@blp.response(200, PreferencesSchema)
@errors(blp, (404, "A muted group the caller is not a participant of."))
def patch_preferences(body):
    """Set switches; ``mutedGroupIds`` is reached by atomic ADD/DELETE of single ids."""
    return preferences.update_preferences(principal().user_id, types=body.get("types"),
                                          muted_group_ids=body.get("mutedGroupIds"),
                                          digest=body.get("digest"))


@blp.route("/notifications/mutes/<uuid:groupId>", methods=["PUT"])
@needs()
@blp.response(204)
@errors(blp, NOT_FOUND)
def mute(group_id):
    """Mute one group (atomic ADD to the set)."""
    preferences.mute(principal().user_id, str(group_id))


@blp.route("/notifications/mutes/<uuid:groupId>", methods=["DELETE"])
@needs()
@blp.response(204)
def unmute(group_id):
    """Unmute one group (atomic DELETE from the set); works after leaving the group too."""
    preferences.unmute(principal().user_id, str(group_id))


@blp.route("/notifications/devices", methods=["POST"])
@needs(idempotent=True)
@blp.arguments(DeviceCreateSchema)
@blp.response(201, DeviceSchema)
@errors(blp, (409, "IDEMPOTENCY_IN_PROGRESS or CONCURRENT_UPDATE."),
        (422, "IDEMPOTENCY_KEY_REUSED: the key was used with another body."))
def register_device(body):
    """Register a push token (one device per token; re-registering moves it to the caller)."""
    return devices.register_device(principal().user_id, body["platform"], body["token"],
                                   allow_http=settings().local_mode)


@blp.route("/notifications/web-push-key")
@needs()
@blp.response(200, WebPushKeySchema)
@errors(blp, (404, "WEB_PUSH_DISABLED: this deployment sends no Web Push."))
def web_push_key():
    """The VAPID public key a page passes to ``pushManager.subscribe`` as
    ``applicationServerKey`` before registering the subscription as a WEB device."""
    return {"publicKey": vapid.require_public_key()}


@blp.route("/notifications/devices/<uuid:deviceId>", methods=["DELETE"])
@needs()
@blp.response(204)
@errors(blp, (404, "No such device of the caller."))
def unregister_device(device_id):
    """Stop pushing to a device."""
    devices.unregister_device(principal().user_id, str(device_id))


@blp.route("/unsubscribe", methods=["POST"])
@needs(public=True, form_body=True)
@blp.arguments(UnsubscribeArgsSchema, location="query")
@blp.response(200, UnsubscribeSchema)
@blp.doc(security=[])
@errors(blp, (400, "VALIDATION_ERROR: a token this service did not issue."))
def unsubscribe(args):
    """RFC 8058 one-click unsubscribe (body ``List-Unsubscribe=One-Click``, no sign-in): the
    e-mail channel of the token's type off for its recipient (an invitation's token: no
    more invitations to that address). A GET of the link changes
    nothing (no such route)."""
    one_click.unsubscribe(args["token"])
    return {"unsubscribed": True}
