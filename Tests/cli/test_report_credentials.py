"""Credentials in what afcli shows of an exchange: the --report files of a run (HAR, JUnit's
curl line, JSON, TAP) and -v's heads hide the values of the credential headers afcli knows, of
every header --auth-cmd printed, of headers named like secrets and of the environment's secret
headers, and every cookie's value (names kept, as Chrome's sanitised HAR export does);
--show-secrets shows them, for a single request and for a run."""

import base64
import json

from conftest import run
from loopback import Response

KEY = "AKIDEXAMPLE"
SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN = "IQoJb3JpZ2luX2VjEMv-session-token-9d8f7e"
AWS_ENV = {"AWS_ACCESS_KEY_ID": KEY, "AWS_SECRET_ACCESS_KEY": SECRET, "AWS_SESSION_TOKEN": TOKEN}
BASIC = base64.b64encode(b"ann:pass-4711").decode()
SECRETS = [BASIC, "pass-4711", "bearer-8a7b6c", "cookie-5e4d", "api-k-3c2b", "set-9f8e", TOKEN, "private-6a5b"]


def answering(server, status=200):
    server.handler = lambda request: Response(
        status=status, reason="OK" if status == 200 else "Teapot",
        headers=[("Content-Type", "application/json"), ("Set-Cookie", "sid=set-9f8e; Path=/; HttpOnly")],
        body=b"{}")


def http_file(tmp_path, server):
    path = tmp_path / "api.http"
    path.write_text(f"""### basic
GET {server.url}/a
Authorization: Basic {BASIC}
Cookie: theme=cookie-5e4d
X-Private-Token: private-6a5b

### bearer
GET {server.url}/b
Authorization: Bearer bearer-8a7b6c
""")
    return path


def run_with_reports(tmp_path, server, *extra, status=200):
    answering(server, status)
    reports = {kind: tmp_path / f"report.{kind}" for kind in ("har", "junit", "json", "tap")}
    args = ["run", str(http_file(tmp_path, server)), "--keep-going", "--auth-cmd", "echo 'X-Api-Key: api-k-3c2b'"]
    for kind, path in reports.items():
        args += ["--report", f"{kind}={path}"]
    r = run(args + list(extra))
    return r, {kind: path.read_text() for kind, path in reports.items()}


def har_headers(har, entry, side):
    return {h["name"].lower(): h["value"] for h in har["log"]["entries"][entry][side]["headers"]}


def test_reports_hide_every_credential_and_keep_the_names(server, tmp_path):
    r, reports = run_with_reports(tmp_path, server)
    assert r.code == 0, r
    for kind, text in reports.items():
        for secret in SECRETS:
            assert secret not in text, (kind, secret)
    har = json.loads(reports["har"])
    sent = har_headers(har, 0, "request")
    assert sent["authorization"] == "Basic <redacted>"
    assert sent["x-api-key"] == "<redacted>" and sent["x-private-token"] == "<redacted>"
    assert sent["cookie"] == "theme=<redacted>"
    assert har["log"]["entries"][0]["request"]["cookies"] == [{"name": "theme", "value": "<redacted>"}]
    assert har_headers(har, 1, "request")["authorization"] == "Bearer <redacted>"
    received = har_headers(har, 0, "response")
    assert received["set-cookie"] == "sid=<redacted>; Path=/; HttpOnly"
    assert har["log"]["entries"][0]["response"]["cookies"] == [{"name": "sid", "value": "<redacted>"}]
    assert received["content-type"] == "application/json"
    # What the server got was the real thing.
    assert server.requests[0].header("Authorization") == "Basic " + BASIC


def test_the_junit_curl_line_hides_them(server, tmp_path):
    r, reports = run_with_reports(tmp_path, server, status=418)
    assert r.code == 4, r
    junit = reports["junit"]
    assert "curl: " in junit
    assert "Authorization: Basic &lt;redacted&gt;" in junit
    assert "X-Api-Key: &lt;redacted&gt;" in junit and "Cookie: theme=&lt;redacted&gt;" in junit
    for secret in SECRETS:
        assert secret not in junit, secret


def test_show_secrets_shows_them_in_a_run(server, tmp_path):
    r, reports = run_with_reports(tmp_path, server, "--show-secrets", status=418)
    assert r.code == 4 and "afcli: error: --show-secrets" not in r.err, r
    har = json.loads(reports["har"])
    assert har_headers(har, 0, "request")["authorization"] == "Basic " + BASIC
    assert har_headers(har, 0, "request")["x-api-key"] == "api-k-3c2b"
    assert har_headers(har, 0, "response")["set-cookie"].startswith("sid=set-9f8e")
    assert f"Authorization: Basic {BASIC}" in reports["junit"]


def test_show_secrets_from_default_options_for_a_run(server, tmp_path):
    answering(server)
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"default_options": ["--show-secrets"]}))
    config.chmod(0o600)
    env = {"AFCLI_CONFIG_DIR": str(tmp_path), "HOME": str(tmp_path)}
    har = tmp_path / "r.har"
    r = run(["run", "-", "--report", f"har={har}"], input=f"{server.url}/a X-Api-Token:api-k-3c2b\n".encode(), env=env)
    assert r.code == 0, r
    assert har_headers(json.loads(har.read_text()), 0, "request")["x-api-token"] == "api-k-3c2b"
    r = run(["run", "-", "--report", f"har={har}"], input=f"{server.url}/a X-Api-Token:api-k-3c2b\n".encode())
    assert har_headers(json.loads(har.read_text()), 0, "request")["x-api-token"] == "<redacted>"


def test_verbose_hides_the_sigv4_session_token_and_cookies(server):
    answering(server)
    args = ["-v", "--aws-sigv4", "aws:amz:us-east-1:execute-api", server.url + "/v", "Cookie:theme=cookie-5e4d"]
    r = run(args, env=AWS_ENV)
    assert r.code == 0, r
    assert TOKEN not in r.out and "cookie-5e4d" not in r.out and "set-9f8e" not in r.out, r.out
    assert "X-Amz-Security-Token: <redacted>" in r.out
    assert "Authorization: AWS4-HMAC-SHA256 <redacted>" in r.out
    assert "Cookie: theme=<redacted>" in r.out and "Set-Cookie: sid=<redacted>; Path=/; HttpOnly" in r.out
    assert server.requests[0].header("X-Amz-Security-Token") == TOKEN
    shown = run(args + ["--show-secrets"], env=AWS_ENV)
    assert shown.code == 0 and f"X-Amz-Security-Token: {TOKEN}" in shown.out and "sid=set-9f8e" in shown.out, shown


def test_verbose_hides_what_the_auth_command_printed_and_the_environments_secret_headers(server, tmp_path):
    answering(server)
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"environments": {"dev": {"headers": {"X-Client": "Bearer private-6a5b"}}}}))
    config.chmod(0o600)
    env = {"AFCLI_CONFIG_DIR": str(tmp_path), "HOME": str(tmp_path)}
    r = run(["-v", "--env", "dev", "--auth-cmd", "echo 'X-Vendor: api-k-3c2b'", server.url + "/v"], env=env)
    assert r.code == 0, r
    assert "X-Vendor: <redacted>" in r.out and "X-Client: <redacted>" in r.out, r.out
    assert "api-k-3c2b" not in r.out and "private-6a5b" not in r.out
    assert server.requests[0].header("X-Vendor") == "api-k-3c2b"
