"""Upload the built web app (web/dist, `make build`) to a deployed stack's site bucket and
refresh CloudFront: `python scripts/publish_web.py --stack tailspend-dev [--region R]`, or
`--bucket B --distribution D` when the names are known.

Hashed assets go first (a page never names a file not yet there), each with the
Cache-Control the browser and CloudFront honour: `/app/assets/*` immutable for a year,
everything else (the page, the manifest, the service worker) `no-cache`; then one
invalidation of /app/* so the edge drops the old page."""
from __future__ import annotations

import argparse
import mimetypes
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "web" / "dist"
PREFIX = "app/"
IMMUTABLE = "public, max-age=31536000, immutable"
TYPES = {".webmanifest": "application/manifest+json", ".js": "text/javascript",
         ".svg": "image/svg+xml"}


def files(dist: Path = DIST) -> list[tuple[Path, str, str, str]]:
    """(file, key, content type, cache control), assets first, index.html last."""
    found = []
    for path in sorted(p for p in dist.rglob("*") if p.is_file() and not p.name.startswith(".")):
        relative = path.relative_to(dist).as_posix()
        kind = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        cache = IMMUTABLE if relative.startswith("assets/") else "no-cache"
        found.append((path, PREFIX + relative, kind, cache))
    return sorted(found, key=lambda f: (not f[1].startswith(PREFIX + "assets/"),
                                        f[1] == PREFIX + "index.html"))


def publish(s3, bucket: str, dist: Path = DIST, sign_in: str | None = None) -> list[str]:
    """``sign_in``: the stack's WebSignInConfig output, uploaded as app/config.json (before the
    page) so the app signs in through the hosted UI; without it the app offers local mode's
    e-mail sign-in, which a deployed API refuses."""
    if not (dist / "index.html").is_file():
        sys.exit("publish_web: web/dist is not built (make build)")
    keys = []
    if sign_in:
        s3.put_object(Bucket=bucket, Key=PREFIX + "config.json", Body=sign_in.encode(),
                      ContentType="application/json", CacheControl="no-cache")
        keys.append(PREFIX + "config.json")
    for path, key, kind, cache in files(dist):
        s3.put_object(Bucket=bucket, Key=key, Body=path.read_bytes(), ContentType=kind,
                      CacheControl=cache)
        keys.append(key)
    return keys


def invalidate(cloudfront, distribution: str) -> str:
    reply = cloudfront.create_invalidation(DistributionId=distribution, InvalidationBatch={
        "Paths": {"Quantity": 1, "Items": ["/app/*"]}, "CallerReference": str(time.time_ns())})
    return reply["Invalidation"]["Id"]


def _outputs(session, stack: str) -> dict:
    described = session.client("cloudformation").describe_stacks(StackName=stack)["Stacks"][0]
    return {o["OutputKey"]: o["OutputValue"] for o in described.get("Outputs", [])}


def main(argv=None) -> int:
    import boto3

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stack")
    parser.add_argument("--bucket")
    parser.add_argument("--distribution")
    parser.add_argument("--region")
    args = parser.parse_args(argv)
    session = boto3.Session(region_name=args.region)
    outputs = {}
    if args.stack:
        outputs = _outputs(session, args.stack)
        args.bucket = args.bucket or outputs["WebSiteBucketName"]
        args.distribution = args.distribution or outputs["DistributionId"]
    if not (args.bucket and args.distribution):
        parser.error("--stack, or both --bucket and --distribution")
    keys = publish(session.client("s3"), args.bucket, sign_in=outputs.get("WebSignInConfig"))
    print(f"{len(keys)} files to s3://{args.bucket}/{PREFIX}; invalidation "
          f"{invalidate(session.client('cloudfront'), args.distribution)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
