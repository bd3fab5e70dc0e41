"""Local mode: an embedded DynamoDB endpoint, tables built from template.yaml, a local token issuer."""
