"""One parser per format, each ``parse(text) -> Parsed`` (app.imports.model)."""
