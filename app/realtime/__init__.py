"""Live updates (docs/realtime.md): the short-lived subscribe token, channel authorization,
the pokes a committed change publishes, and the publisher's transports."""
