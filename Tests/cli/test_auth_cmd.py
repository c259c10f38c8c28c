"""--auth-cmd: a command run for every request, after encryption and compression, with the
method, URL and the SHA-256 of the body as sent in its environment; the header lines it prints
are added, and its failure stops the request before anything is sent."""

import hashlib
import json

from conftest import run

HMAC_CMD = ('printf "X-Signature: %s\\n" "$(printf "%s\\n%s\\n%s" "$AFCLI_METHOD" "$AFCLI_URL" '
            '"$AFCLI_BODY_SHA256" | sha256sum | cut -d" " -f1)"; echo "X-Key: k1"')


def expected(method, url, body):
    text = f"{method}\n{url}\n{hashlib.sha256(body).hexdigest()}".encode()
    return hashlib.sha256(text).hexdigest()


def test_the_command_sees_method_url_and_body_digest_and_its_headers_are_sent(server):
    r = run(["post", "--auth-cmd", HMAC_CMD, server.url + "/a?x=1", "name=ann"])
    assert r.code == 0, r
    sent = server.requests[0]
    assert sent.header("X-Signature") == expected("POST", server.url + "/a?x=1", sent.body)
    assert sent.header("X-Key") == "k1"


def test_an_empty_body_and_a_streamed_file(server, tmp_path):
    r = run(["--auth-cmd", HMAC_CMD, server.url + "/e"])
    assert r.code == 0, r
    path = tmp_path / "big.bin"
    path.write_bytes(b"\x01\x02" * 600_000)
    r = run(["put", "--auth-cmd", HMAC_CMD, server.url + "/f", f"@{path}"])
    assert r.code == 0, r
    empty, streamed = server.requests
    assert empty.header("X-Signature") == expected("GET", server.url + "/e", b"")
    assert streamed.body == path.read_bytes()
    assert streamed.header("X-Signature") == expected("PUT", server.url + "/f", streamed.body)


def test_the_digest_is_of_the_body_as_sent_after_encryption_and_compression(server):
    r = run(["post", "--encrypt-cmd", "rev", "--compress", "--auth-cmd", HMAC_CMD, server.url + "/c",
             "text=" + "abc" * 500])
    assert r.code == 0, r
    sent = server.requests[0]
    assert sent.header("Content-Encoding") == "deflate"
    assert sent.header("X-Signature") == expected("POST", server.url + "/c", sent.body)


def test_a_printed_header_replaces_one_of_the_same_name(server):
    r = run(["--auth-cmd", "echo 'authorization: Token abc'", server.url + "/r", "Authorization:old"])
    assert r.code == 0, r
    assert server.requests[0].header_all("Authorization") == ["Token abc"]


def test_every_request_of_a_run_lines_and_http_file(server, tmp_path):
    r = run(["run", "-", "--auth-cmd", HMAC_CMD], input=f"get {server.url}/1\npost {server.url}/2 a=b\n".encode())
    assert r.code == 0, r
    http = tmp_path / "a.http"
    http.write_text(f"POST {server.url}/3\nContent-Type: text/plain\n\nhi\n")
    r = run(["run", str(http), "--auth-cmd", HMAC_CMD])
    assert r.code == 0, r
    assert len(server.requests) == 3
    for sent in server.requests:
        assert sent.header("X-Signature") == expected(sent.method, server.url + sent.target, sent.body)


def test_a_failing_command_stops_the_request_before_anything_is_sent(server):
    r = run(["--auth-cmd", "echo nope >&2; exit 3", server.url + "/x"])
    assert r.code == 2, r
    assert r.err.startswith("afcli: error: the auth command failed with exit status 3")
    assert "nope" in r.err
    assert server.requests == []


def test_a_line_that_is_not_a_header_stops_the_request(server):
    r = run(["--auth-cmd", "echo 'X-Ok: 1'; echo 'not a header'", server.url + "/x"])
    assert r.code == 2, r
    assert r.err == "afcli: error: --auth-cmd printed a line that is not a header (Name: value) on line 2: 'not a header'\n"
    assert server.requests == []


def test_in_a_run_a_failing_command_fails_that_request_alone(server):
    cmd = 'case "$AFCLI_URL" in *bad*) exit 1;; *) echo "X-Ok: 1";; esac'
    r = run(["run", "-", "--keep-going", "--auth-cmd", cmd],
            input=f"get {server.url}/good\nget {server.url}/bad\nget {server.url}/good2\n".encode())
    assert r.code == 2, r
    assert [s.target for s in server.requests] == ["/good", "/good2"]


def test_offline_shows_the_added_headers(server):
    r = run(["--offline", "--auth-cmd", "echo 'X-Api-Sig: abc'", server.url + "/x"])
    assert r.code == 0, r
    assert "X-Api-Sig: abc" in r.out
    assert server.requests == []


def test_in_default_options_for_a_request_and_a_run_and_on_a_run_line(server, tmp_path):
    directory = tmp_path / "config"
    directory.mkdir()
    (directory / "config.json").write_text(json.dumps({"default_options": ["--auth-cmd", "echo 'X-From: config'"]}))
    (directory / "config.json").chmod(0o600)
    env = {"AFCLI_CONFIG_DIR": str(directory), "HOME": str(tmp_path)}
    r = run([server.url + "/1"], env=env)
    assert r.code == 0, r
    r = run(["run", "-"], input=f"get {server.url}/2\nget {server.url}/3 --auth-cmd 'echo X-From: line'\n".encode(),
            env=env)
    assert r.code == 0, r
    assert [s.header("X-From") for s in server.requests] == ["config", "config", "line"]


def test_a_short_body_on_standard_input_is_hashed_a_long_one_is_refused(server):
    r = run(["post", "--auth-cmd", HMAC_CMD, server.url + "/in"], input=b"small body")
    assert r.code == 0, r
    assert server.requests[0].header("X-Signature") == expected("POST", server.url + "/in", b"small body")
    r = run(["post", "--auth-cmd", HMAC_CMD, server.url + "/in"], input=b"x" * 300_000)
    assert r.code == 2, r
    assert "--auth-cmd needs the body's SHA-256, and a long body from standard input cannot be read twice" in r.err
    assert len(server.requests) == 1
