"""The web app in AWS (docs/web.md): a private bucket only the API's CloudFront reads (OAC),
a /app/* behavior with a Content-Security-Policy, the viewer-request function that sends an
app screen's path to index.html (run here with node), and the publish step's uploads."""
from __future__ import annotations

import json
import shutil
import subprocess

import boto3
import pytest
from moto import mock_aws

from app.local.template_tables import load_template
from scripts import build_web, publish_web

RESOURCES = load_template()["Resources"]


def test_the_site_bucket_is_private_and_read_only_by_the_distribution():
    bucket = RESOURCES["WebSiteBucket"]["Properties"]
    assert all(bucket["PublicAccessBlockConfiguration"].values())
    statements = RESOURCES["WebSiteBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    [allow] = [s for s in statements if s["Effect"] == "Allow"]
    assert allow["Principal"] == {"Service": "cloudfront.amazonaws.com"}
    assert allow["Action"] == "s3:GetObject"
    assert "${ApiDistribution}" in allow["Condition"]["StringEquals"]["AWS:SourceArn"]["Fn::Sub"]
    oac = RESOURCES["WebSiteOriginAccessControl"]["Properties"]["OriginAccessControlConfig"]
    assert (oac["OriginAccessControlOriginType"], oac["SigningBehavior"]) == ("s3", "always")


def test_the_distribution_serves_app_paths_from_the_bucket_with_a_csp():
    config = RESOURCES["ApiDistribution"]["Properties"]["DistributionConfig"]
    [origin] = [o for o in config["Origins"] if o["Id"] == "web-site"]
    assert origin["OriginAccessControlId"] == {"Fn::GetAtt": ["WebSiteOriginAccessControl", "Id"]}
    [behavior] = config["CacheBehaviors"]
    assert behavior["PathPattern"] == "/app/*" and behavior["TargetOriginId"] == "web-site"
    assert behavior["AllowedMethods"] == ["GET", "HEAD"]
    assert behavior["ResponseHeadersPolicyId"] == {"Ref": "WebAppHeadersPolicy"}
    assert config["DefaultCacheBehavior"]["TargetOriginId"] == "http-api"  # the API stays
    headers = RESOURCES["WebAppHeadersPolicy"]["Properties"]["ResponseHeadersPolicyConfig"]
    policy = headers["SecurityHeadersConfig"]["ContentSecurityPolicy"]
    # The Sub's text, and its one variable: the hosted UI's domain when the pool has one.
    text, variables = policy["ContentSecurityPolicy"]["Fn::Sub"]
    assert set(variables) == {"HostedSignIn"}
    assert policy["Override"] is True
    for directive in ("default-src 'self'", "script-src 'self'", "frame-ancestors 'none'",
                      "object-src 'none'", "wss://${RealtimeApi.Dns.Realtime}"):
        assert directive in text
    assert "unsafe-inline" not in text and "unsafe-eval" not in text and "*" not in text


@pytest.mark.parametrize("uri, served", [
    ("/app/", "/app/index.html"), ("/app/groups/g1/expenses/new", "/app/index.html"),
    ("/app/join", "/app/index.html"), ("/app/assets/index-abc.js", "/app/assets/index-abc.js"),
    ("/app/sw.js", "/app/sw.js"), ("/app/manifest.webmanifest", "/app/manifest.webmanifest")])
def test_the_route_function_sends_screens_to_the_index(uri, served):
    node = shutil.which("node")
    assert node, "node (20+) runs the CloudFront function here"
    code = RESOURCES["WebAppRouteFunction"]["Properties"]["FunctionCode"]
    script = code + f"\nprocess.stdout.write(handler({{request: {{uri: {json.dumps(uri)}}}}}).uri);"
    result = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=60)
    assert result.stdout == served, result.stderr


def test_publish_uploads_assets_immutable_and_the_page_last_and_revalidated():
    dist = build_web.build()
    with mock_aws():
        s3 = boto3.client("s3", region_name="us-east-1")
        s3.create_bucket(Bucket="site")
        keys = publish_web.publish(s3, "site", dist)
        assert keys[-1] == "app/index.html"
        assert all(k.startswith("app/assets/") for k in keys[:len(list((dist / "assets").iterdir()))])
        page = s3.head_object(Bucket="site", Key="app/index.html")
        assert page["CacheControl"] == "no-cache" and page["ContentType"].startswith("text/html")
        script = next(k for k in keys if k.startswith("app/assets/") and k.endswith(".js"))
        asset = s3.head_object(Bucket="site", Key=script)
        assert asset["CacheControl"] == publish_web.IMMUTABLE
        assert asset["ContentType"] == "text/javascript"
        assert "app/.input-sha256" not in keys


def test_publish_uploads_the_hosted_sign_in_config_before_the_page():
    dist = build_web.build()
    config = ('{"auth": "cognito", "domain": "https://x.auth.eu-west-1.amazoncognito.com",'
              ' "clientId": "c", "redirectUri": "https://s.example/app/signed-in"}')
    with mock_aws():
        s3 = boto3.client("s3", region_name="us-east-1")
        s3.create_bucket(Bucket="site")
        keys = publish_web.publish(s3, "site", dist, sign_in=config)
        assert keys.index("app/config.json") < keys.index("app/index.html")
        stored = s3.get_object(Bucket="site", Key="app/config.json")
        assert stored["ContentType"] == "application/json" and stored["CacheControl"] == "no-cache"
        assert json.loads(stored["Body"].read())["auth"] == "cognito"


def test_the_template_gives_the_web_app_the_hosted_sign_in():
    template = load_template()
    client = template["Resources"]["UserPoolClient"]["Properties"]
    assert client["AllowedOAuthFlows"] == {"Fn::If": ["HasMcpSignIn", ["code"], {"Ref": "AWS::NoValue"}]}
    assert "/app/signed-in" in json.dumps(client["CallbackURLs"])
    csp = json.dumps(template["Resources"]["WebAppHeadersPolicy"])
    assert "amazoncognito.com" in csp and "${HostedSignIn}" in csp
    output = json.dumps(template["Outputs"]["WebSignInConfig"])
    assert '\\"auth\\": \\"cognito\\"' in output and "${UserPoolClient}" in output
