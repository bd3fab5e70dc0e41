"""Where a user wants to be paid: one PAYMENT_METHODS row in the user's own partition.

In the user partition, so account deletion's partition sweep (and its late re-sweep)
removes it with everything else of the account."""
from __future__ import annotations

from typing import Dict, Iterable, List

from pynamodb.attributes import ListAttribute, MapAttribute, UnicodeAttribute

from models.users import UserItem

PAYMENT_METHODS = "PAYMENT_METHODS"


class MethodMap(MapAttribute):
    Type = UnicodeAttribute()
    Handle = UnicodeAttribute(null=True)
    Iban = UnicodeAttribute(null=True)
    Name = UnicodeAttribute(null=True)


class PaymentMethods(UserItem, discriminator="PAYMENT_METHODS"):
    Methods = ListAttribute(of=MethodMap, default=list)

    @staticmethod
    def key(user_id: str) -> tuple:
        return user_id, PAYMENT_METHODS

    @classmethod
    def of_users(cls, user_ids: Iterable[str]) -> Dict[str, List[dict]]:
        """userId -> [{Type, Handle?, Iban?, Name?}] for those who stored any: one
        BatchGetItem per 100 users (raw, so no model per row)."""
        found = cls.raw_batch_get([cls.key(uid) for uid in user_ids])
        return {user_id: cls.entries_of(item) for (user_id, _), item in found.items()}

    @staticmethod
    def entries_of(raw_item: dict) -> List[dict]:
        """[{Type, Handle?, Iban?, Name?}] of one raw PAYMENT_METHODS item."""
        methods = []
        for entry in raw_item.get("Methods", {}).get("L", []):
            fields = entry.get("M", {})
            methods.append({name: value["S"] for name, value in fields.items() if "S" in value})
        return methods
