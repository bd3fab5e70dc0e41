"""Command line: ``python -m app serve | db | token EMAIL | tick | backfill-projection |
openapi``."""
from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import threading
import time
import urllib.parse
import urllib.request


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m app", description="TailSpend local mode")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="embedded DynamoDB + the API on one machine")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=3000)
    serve.add_argument("--smtp-port", type=int, default=0,
                       help="the embedded SMTP server's port (0: a free one, printed)")
    serve.add_argument("--realtime-port", type=int, default=None,
                       help="the live-updates WebSocket server (default: --port + 1, or any "
                            "free port when that one is taken; 0 picks one)")
    db = sub.add_parser("db", help="only the embedded DynamoDB endpoint (for sam local)")
    db.add_argument("--host", default="127.0.0.1",
                    help="0.0.0.0 lets sam local's containers reach it")
    token = sub.add_parser("token", help="mint a local access token for an e-mail")
    token.add_argument("email")
    token.add_argument("--admin", action="store_true")
    token.add_argument("--name", default=None)
    tick = sub.add_parser("tick", help="run the hourly tick once")
    tick.add_argument("--now", default=None,
                      help="ISO instant to run the tick as of (default: the current time)")
    digests = sub.add_parser("digests", help="send the e-mail digests of the periods ended "
                             "(daily: yesterday, UTC; weekly: last ISO week) once")
    digests.add_argument("--now", default=None,
                         help="ISO instant to send as of (default: the current time)")
    backfill = sub.add_parser(
        "backfill-projection",
        help="fill the cross-group projection from every group's rows (once, after a deploy "
             "that adds or rekeys it; idempotent, resumable: docs/deploy.md)")
    backfill.add_argument("--cursor", default=None,
                          help="resume after the cursor a stopped run printed (JSON)")
    openapi = sub.add_parser("openapi", help="write local mode's OpenAPI document (the web "
                             "app's types are generated from it) without a server or database")
    openapi.add_argument("--out", default="-", help="a file (default: stdout)")
    for command in (serve, db, token, tick, digests, backfill, openapi):
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
    # CloudWatch EMF lines would land on stdout among the commands' own output.
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ["TAILSPEND_STAGE"] = args.stage
    os.environ["TAILSPEND_DATA_DIR"] = args.data_dir
    return {"serve": serve, "db": db_only, "token": token, "tick": tick, "digests": digests,
            "backfill-projection": backfill_projection,
            "openapi": openapi_document}[args.command](args)


def _start_db(args, *, host: str = "127.0.0.1", port=None):
    """Use DYNAMODB_ENDPOINT, or start the embedded endpoint on this data dir."""
    from app.local.dynamodb import EmbeddedDynamoDB

    external = os.environ.get("DYNAMODB_ENDPOINT")
    if external:
        return external, None
    from app.config import Settings

    settings = Settings.from_env()
    server = EmbeddedDynamoDB(host=host, port=args.db_port if port is None else port, stage=args.stage,
                              data_dir=args.data_dir,
                              snapshot_seconds=settings.local_snapshot_seconds,
                              compact_bytes=settings.local_compact_bytes).start()
    os.environ["DYNAMODB_ENDPOINT"] = server.endpoint
    return server.endpoint, server


def _answers(url: str) -> bool:
    """Something listens there. A TCP connect, not an HTTP round trip: a busy embedded
    database can take longer than any short read timeout to reply, and mistaking it for
    nothing would let a one-shot command open a second database (a load-dependent flake)."""
    parts = urllib.parse.urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=5):
            return True
    except OSError:
        return False


class Refused(Exception):
    """What a command will not do, said in one line (a one-shot command that must not guess
    which database to write to; a port the user asked for that is taken)."""


def _running_server(args):
    """The live server recorded for this data dir, or None when none runs and none could.

    Refuses when the data dir's server is not running but something answers on --db-port:
    that endpoint serves some other data dir, and a token minted there (signed with this data
    dir's key) or a tick run there would land in the wrong database."""
    from app.local import server_info

    if os.environ.get("DYNAMODB_ENDPOINT"):
        return None
    info = server_info.read(args.data_dir)
    if info and server_info.alive(info):
        return info
    elsewhere = f"http://127.0.0.1:{args.db_port}"
    if args.db_port and _answers(elsewhere):
        recorded = (f"the server recorded in {args.data_dir}/server.json (pid {info['pid']}) "
                    "is not running" if info else f"no server is running on {args.data_dir}")
        raise Refused(f"{recorded}, but {elsewhere} answers: it serves another data dir. "
                      "Pass that server's --data-dir, or stop it.")
    return None


def _wait_for_signal(cleanup) -> None:
    """Block until SIGINT/SIGTERM, clean up, then leave at once.

    os._exit: after the data is saved nothing is left to do, and a normal interpreter exit
    waited on whatever request threads were still busy and on freeing the whole heap. A second
    signal during cleanup ends the process too (the journal already holds every write)."""
    done = threading.Event()

    def stop(signum, frame):
        if done.is_set():
            os._exit(1)
        done.set()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not done.wait(1.0):  # a timed wait keeps the main thread responsive to signals
        pass
    code = 0
    try:
        cleanup()
    except BaseException:  # noqa: BLE001 — report, but still exit
        import traceback

        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def serve(args) -> int:
    from werkzeug.serving import make_server

    from app import create_app
    from app.local import server_info, vapid_key
    from app.local.stream_poller import start_notifications_poller, start_projection_poller
    from app.local.triggers import (Scheduler, install_local_workers,
                                    run_account_deletion_resume, run_chat_reconcile,
                                    run_digests, run_hourly_tick, run_maintenance,
                                    run_outbox_sweep,
                                    run_receipt_reconcile)

    endpoint, db = _start_db(args)
    os.environ["DYNAMODB_ENDPOINT"] = endpoint
    if db:  # the app's table calls reach it without a socket (app/local/in_process.py)
        from app.local.in_process import serve_in_process
        serve_in_process(db)
    # Receipts: the embedded server is moto's, which serves S3 on the same endpoint.
    os.environ.setdefault("S3_ENDPOINT", endpoint)
    # Real Web Push from a laptop: a key kept with the data, so subscriptions survive restarts.
    os.environ.setdefault("VAPID_PRIVATE_KEY", vapid_key.load_or_create(args.data_dir))
    smtp = _start_smtp(args)
    app = create_app()
    _ensure_receipts_bucket()
    http = make_server(args.host, args.port, app, threaded=True)
    port = http.server_port
    _install_mail_origin(f"http://{args.host}:{port}")
    try:
        realtime = _realtime_server(args, port)
    except Refused as refusal:
        http.server_close()
        smtp.stop()
        if db:
            db.stop()
        print(f"serve: {refusal}", file=sys.stderr, flush=True)
        return 2
    scheduler = Scheduler()
    scheduler.on_the_hour(run_hourly_tick, "hourly-tick")
    scheduler.every(24 * 3600, run_maintenance, "maintenance")
    scheduler.every(300, run_outbox_sweep, "outbox-sweep")
    scheduler.on_the_hour(run_digests, "digests")  # done periods cost one read a run
    # Work a request hands on after answering 202 (the rest of an account deletion, an
    # import, a chat message, a receipt's ingest or scan) runs on its worker's handler, here
    # on a thread.
    install_local_workers()
    scheduler.every(300, run_account_deletion_resume, "account-deletion-resume")
    scheduler.every(300, run_chat_reconcile, "chat-reconcile")
    scheduler.every(300, run_receipt_reconcile, "receipt-reconcile")
    poller = start_notifications_poller(endpoint)
    realtime_pollers = _start_realtime(realtime, endpoint)
    # The cross-group projection (/users/me/expenses, /users/me/stats) follows the same stream.
    projection_poller = start_projection_poller(endpoint)
    # Recorded before the first request is answered: whoever sees /health answer finds the
    # server.json of this process (the socket already listens; connections wait in its queue).
    server_info.write(args.data_dir, pid=os.getpid(), host=args.host, api_port=port,
                      db_port=db.port if db else None, smtp_url=os.environ.get("SMTP_URL"))
    threading.Thread(target=http.serve_forever, daemon=True).start()
    print(f"TailSpend API on http://{args.host}:{port} (DynamoDB {endpoint}, data in "
          f"{args.data_dir}). Mint a token: curl -s -X POST http://{args.host}:{port}"
          f"/dev/tokens -H 'Content-Type: application/json' -d '{{\"email\":\"you@example.com\"}}'",
          flush=True)
    # Said once everything listens: a refused port above leaves stdout empty.
    print(f"Mail (SMTP) on {smtp.url}; read it at /dev/mail", flush=True)

    def cleanup() -> None:
        steps = [("scheduler", scheduler.stop), ("smtp", smtp.stop),
                 ("notifications poller", poller.stop),
                 ("projection poller", projection_poller.stop),
                 *[(f"realtime poller {n}", each.stop) for n, each in enumerate(realtime_pollers)],
                 ("realtime server", realtime.stop), ("http", http.shutdown),
                 ("http socket", http.server_close), *([("dynamodb", db.stop)] if db else [])]
        for name, stop in steps:
            started = time.monotonic()
            stop()
            took = time.monotonic() - started
            if took > 1:  # a slow stop names what held it
                print(f"serve: stopping the {name} took {took:.1f} s", file=sys.stderr, flush=True)
        server_info.remove(args.data_dir, os.getpid())
        print("Stopped; data saved.", flush=True)

    _wait_for_signal(cleanup)
    return 0


def _start_smtp(args):
    """The embedded SMTP server; the app sends to it through smtplib as to any relay, unless
    SMTP_URL already names another relay (docs/email.md)."""
    from app.local.smtp_server import SmtpServer

    smtp = SmtpServer(args.host, args.smtp_port).start()
    os.environ.setdefault("SMTP_URL", smtp.url)
    return smtp


def _install_mail_origin(origin: str) -> None:
    """Links in e-mails point at this server when PUBLIC_BASE_URL is unset."""
    from app import config

    os.environ["TAILSPEND_SERVING_ORIGIN"] = origin
    config.install(config.current()._replace(serving_origin=origin))


def _ensure_receipts_bucket() -> None:
    """The receipts bucket on the embedded S3 (in memory: moto keeps no S3 data on disk, so
    local receipts last as long as the server)."""
    from app.local.s3 import ensure_bucket

    ensure_bucket()


def _realtime_server(args, api_port: int):
    """The live-updates WebSocket server, started: on --realtime-port (Refused when that
    port cannot be had), else on --port + 1, else (that one taken, or --port 0) any free
    port. A side server must not take the API down over a port nobody asked for (a web dev
    server on 3001); the port chosen is printed, and /realtime/token names it."""
    from app.local.realtime_server import RealtimeServer

    if args.realtime_port is not None:
        try:
            return RealtimeServer(args.host, args.realtime_port).start()
        except OSError as error:
            reason = os.strerror(error.errno) if error.errno else str(error)
            raise Refused(f"--realtime-port {args.realtime_port} cannot be used ({reason}); "
                          "pass a free port, or 0 to pick one.") from None
    if args.port and api_port < 65535:
        try:
            return RealtimeServer(args.host, api_port + 1).start()
        except OSError:
            pass
    return RealtimeServer(args.host, 0).start()


def _start_realtime(realtime, endpoint: str):
    """Live updates: the WebSocket server speaking AppSync Events' protocol, the publisher's
    transport, fed by pollers on the groups and notifications tables' streams
    (docs/realtime.md)."""
    from app import config
    from app.local.stream_poller import (start_realtime_notifications_poller,
                                         start_realtime_poller)
    from app.realtime import publisher

    publisher.use_transport(realtime)
    # Known only now (the port may be any free one): tokens minted from here on name it, and
    # so does every handler this process loads later (each reads its settings at start).
    os.environ["REALTIME_ENDPOINT"] = os.environ["REALTIME_HTTP_ENDPOINT"] = realtime.endpoint
    os.environ["REALTIME_SCHEME"] = "ws"
    config.install(config.current()._replace(realtime_endpoint=realtime.endpoint,
                                             realtime_http_endpoint=realtime.endpoint,
                                             realtime_scheme="ws"))
    print(f"Live updates on ws://{realtime.endpoint}/event/realtime", flush=True)
    return start_realtime_poller(endpoint), start_realtime_notifications_poller(endpoint)


def openapi_document(args) -> int:
    """The document /openapi.json serves in local mode (so /dev/tokens is in it), read through
    the app's test client: no port, no table is touched. The local issuer's key goes to a
    throwaway data dir, not the user's."""
    import json
    import tempfile

    from app import create_app

    os.environ["LOG_LEVEL"] = "WARNING"  # the request's log line is not the document
    with tempfile.TemporaryDirectory(prefix="tailspend-openapi-") as data_dir:
        os.environ["TAILSPEND_DATA_DIR"] = data_dir
        reply = create_app().test_client().get("/openapi.json")
    text = json.dumps(reply.get_json(), indent=1) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as out:
            out.write(text)
    return 0


def db_only(args) -> int:
    from app.local import server_info

    endpoint, db = _start_db(args, host=args.host)
    if db:
        server_info.write(args.data_dir, pid=os.getpid(), host=args.host, db_port=db.port)
    print(f"Embedded DynamoDB on {endpoint} (data in {args.data_dir})", flush=True)

    def cleanup() -> None:
        if db:
            db.stop()
            server_info.remove(args.data_dir, os.getpid())
        print("Stopped; data saved.", flush=True)

    _wait_for_signal(cleanup)
    return 0


def token(args) -> int:
    try:
        running = _running_server(args)
    except Refused as refusal:
        print(f"token: {refusal}", file=sys.stderr)
        return 2
    if running and running.get("apiPort"):
        issued = _token_from_server(running, args)
    else:
        issued = _token_offline(running, args)
    print(issued["accessToken"])
    print(f"userId {issued['userId']}", file=sys.stderr)
    return 0


def _token_from_server(running: dict, args) -> dict:
    import json

    body = {"email": args.email, "admin": args.admin}
    if args.name:
        body["displayName"] = args.name
    request = urllib.request.Request(
        f"http://127.0.0.1:{running['apiPort']}/dev/tokens", data=json.dumps(body).encode(),
        method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:  # noqa: S310 — loopback only
        return json.loads(reply.read())


def _token_offline(running, args) -> dict:
    """No API up: mint straight into the data dir's database (a running `db`, or embedded)."""
    from app.auth.local_issuer import LocalIssuer
    from app.bootstrap import bootstrap
    from app.config import Settings
    from app.users.local_auth import mint_token

    if running:
        endpoint, db = f"http://127.0.0.1:{running['dbPort']}", None
    else:
        endpoint, db = _start_db(args, port=0)  # a private endpoint for this one command
    settings = bootstrap(Settings.from_env(dynamodb_endpoint=endpoint))
    try:
        return mint_token(LocalIssuer(settings.data_dir, settings.issuer, settings.client_id),
                          email=args.email, display_name=args.name, admin=args.admin,
                          test_domain=settings.test_account_domain)
    finally:
        if db:
            db.stop()


def _against_local_data(name: str, args, run) -> int:
    """Run ``run()`` against the running server's database, or a database of its own started
    for the call (and stopped after); a server of another kind refuses (exit 2)."""
    try:
        running = _running_server(args)
    except Refused as refusal:
        print(f"{name}: {refusal}", file=sys.stderr)
        return 2
    if running:
        os.environ["DYNAMODB_ENDPOINT"] = f"http://127.0.0.1:{running['dbPort']}"
        db = None
    else:
        _, db = _start_db(args, port=0)
    try:
        run()
    finally:
        if db:
            db.stop()
    return 0


def tick(args) -> int:
    import json

    def run():
        from app.local.triggers import run_hourly_tick
        print(json.dumps(run_hourly_tick(args.now)))
    return _against_local_data("tick", args, run)


def digests(args) -> int:
    """The digests' schedule once, against the local data; the e-mails go to the running
    server's SMTP (so /dev/mail shows them) unless SMTP_URL names another relay."""
    import json

    def run():
        from app.local import server_info
        from app.local.triggers import run_digests

        info = server_info.read(args.data_dir) or {}
        if info.get("smtpUrl"):
            os.environ.setdefault("SMTP_URL", info["smtpUrl"])
        if info.get("apiPort"):  # links point at that server, as its own e-mails' do
            os.environ.setdefault("TAILSPEND_SERVING_ORIGIN",
                                  f"http://{info['host']}:{info['apiPort']}")
        print(json.dumps(run_digests(args.now)))
    return _against_local_data("digests", args, run)


def backfill_projection(args) -> int:
    """The Projection function's backfill calls against the local data, one line a call."""
    import json

    def run():
        from app.local.triggers import run_projection_backfill
        start = json.loads(args.cursor) if args.cursor else None
        print(json.dumps(run_projection_backfill(lambda answer: print(json.dumps(answer)),
                                                 cursor=start)))
    return _against_local_data("backfill-projection", args, run)


if __name__ == "__main__":
    sys.exit(main())
