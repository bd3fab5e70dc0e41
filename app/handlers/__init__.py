"""Lambda entry points: adapt the event, call a service, return. A handful of lines each."""
