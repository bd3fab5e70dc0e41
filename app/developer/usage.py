"""Daily developer usage: ``USAGE#<yyyy-mm-dd>#<tokenId>`` rows in the owner's Users partition.

One write per request (a TransactWrite: the owner's account live, ADD Requests, and Creates / Errors when they apply), made after
the reply is built and never allowed to fail it. Reads are one key-range Query."""
from __future__ import annotations

import logging
from datetime import date, datetime, timezone
from typing import List, Optional

from botocore.exceptions import BotoCoreError
from pynamodb.exceptions import PynamoDBException

from app.errors import DomainError, Invalid
from app.core.transactions import Transaction
from models.users import Usage

log = logging.getLogger("tailspend.developer")
MAX_DAYS = 93


def record(user_id: str, token_id: str, *, name: Optional[str] = None, create: bool = False,
           error: bool = False, day: Optional[str] = None) -> None:
    """Count one request; best effort (a lost count is logged, the request already succeeded)."""
    day = day or datetime.now(timezone.utc).strftime("%Y-%m-%d")
    actions = [Usage.Requests.add(1), Usage.TokenId.set(token_id), Usage.Day.set(day),
               Usage.EntityType.set(Usage)]
    if create:
        actions.append(Usage.Creates.add(1))
    if error:
        actions.append(Usage.Errors.add(1))
    if name:
        actions.append(Usage.Name.set(Usage.Name | name))
    try:  # the row is the owner's: counted only while the account is live
        (Transaction().require_live_account(user_id)
         .update(Usage(user_id, Usage.sort_key(day, token_id)), actions).commit())
    except (DomainError, PynamoDBException, BotoCoreError):
        log.warning("usage_record_failed", extra={"token_id": token_id})


def list_usage(user_id: str, first_day: date, last_day: date) -> List[dict]:
    """Every (day, token) row in [first_day, last_day], oldest day first."""
    if last_day < first_day:
        raise Invalid("`from` must not be after `to`.", details={"from": ["After `to`."]})
    if (last_day - first_day).days >= MAX_DAYS:
        raise Invalid(f"At most {MAX_DAYS} days per request.", details={"to": ["Range too long."]})
    return [{"day": row.Day, "tokenId": row.TokenId, "name": row.Name,
             "requests": int(row.Requests or 0), "creates": int(row.Creates or 0),
             "errors": int(row.Errors or 0)}
            for row in Usage.between(user_id, first_day.isoformat(), last_day.isoformat())]
