"""--follow with the authentication stages: what --auth-cmd printed and what --aws-sigv4 signed
belong to the URL they were made for. A redirect to another origin (another port on 127.0.0.1)
drops them unless --location-trusted; a redirect to the same origin runs the command again and
signs again, for the new URL."""

import hashlib

import pytest

from conftest import run
from loopback import LoopbackServer, Response
from sigv4_verifier import verify

KEY = "AKIDEXAMPLE"
SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN = "IQoJb3JpZ2luX2VjEMv//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+token=="
SIGV4 = ["--aws-sigv4", "aws:amz:us-east-1:execute-api"]
AWS_ENV = {"AWS_ACCESS_KEY_ID": KEY, "AWS_SECRET_ACCESS_KEY": SECRET, "AWS_SESSION_TOKEN": TOKEN}


def auth_cmd(counter):
    """Prints an API key and an HMAC of the method and URL, and counts its runs in `counter`."""
    return (f'echo run >> {counter}; echo "X-Api-Key: k-123"; '
            'printf "X-Signature: %s\\n" "$(printf "%s %s" "$AFCLI_METHOD" "$AFCLI_URL" | sha256sum | cut -c1-64)"')


def signature(method, url):
    return hashlib.sha256(f"{method} {url}".encode()).hexdigest()


@pytest.fixture
def other():
    srv = LoopbackServer()
    yield srv
    srv.stop()


def redirect_to(server, location, status=302):
    def handler(request):
        if request.target == "/start":
            return Response(status=status, reason="Found", headers=[("Location", location), ("Content-Length", "0")],
                            body=b"")
        return Response()
    server.handler = handler


CREDENTIAL_HEADERS = ["X-Api-Key", "X-Signature", "Authorization", "X-Amz-Security-Token", "X-Amz-Date"]


def credentials(request):
    return {name: request.header(name) for name in CREDENTIAL_HEADERS if request.header(name) is not None}


@pytest.mark.parametrize("way", ["single", "run"])
def test_another_origin_gets_neither_the_command_headers_nor_the_signature(server, other, tmp_path, way):
    redirect_to(server, other.url + "/landed")
    counter = tmp_path / "count"
    args = ["--follow", "--auth-cmd", auth_cmd(counter), *SIGV4, server.url + "/start"]
    r = run(args if way == "single" else ["run", "-"], env=AWS_ENV,
            input=None if way == "single" else (" ".join(f"'{a}'" for a in args) + "\n").encode())
    assert r.code == 0, r
    first, = server.requests
    assert first.header("X-Api-Key") == "k-123" and first.header("X-Amz-Security-Token") == TOKEN
    landed, = other.requests
    assert landed.target == "/landed"
    assert credentials(landed) == {}, landed.headers
    assert counter.read_text().count("run") == 1


def test_location_trusted_runs_the_command_and_signs_again_for_the_other_origin(server, other, tmp_path):
    redirect_to(server, other.url + "/landed")
    counter = tmp_path / "count"
    r = run(["--follow", "--location-trusted", "--auth-cmd", auth_cmd(counter), *SIGV4, server.url + "/start"],
            env=AWS_ENV)
    assert r.code == 0, r
    landed, = other.requests
    assert landed.header("X-Signature") == signature("GET", other.url + "/landed")
    assert verify(landed, other.url, KEY, SECRET, TOKEN) is None
    assert counter.read_text().count("run") == 2


@pytest.mark.parametrize("way", ["single", "run"])
def test_the_same_origin_gets_a_fresh_signature_and_command_headers_for_the_new_url(server, tmp_path, way):
    redirect_to(server, "/next?b=2&a=1", status=307)
    counter = tmp_path / "count"
    args = ["post", "--follow", "--auth-cmd", auth_cmd(counter), *SIGV4, server.url + "/start", "name=ann"]
    r = run(args if way == "single" else ["run", "-"], env=AWS_ENV,
            input=None if way == "single" else (" ".join(f"'{a}'" for a in args) + "\n").encode())
    assert r.code == 0, r
    first, second = server.requests
    assert second.target == "/next?b=2&a=1" and second.body == first.body
    assert second.header("X-Signature") == signature("POST", server.url + "/next?b=2&a=1")
    assert verify(second, server.url, KEY, SECRET, TOKEN) is None
    assert second.header("Authorization") != first.header("Authorization")
    assert counter.read_text().count("run") == 2


def test_a_command_that_fails_for_the_redirect_fails_the_request(server, tmp_path):
    redirect_to(server, "/next")
    counter = tmp_path / "count"
    command = f'echo run >> {counter}; test "$(wc -l < {counter})" -lt 2 || exit 4; echo "X-Api-Key: k"'
    r = run(["--follow", "--auth-cmd", command, server.url + "/start"])
    assert r.code == 2, r
    assert "the auth command failed with exit status 4" in r.err
    assert len(server.requests) == 1


def test_curl_says_that_curl_would_send_them_on_to_every_host(server, tmp_path):
    r = run(["--curl", "--follow", "--auth-cmd", "echo 'X-Api-Key: k'", server.url + "/start"])
    assert r.code == 0, r
    assert ("note: with --location, curl sends these headers, made for this URL, to every host a redirect "
            "leads to; afcli makes them again for a redirect to the same origin and drops them for another") in r.err
    assert server.requests == []


def test_a_http_files_aws_shorthand_is_signed_again_or_dropped_as_aws_sigv4_is(server, other, tmp_path):
    # One request redirected to another origin, one to the same origin (307, so it signs a POST again).
    def handler(request):
        if request.target == "/away":
            return Response(status=302, reason="Found", headers=[("Location", other.url + "/landed")], body=b"")
        if request.target == "/here":
            return Response(status=307, reason="Temporary Redirect", headers=[("Location", "/next")], body=b"")
        return Response()
    server.handler = handler
    path = tmp_path / "aws.http"
    path.write_text(f"""GET {server.url}/away
Authorization: AWS {KEY} {SECRET} token:{TOKEN} region:us-east-1 service:execute-api

###
POST {server.url}/here
Authorization: AWS {KEY} {SECRET} token:{TOKEN} region:us-east-1 service:execute-api

a=1
""")
    r = run(["run", str(path), "--follow"])
    assert r.code == 0, r
    landed, = other.requests
    assert credentials(landed) == {}, landed.headers
    assert [request.header("X-Amz-Content-Sha256") for request in other.requests] == [None]
    away, here, following = server.requests
    assert (away.target, here.target, following.target) == ("/away", "/here", "/next")
    assert verify(following, server.url, KEY, SECRET, TOKEN) is None
    assert following.header("Authorization") != here.header("Authorization")
