"""Maintenance: prune decided (approved, denied, cancelled) join requests after 90 days.

Decided requests have left both pending indexes, so a bounded, resumable walk
(core.sweeps) finds them; a decided request never becomes PENDING again, so deleting what
the filter matched is safe without a condition. The applicant's lock row is left alone;
the applicant's pointer to the request (see models.users.JoinRequestPointer) goes with it."""
from __future__ import annotations

from app.core.clock import iso_in
from app.core.sweeps import scan_pages
from models.groups import GroupItem, JoinRequest
from models.users import JoinRequestPointer, UserItem

SWEEP = "decided-join-requests"
RETENTION_SECONDS = 90 * 24 * 3600
DECIDED = ("APPROVED", "DENIED", "CANCELLED")


def prune_decided_join_requests(*, max_pages: int = 5, page_size: int = 500) -> dict:
    cutoff, pruned = iso_in(-RETENTION_SECONDS), 0
    old_and_decided = ((GroupItem.EntityType == JoinRequest) & JoinRequest.Status.is_in(*DECIDED)
                       & (GroupItem.UpdatedAt < cutoff))
    for items in scan_pages(GroupItem, SWEEP, filter_condition=old_and_decided,
                            attributes=["GroupId", "SK", "ApplicantUserId", "RequestId"],
                            page_size=page_size, max_pages=max_pages):
        keys = [(item["GroupId"]["S"], item["SK"]["S"]) for item in items]
        GroupItem.raw_batch_delete(keys)
        # The applicant's pointer to it goes too (the request first: a crash leaves a
        # pointer to nothing, which account deletion skips, never a request without one).
        UserItem.raw_batch_delete([
            (item["ApplicantUserId"]["S"],
             JoinRequestPointer.sort_key(item["GroupId"]["S"], item["RequestId"]["S"]))
            for item in items if "ApplicantUserId" in item and "RequestId" in item])
        pruned += len(keys)
    return {"joinRequestsPruned": pruned}
