"""Share links: take part in one group as one guest without an account (docs/share-links.md)."""
