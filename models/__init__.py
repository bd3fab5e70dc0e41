"""PynamoDB models: one module per table; key builders and access patterns live beside each model."""
from models import (developer_tokens, groups, identities, notifications, people,  # noqa: F401
                    rate_limits, users)
from models.base import configure, connection, physical_name, registered_tables  # noqa: F401
