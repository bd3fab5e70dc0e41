"""TailSpend: group expenses on DynamoDB.

Kept import-free so Lambdas that never serve HTTP (provisioning, schedules, the stream
worker) don't pay for Flask at cold start; ``create_app`` loads the factory on first use."""


def create_app(settings=None, **options):
    """Build the Flask API (see app.factory.create_app)."""
    from app.factory import create_app as build

    return build(settings, **options)
