"""HTTP layer: blueprints parse and validate, call one service function, shape the reply."""
