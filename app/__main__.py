"""Command line: ``python -m app serve | db | token EMAIL | tick``."""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import urllib.error
import urllib.request


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m app", description="TailSpend local mode")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="embedded DynamoDB + the API on one machine")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=3000)
    db = sub.add_parser("db", help="only the embedded DynamoDB endpoint (for sam local)")
    db.add_argument("--host", default="127.0.0.1",
                    help="0.0.0.0 lets sam local's containers reach it")
    token = sub.add_parser("token", help="mint a local access token for an e-mail")
    token.add_argument("email")
    token.add_argument("--admin", action="store_true")
    token.add_argument("--name", default=None)
    tick = sub.add_parser("tick", help="run the hourly tick once")
    for command in (serve, db, token, tick):
        command.add_argument("--db-port", type=int, default=8000)
        command.add_argument("--data-dir", default=os.environ.get("TAILSPEND_DATA_DIR",
                                                                  ".tailspend"))
        command.add_argument("--stage", default=os.environ.get("TAILSPEND_STAGE", "dev"))
    return parser


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "local")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local")
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    os.environ["TAILSPEND_LOCAL"] = "1"
    os.environ["TAILSPEND_STAGE"] = args.stage
    os.environ["TAILSPEND_DATA_DIR"] = args.data_dir
    return {"serve": serve, "db": db_only, "token": token, "tick": tick}[args.command](args)


def _start_db(args, *, reuse_running: bool, host: str = "127.0.0.1"):
    """Use DYNAMODB_ENDPOINT, or a running local endpoint, or start the embedded one."""
    from app.local.dynamodb import EmbeddedDynamoDB

    external = os.environ.get("DYNAMODB_ENDPOINT")
    if external:
        return external, None
    local = f"http://127.0.0.1:{args.db_port}"
    if reuse_running and _answers(local):
        return local, None
    server = EmbeddedDynamoDB(host=host, port=args.db_port if not reuse_running else 0,
                              stage=args.stage,
                              data_dir=args.data_dir,
                              snapshot_seconds=float(os.environ.get("TAILSPEND_SNAPSHOT_SECONDS",
                                                                    "10"))).start()
    os.environ["DYNAMODB_ENDPOINT"] = server.endpoint
    return server.endpoint, server


def _answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=0.5)  # noqa: S310 — loopback only
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


def _wait_for_signal(cleanup) -> None:
    done = threading.Event()

    def stop(signum, frame):  # noqa: ARG001
        done.set()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    done.wait()
    cleanup()


def serve(args) -> int:
    from werkzeug.serving import make_server

    from app import create_app
    from app.local.triggers import Scheduler, run_hourly_tick, run_maintenance

    endpoint, db = _start_db(args, reuse_running=False)
    os.environ["DYNAMODB_ENDPOINT"] = endpoint
    app = create_app()
    http = make_server(args.host, args.port, app, threaded=True)
    scheduler = Scheduler()
    scheduler.every(3600, run_hourly_tick, "hourly-tick")
    scheduler.every(24 * 3600, run_maintenance, "maintenance")
    threading.Thread(target=http.serve_forever, daemon=True).start()
    print(f"TailSpend API on http://{args.host}:{args.port} (DynamoDB {endpoint}, data in "
          f"{args.data_dir}). Mint a token: curl -s -X POST http://{args.host}:{args.port}"
          f"/dev/tokens -H 'Content-Type: application/json' -d '{{\"email\":\"you@example.com\"}}'",
          flush=True)

    def cleanup() -> None:
        scheduler.stop()
        http.shutdown()
        if db:
            db.stop()
        print("Stopped; data saved.", flush=True)

    _wait_for_signal(cleanup)
    return 0


def db_only(args) -> int:
    endpoint, db = _start_db(args, reuse_running=False, host=args.host)
    print(f"Embedded DynamoDB on {endpoint} (data in {args.data_dir})", flush=True)
    _wait_for_signal(lambda: db and db.stop())
    return 0


def token(args) -> int:
    from app.auth.local_issuer import LocalIssuer
    from app.config import Settings
    from app.services.users.local_auth import mint_token
    import models

    endpoint, db = _start_db(args, reuse_running=True)
    settings = Settings.from_env(dynamodb_endpoint=endpoint)
    models.configure(stage=settings.stage, region=settings.region, host=endpoint)
    try:
        issued = mint_token(LocalIssuer(settings.data_dir, settings.issuer, settings.client_id),
                            email=args.email, display_name=args.name, admin=args.admin,
                            test_domain=settings.test_account_domain)
    finally:
        if db:
            db.stop()
    print(issued["accessToken"])
    print(f"userId {issued['userId']}", file=sys.stderr)
    return 0


def tick(args) -> int:
    import json

    endpoint, db = _start_db(args, reuse_running=True)
    try:
        from app.local.triggers import run_hourly_tick
        print(json.dumps(run_hourly_tick()))
    finally:
        if db:
            db.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
