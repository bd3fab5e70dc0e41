"""One parser per format, each ``parse(text) -> Parsed`` (app.services.imports.model)."""
