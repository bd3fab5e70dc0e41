"""Developer platform: personal access tokens, scopes, usage, daily budgets and rate limits."""
