"""--aws-sigv4: every request, a single one or each of a run, is signed last, over the headers and
body as sent, and a local server recomputes the signature (botocore's when importable)."""

import json

import pytest

from conftest import run
from loopback import Response
from sigv4_verifier import verify

KEY = "AKIDEXAMPLE"
SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN = "IQoJb3JpZ2luX2VjEMv//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+token/with+slashes=="


@pytest.fixture
def checking(server):
    """A server that answers 403 when the signature does not verify, 200 when it does."""
    server.failures = []

    def handler(request):
        token = request.header("X-Amz-Security-Token")
        reason = verify(request, server.url, KEY, SECRET, token)
        if reason:
            server.failures.append(reason)
            return Response(status=403, reason="Forbidden", body=json.dumps({"error": reason}).encode())
        return Response()
    server.handler = handler
    return server


def test_a_query_with_reserved_characters_unsorted_verifies(checking):
    url = checking.url + "/items?b=2&a=1&q=a%20b&plus=1%2B1&sym=!*'()&slash=a/b&utf8=caf%C3%A9"
    r = run(["--aws-sigv4", "aws:amz:us-east-1:execute-api", "-a", f"{KEY}:{SECRET}", url])
    assert r.code == 0, (r, checking.failures)
    assert len(checking.requests) == 1


def test_an_empty_body_signs_the_empty_hash_for_s3(checking):
    r = run(["--aws-sigv4", "aws:amz:eu-west-1:s3", "-a", f"{KEY}:{SECRET}", checking.url + "/bucket/key"])
    assert r.code == 0, (r, checking.failures)
    sent = checking.requests[0]
    assert sent.header("X-Amz-Content-SHA256") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert "/eu-west-1/s3/aws4_request" in sent.header("Authorization")
    assert sent.header("Authorization").startswith("AWS4-HMAC-SHA256 ")


def test_a_streamed_file_body_is_hashed_and_sent_whole(checking, tmp_path):
    body = bytes(range(256)) * 8192  # 2 MiB: streamed, never built in memory
    path = tmp_path / "upload.bin"
    path.write_bytes(body)
    for service in ["execute-api", "s3"]:
        r = run(["put", "--aws-sigv4", f"aws:amz:us-west-2:{service}", "-a", f"{KEY}:{SECRET}",
                 checking.url + "/upload", f"@{path}"])
        assert r.code == 0, (r, checking.failures)
    assert [len(x.body) for x in checking.requests] == [len(body), len(body)]


def test_keys_and_session_token_from_the_environment(checking):
    env = {"AWS_ACCESS_KEY_ID": KEY, "AWS_SECRET_ACCESS_KEY": SECRET, "AWS_SESSION_TOKEN": TOKEN}
    r = run(["post", "--aws-sigv4", "aws:amz:eu-central-1:execute-api", checking.url + "/prod/items", "name=x"],
            env=env)
    assert r.code == 0, (r, checking.failures)
    assert checking.requests[0].header("X-Amz-Security-Token") == TOKEN
    assert checking.requests[0].header("Authorization").count("Basic") == 0


def test_a_compressed_body_is_signed_as_sent(checking):
    r = run(["post", "--compress", "--aws-sigv4", "aws:amz:us-east-1:execute-api", "-a", f"{KEY}:{SECRET}",
             checking.url + "/c", "text=" + "a" * 2000])
    assert r.code == 0, (r, checking.failures)
    assert checking.requests[0].header("Content-Encoding") == "deflate"


def test_every_request_of_a_run_is_signed_lines_and_http_file(checking, tmp_path):
    lines = (f"get {checking.url}/a?z=1&y=2\npost {checking.url}/b x=1\n").encode()
    r = run(["run", "-", "--aws-sigv4", "aws:amz:us-east-1:execute-api", "-a", f"{KEY}:{SECRET}"], input=lines)
    assert r.code == 0, (r, checking.failures)
    http = tmp_path / "api.http"
    http.write_text(f"GET {checking.url}/c?b=%2F&a=1\n\n###\nPOST {checking.url}/d\nContent-Type: text/plain\n\nhello\n")
    r = run(["run", str(http), "--aws-sigv4", "aws:amz:us-east-1:execute-api", "-a", f"{KEY}:{SECRET}"])
    assert r.code == 0, (r, checking.failures)
    assert len(checking.requests) == 4 and not checking.failures


def test_a_wrong_secret_fails_the_check(checking):
    # The verifier itself is not a rubber stamp.
    r = run(["--aws-sigv4", "aws:amz:us-east-1:execute-api", "-a", f"{KEY}:wrong", checking.url + "/x"])
    assert r.code == 4, r
    assert checking.failures


def test_offline_and_curl_show_the_signed_headers_and_no_basic_auth(server):
    args = ["--aws-sigv4", "aws:amz:us-east-1:execute-api", "-a", f"{KEY}:{SECRET}", server.url + "/x"]
    r = run(["--offline", *args])
    assert r.code == 0, r
    assert "X-Amz-Date: " in r.out and "Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/" in r.out
    assert SECRET not in r.out
    r = run(["--curl", *args])
    assert r.code == 0, r
    assert "--header 'Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/" in r.out
    assert "--aws-sigv4" not in r.out and "--user" not in r.out and SECRET not in r.out
    assert "signed" in r.err
    assert server.requests == []


def test_verbose_shows_the_signed_request(checking):
    r = run(["-v", "--aws-sigv4", "aws:amz:us-east-1:execute-api", "-a", f"{KEY}:{SECRET}", checking.url + "/v"])
    assert r.code == 0, r
    assert "X-Amz-Date: " in r.out and "Authorization: AWS4-HMAC-SHA256" in r.out


@pytest.mark.parametrize("scope, message", [
    ("gcp:goog:r:s", "afcli signs for the provider aws only"),
    ("aws:osc:r:s", "the second provider must be amz"),
    ("aws:amz:us-east-1:a/b", "is not a region or service name"),
    ("aws:amz", "is no AWS host name"),
])
def test_a_bad_scope_is_refused_and_nothing_sent(server, scope, message):
    r = run(["--aws-sigv4", scope, "-a", "k:s", server.url + "/x"])
    assert r.code == 2, r
    assert r.err.startswith("afcli: error: --aws-sigv4") and message in r.err, r.err
    assert server.requests == []


def test_no_keys_is_refused_and_nothing_sent(server):
    r = run(["--aws-sigv4", "aws:amz:us-east-1:s3", server.url + "/x"])
    assert r.code == 2, r
    assert "--aws-sigv4 needs keys" in r.err
    assert server.requests == []
