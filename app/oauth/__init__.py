"""The MCP connector's OAuth 2.1 authorization server: clients, the grant chain, tokens."""
