"""Fixed-window rate limits and the per-user daily developer budget.

Every request spends from one counter keyed by who is calling: ``USER#<userId>`` (app
sign-ins), ``PAT#<tokenId>`` (personal access tokens) or ``IP#<address>`` (requests without a
credential, and failed sign-ins), in one-minute windows of the rate-limits table. A counter is
one UpdateItem: ADD Count 1 on the condition that Count is still below the limit, so
concurrent requests can never push it past the limit (DynamoDB serialises writes to an item):
the slack is zero. ExpiresAt (unix seconds) lets TTL reap old windows.

PAT requests also spend from the owner's daily budget ``DEV#USER#<owner>`` / ``<yyyy-mm-dd>``
in the developer-tokens table (requests, and creates against a separate allowance), shared by
every PAT and MCP grant of that user. The PAT window and the budget go in one TransactWrite,
so a PAT request costs one write call for both and a refused request spends neither.

The limiter fails open only when its tables cannot be reached (the request goes ahead and we
log it). A budget write that keeps losing to concurrent writers on the owner's shared budget
row through every retry fails closed: 429 with a short Retry-After, so contention can never
buy unmetered requests.
"""
from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta, timezone
from typing import Callable, NamedTuple, Optional

from botocore.exceptions import BotoCoreError
from pynamodb.exceptions import PynamoDBException

from app.errors import Conflict, RateLimited, Unauthenticated
from app.core.transactions import Transaction
from app.core.conditional import update_if
from app.developer.quotas import WINDOW_SECONDS, Limits
from models.developer_tokens import DeveloperBudget
from models.rate_limits import (IP_SUBJECT, MCP_SUBJECT, OAUTH_SUBJECT, PAT_SUBJECT,
                                USER_SUBJECT, RateCounter)

log = logging.getLogger("tailspend.limits")
# Seconds a request refused for contention on its owner's budget row is told to wait.
CONTENDED_RETRY_AFTER = 1


class Refusal(NamedTuple):
    """Why a request was refused: the limit, and when to come back."""

    limit: Optional[int]  # None: no limit was reached (contention)
    retry_after: int
    policy: str  # "minute" | "day" | "contention"


def _error(refusal: Refusal) -> RateLimited:
    message = ("Too many requests; slow down." if refusal.policy == "minute" else
               "Too many requests at once on this account; retry shortly."
               if refusal.policy == "contention" else
               "The daily developer budget is spent; it resets at 00:00 UTC.")
    return RateLimited(message, retry_after=refusal.retry_after,
                       details={"policy": refusal.policy, "limit": refusal.limit}
                       if refusal.limit is not None else {"policy": refusal.policy})


class Limiter:
    def __init__(self, limits: Limits, *, clock: Callable[[], float] = time.time) -> None:
        self.limits = limits
        self._clock = clock

    def _window(self) -> tuple:
        now = self._clock()
        window = int(now // WINDOW_SECONDS)
        retry = max(1, int((window + 1) * WINDOW_SECONDS - now + 0.999))
        return window, retry

    def _counter_update(self, subject: str, limit: int):
        window, retry = self._window()
        row = RateCounter(RateCounter.key(subject, str(window)))
        actions = [RateCounter.Count.add(1), RateCounter.EntityType.set(RateCounter),
                   RateCounter.ExpiresAt.set((window + 2) * WINDOW_SECONDS)]
        condition = RateCounter.Count.does_not_exist() | (RateCounter.Count < limit)
        return row, actions, condition, Refusal(limit, retry, "minute")

    def spend(self, subject: str, limit: int) -> None:
        """One request against ``subject``'s window; RateLimited when it is full."""
        row, actions, condition, refusal = self._counter_update(subject, limit)
        try:
            spent = update_if(row, actions, condition)
        except (PynamoDBException, BotoCoreError):
            log.warning("rate_limiter_unavailable", extra={"subject": subject.split("#")[0]})
            return  # fail open: an unreachable limiter must not take the API down
        if not spent:
            raise _error(refusal)

    def spend_ip(self, address: str) -> None:
        """A request without a credential (or a failed sign-in) from ``address``."""
        self.spend(RateCounter.subject(IP_SUBJECT, address), self.limits.ip_per_minute)

    def spend_oauth(self, who: str) -> None:
        """An OAuth endpoint request of one client or grant (``client:<id>``, ``grant:<id>``,
        ``register:<digest>``), never of an address."""
        self.spend(RateCounter.subject(OAUTH_SUBJECT, who), self.limits.oauth_per_minute)

    def spend_user(self, user_id: str) -> None:
        """A request of an app sign-in."""
        self.spend(RateCounter.subject(USER_SUBJECT, user_id), self.limits.app_per_minute)

    def spend_mcp(self, grant_id: str, owner: str, *, create: bool) -> None:
        """An MCP tool call: the grant's window and the owner's daily budget (as for PATs)."""
        self.spend_pat(grant_id, owner, create=create, subject_prefix=MCP_SUBJECT)

    def spend_pat(self, token_id: str, owner: str, *, create: bool,
                  subject_prefix: str = PAT_SUBJECT) -> None:
        """A PAT request (or an MCP tool call, see :meth:`spend_mcp`, with the grant id):
        its credential's window and the owner's daily budget, in one write."""
        row, actions, condition, refusal = self._counter_update(
            RateCounter.subject(subject_prefix, token_id), self.limits.pat_per_minute)
        now = datetime.fromtimestamp(self._clock(), timezone.utc)
        day = now.strftime("%Y-%m-%d")
        tomorrow = (now + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
        until_tomorrow = max(1, int((tomorrow - now).total_seconds() + 0.999))
        budget_actions = [DeveloperBudget.Requests.add(1),
                          DeveloperBudget.EntityType.set(DeveloperBudget),
                          DeveloperBudget.ExpiresAt.set(int(tomorrow.timestamp()) + 3 * 86400)]
        budget_condition = (DeveloperBudget.Requests.does_not_exist()
                            | (DeveloperBudget.Requests < self.limits.daily_requests))
        budget_refusal = Refusal(self.limits.daily_requests, until_tomorrow, "day")
        if create:
            budget_actions.append(DeveloperBudget.Creates.add(1))
            budget_condition &= (DeveloperBudget.Creates.does_not_exist()
                                 | (DeveloperBudget.Creates < self.limits.daily_creates))
        try:
            (Transaction()
             .require_live_account(owner)  # the budget row is the owner's: none once deleted
             .update(row, actions, condition=condition, on_fail=_error(refusal))
             .update(DeveloperBudget(*DeveloperBudget.key(owner, day)), budget_actions,
                     condition=budget_condition, on_fail=_error(budget_refusal))
             .commit())
        except (RateLimited, Unauthenticated):
            raise
        except Conflict:
            # Writers kept colliding on the owner's budget row through every retry: the
            # budget could not be checked, so the request is refused (never let through
            # unmetered); the client comes back in a moment.
            log.warning("developer_budget_contended", extra={"subject": subject_prefix})
            raise _error(Refusal(None, CONTENDED_RETRY_AFTER, "contention")) from None
        except (PynamoDBException, BotoCoreError):  # the tables cannot be reached at all
            log.warning("rate_limiter_unavailable", extra={"subject": subject_prefix})
