"""The shared kernel every area uses: transactions and their guards, access, paging, idempotency,
the outbox, the change log, cascades, the hand-off to workers. It imports no area."""
