"""The HTTP kernel every area's views use: what a view needs (@needs), the caller and its group
access, idempotency, conditional reads, edge checks, error envelopes, the OpenAPI wiring."""
