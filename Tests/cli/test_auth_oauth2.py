"""-A oauth2: the client credentials grant (RFC 6749 section 4.4) against a local token endpoint
and API, for a single request and every request of a run: the token fetched once and kept (also
across invocations, in a 0600 store), fetched anew when it expired or the API refused it as
invalid_token, and never shown."""

import base64
import json
import os
import stat
import time
from urllib.parse import parse_qs

import pytest

from conftest import run
from loopback import LoopbackServer, Response

CLIENT = "my-client"
SECRET = "s3cr3t/+:x"


class Endpoint:
    """A token endpoint handing out tok-1, tok-2…, and an API accepting only the latest token."""

    def __init__(self, expires_in=3600, password="s3cr3t%2F%2B%3Ax"):
        self.password = password
        self.tokens = LoopbackServer()
        self.api = LoopbackServer()
        self.issued = []
        self.expires_in = expires_in
        self.fail = None
        self.tokens.handler = self.token
        self.api.handler = self.answer

    def token(self, request):
        if self.fail:
            return Response(status=self.fail, reason="Unauthorized",
                            body=json.dumps({"error": "invalid_client", "error_description": "unknown"}).encode())
        auth = request.header("Authorization") or ""
        user, _, password = base64.b64decode(auth[6:]).decode().partition(":")
        form = parse_qs(request.body.decode())
        assert auth.startswith("Basic ") and user == CLIENT and password == self.password, auth
        assert form["grant_type"] == ["client_credentials"]
        self.issued.append(form.get("scope", [None])[0])
        body = {"access_token": f"tok-{len(self.issued)}", "token_type": "Bearer"}
        if self.expires_in is not None:
            body["expires_in"] = self.expires_in
        return Response(body=json.dumps(body).encode())

    def answer(self, request):
        if request.header("Authorization") == f"Bearer tok-{len(self.issued)}":
            return Response()
        return Response(status=401, reason="Unauthorized", body=b'{"error":"invalid_token"}',
                        headers=[("WWW-Authenticate", 'Bearer realm="api", error="invalid_token"'),
                                 ("Content-Type", "application/json")])

    def args(self, *extra):
        return ["-A", "oauth2", "--oauth2-token-url", self.tokens.url + "/token", "-a", f"{CLIENT}:{SECRET}", *extra]

    def stop(self):
        self.tokens.stop()
        self.api.stop()


@pytest.fixture
def endpoint():
    e = Endpoint()
    yield e
    e.stop()


@pytest.fixture
def state(tmp_path):
    return {"XDG_STATE_HOME": str(tmp_path / "state")}


def sent_tokens(endpoint):
    return [r.header("Authorization") for r in endpoint.api.requests]


def test_the_token_is_fetched_once_and_reused_by_a_later_invocation(endpoint, state, tmp_path):
    for path in ["/a", "/b"]:
        r = run(endpoint.args(endpoint.api.url + path), env=state)
        assert r.code == 0, r
    assert endpoint.issued == [None]
    assert sent_tokens(endpoint) == ["Bearer tok-1", "Bearer tok-1"]
    directory = tmp_path / "state" / "afcli" / "tokens"
    files = list(directory.iterdir())
    assert len(files) == 1
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600 and stat.S_IMODE(directory.stat().st_mode) == 0o700


def test_a_token_is_kept_per_scope(endpoint, state):
    endpoint.api.handler = lambda request: Response()  # every token issued is good
    for scope in ["read", "write", "read"]:
        r = run(endpoint.args("--oauth2-scope", scope, endpoint.api.url + "/s"), env=state)
        assert r.code == 0, r
    assert endpoint.issued == ["read", "write"]
    assert sent_tokens(endpoint) == ["Bearer tok-1", "Bearer tok-2", "Bearer tok-1"]


def test_an_expired_token_is_fetched_anew(state):
    e = Endpoint(expires_in=31)  # within the 30 s margin after a second
    try:
        r = run(e.args(e.api.url + "/a"), env=state)
        assert r.code == 0, r
        time.sleep(1.1)
        r = run(e.args(e.api.url + "/b"), env=state)
        assert r.code == 0, r
        assert len(e.issued) == 2
        assert sent_tokens(e) == ["Bearer tok-1", "Bearer tok-2"]
    finally:
        e.stop()


def test_invalid_token_gets_one_new_token_and_the_request_is_sent_again(endpoint, state):
    r = run(endpoint.args(endpoint.api.url + "/a"), env=state)
    assert r.code == 0, r
    endpoint.issued.append("revoked")  # the server now wants tok-2: tok-1 is refused
    r = run(endpoint.args("post", endpoint.api.url + "/b", "x=1"), env=state)
    assert r.code == 0, r
    assert r.out == '{"ok":true}'
    assert sent_tokens(endpoint) == ["Bearer tok-1", "Bearer tok-1", "Bearer tok-3"]
    assert [x.body for x in endpoint.api.requests[1:]] == [b'{"x":"1"}', b'{"x":"1"}']


def test_invalid_token_twice_is_the_apis_401(endpoint, state):
    endpoint.api.handler = lambda request: Response(
        status=401, reason="Unauthorized", headers=[("WWW-Authenticate", 'Bearer error="invalid_token"')], body=b"")
    r = run(endpoint.args(endpoint.api.url + "/a"), env=state)
    assert r.code == 4, r
    assert len(endpoint.api.requests) == 2 and len(endpoint.issued) == 2


def test_a_failing_token_endpoint_is_a_clear_error_and_the_api_is_never_called(endpoint, state):
    endpoint.fail = 401
    r = run(endpoint.args(endpoint.api.url + "/a"), env=state)
    assert r.code == 1, r
    assert r.err == (f"afcli: error: the OAuth 2 token endpoint {endpoint.tokens.url}/token answered 401: "
                     "invalid_client (unknown); the request was not sent\n")
    assert endpoint.api.requests == []


@pytest.mark.parametrize("token, problem", [
    ("tok\r\nX-Injected: 1", "its access_token contains a line break"),
    ("tok\n", "its access_token contains a line break"),
    ("tok en", "its access_token contains a space, a control character or a non-ASCII character"),
    ("", "no access_token"),
])
def test_a_token_a_header_cannot_carry_is_refused_saying_why(endpoint, state, token, problem):
    endpoint.tokens.handler = lambda request: Response(
        body=json.dumps({"access_token": token, "token_type": "Bearer"}).encode())
    r = run(endpoint.args(endpoint.api.url + "/a"), env=state)
    assert r.code == 1, r
    assert r.err.startswith(f"afcli: error: the OAuth 2 token endpoint {endpoint.tokens.url}/token sent no usable "
                            f"token ({problem}")
    assert endpoint.api.requests == []


def test_every_request_of_a_run_shares_one_token_and_a_refusal_refetches(endpoint, state, tmp_path):
    source = "".join(f"get {endpoint.api.url}/{i}\n" for i in range(4)).encode()
    r = run(["run", "-", "--parallel", "2", *endpoint.args()], input=source, env=state)
    assert r.code == 0, r
    assert endpoint.issued == [None]
    http = tmp_path / "a.http"
    http.write_text(f"GET {endpoint.api.url}/h1\n\n###\nGET {endpoint.api.url}/h2\n")
    endpoint.issued.append("revoked")
    r = run(["run", str(http), *endpoint.args()], env=state)
    assert r.code == 0, r
    assert sent_tokens(endpoint)[4:] == ["Bearer tok-1", "Bearer tok-3", "Bearer tok-3"]


def test_the_token_and_secret_are_never_shown(endpoint, state, tmp_path):
    log = tmp_path / "log.txt"
    r = run(endpoint.args("-v", "--log-file", str(log), endpoint.api.url + "/a"), env=state)
    assert r.code == 0, r
    shown = r.out + r.err + log.read_text()
    assert "tok-1" not in shown and SECRET not in shown and "Bearer <redacted>" in r.out
    r = run(endpoint.args("-v", "--show-secrets", endpoint.api.url + "/a"), env=state)
    assert "Bearer tok-1" in r.out
    for mode in ["--offline", "--curl"]:
        r = run(endpoint.args(mode, endpoint.api.url + "/a"), env=state)
        assert r.code == 0, r
        assert "tok-1" not in r.out and SECRET not in r.out and "Bearer <oauth2 token>" in r.out
    assert len(endpoint.api.requests) == 2 and endpoint.issued == [None]


def test_missing_token_url_or_client_is_refused(endpoint, state):
    r = run(["-A", "oauth2", "-a", "id:secret", endpoint.api.url + "/a"], env=state)
    assert r.code == 2 and r.err == "afcli: error: -A oauth2 needs --oauth2-token-url URL\n", r
    r = run(["-A", "oauth2", "--oauth2-token-url", endpoint.tokens.url, "-a", "id-only", endpoint.api.url + "/a"],
            env=state)
    assert r.code == 2 and "-A oauth2 needs the client's id and secret" in r.err, r
    assert endpoint.api.requests == [] and endpoint.tokens.requests == []


def test_download_refuses_oauth2_and_sends_nothing(endpoint, state, tmp_path):
    r = run(["download", "-A", "oauth2", "-a", f"{CLIENT}:{SECRET}", endpoint.api.url + "/f",
             "-o", str(tmp_path / "f")], env=state)
    assert r.code == 2, r
    assert r.err.startswith("afcli: error: -A oauth2 is not available for afcli download"), r
    assert not (tmp_path / "f").exists()
    assert endpoint.api.requests == [] and endpoint.tokens.requests == []


def test_a_planted_link_in_the_store_is_not_followed(endpoint, state, tmp_path):
    r = run(endpoint.args(endpoint.api.url + "/a"), env=state)
    assert r.code == 0, r
    [stored] = list((tmp_path / "state" / "afcli" / "tokens").iterdir())
    target = tmp_path / "elsewhere.json"
    target.write_text('{"access_token":"planted"}')
    stored.unlink()
    os.symlink(target, stored)
    r = run(endpoint.args(endpoint.api.url + "/b"), env=state)
    assert r.code == 0, r
    assert sent_tokens(endpoint)[-1] == "Bearer tok-2"
    assert target.read_text() == '{"access_token":"planted"}'


@pytest.mark.parametrize("planted", ["afcli", "afcli/tokens"])
def test_a_planted_link_at_the_token_directory_is_not_followed(endpoint, state, tmp_path, planted):
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "tokens").mkdir(parents=True)
    link = tmp_path / "state" / planted
    link.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(elsewhere / "tokens" if planted.endswith("tokens") else elsewhere, link)
    r = run(endpoint.args(endpoint.api.url + "/a"), env=state)
    assert r.code == 0, r
    assert list((elsewhere / "tokens").iterdir()) == []
    # A token put where the link leads is not read either: each invocation fetches its own.
    planted_directory = run(endpoint.args(endpoint.api.url + "/b"), env=state)
    assert planted_directory.code == 0, planted_directory
    assert sent_tokens(endpoint) == ["Bearer tok-1", "Bearer tok-2"]
    assert os.path.islink(link)


def test_a_token_file_left_where_a_link_leads_is_not_read(endpoint, state, tmp_path):
    r = run(endpoint.args(endpoint.api.url + "/a"), env=state)
    assert r.code == 0, r
    directory = tmp_path / "state" / "afcli" / "tokens"
    [stored] = list(directory.iterdir())
    elsewhere = tmp_path / "elsewhere"
    directory.rename(elsewhere)
    os.symlink(elsewhere, directory)
    stored_elsewhere = elsewhere / stored.name
    stored_elsewhere.write_text('{"access_token":"planted"}')
    r = run(endpoint.args(endpoint.api.url + "/b"), env=state)
    assert r.code == 0, r
    assert sent_tokens(endpoint) == ["Bearer tok-1", "Bearer tok-2"]
    assert stored_elsewhere.read_text() == '{"access_token":"planted"}'


def test_without_a_the_client_comes_from_netrc_for_the_token_host(state, tmp_path):
    e = Endpoint(password="netrc-secret")
    try:
        netrc = tmp_path / "netrc"
        netrc.write_text(f"machine 127.0.0.1 login {CLIENT} password netrc-secret\n")
        netrc.chmod(0o600)
        env = dict(state, NETRC=str(netrc))
        r = run(["-A", "oauth2", "--oauth2-token-url", e.tokens.url + "/token", e.api.url + "/a"], env=env)
        assert r.code == 0, r
        assert sent_tokens(e) == ["Bearer tok-1"]
        # Without netrc the endpoint refuses the anonymous client, and the API is not called.
        e.fail = 401
        r = run(["-A", "oauth2", "--oauth2-token-url", e.tokens.url + "/other", e.api.url + "/b"], env=state)
        assert r.code == 1 and "answered 401: invalid_client" in r.err, r
        assert len(e.api.requests) == 1
    finally:
        e.stop()


def test_with_a_session_the_token_is_kept_in_the_session_file(endpoint, state, tmp_path):
    session = tmp_path / "s.json"
    for path in ["/a", "/b"]:
        r = run(endpoint.args("--session", str(session), endpoint.api.url + path), env=state)
        assert r.code == 0, r
    assert endpoint.issued == [None]
    assert sent_tokens(endpoint) == ["Bearer tok-1", "Bearer tok-1"]
    stored = json.loads(session.read_text())
    [(key, entry)] = stored["afcli_oauth2_tokens"].items()
    assert entry["access_token"] == "tok-1" and entry["expires_at"] > time.time()
    assert stat.S_IMODE(session.stat().st_mode) == 0o600
    assert SECRET not in session.read_text()
    assert not (tmp_path / "state" / "afcli" / "tokens").exists()


def test_a_run_line_says_oauth2_itself_with_the_runs_token_url_but_cannot_give_its_own(endpoint, state):
    source = f"get {endpoint.api.url}/a -A oauth2\n".encode()
    r = run(["run", "-", "--oauth2-token-url", endpoint.tokens.url + "/token", "-a", f"{CLIENT}:{SECRET}"],
            input=source, env=state)
    assert r.code == 0, r
    assert sent_tokens(endpoint) == ["Bearer tok-1"]
    r = run(["run", "-", *endpoint.args()], input=f"get {endpoint.api.url}/b --oauth2-scope x\n".encode(), env=state)
    assert r.code == 2, r
    assert "--oauth2-scope" in r.err
    assert len(endpoint.api.requests) == 1
