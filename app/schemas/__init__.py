"""Marshmallow schemas: the HTTP shapes, with size caps. The OpenAPI document is built from them."""
