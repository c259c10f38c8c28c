"""--curl: the printed command, run by the system curl through sh, sends what afcli sends.

Each test sends a request with afcli to the recording loopback server, then asks afcli for the
curl command (which must send nothing), runs that line with `sh -c` (so the POSIX quoting is
exercised too) and compares the two requests: method, target, HTTP version, headers as a multiset
and body bytes. Multipart bodies sent with curl's -F are compared part by part, since curl picks
its own boundary; that boundary (in Content-Type and the body) is the only documented difference.
"""

import shlex
import shutil
import subprocess
from collections import Counter

import pytest

from conftest import base_env, run
from loopback import Response, UnixSocketServer

pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")


def curl_line(args, cwd=None, input=None, env=None):
    """The command afcli prints for `args`; asserts one line on stdout and a zero exit."""
    result = run(["--curl", *args], cwd=cwd, input=input, env=env)
    assert result.code == 0, result
    text = result.stdout.decode()
    assert text.endswith("\n") and text.count("\n") == 1, text
    return text[:-1], result.stderr.decode()


def run_curl(line, cwd=None, input=None, home=None):
    proc = subprocess.run(
        ["sh", "-c", line + " --silent --show-error --output /dev/null"], cwd=cwd, input=input,
        capture_output=True, env=base_env({"HOME": str(home)} if home else None), timeout=30)
    assert proc.returncode == 0, proc.stderr


def normalized(request, multipart=False):
    # libcurl orders the cookies of its engine by path and name, curl's --cookie pairs come after
    # the engine's: the Cookie header is compared as a set of pairs.
    headers = Counter((n.lower(), "; ".join(sorted(v.split("; "))) if n.lower() == "cookie" else v)
                      for n, v in request.headers)
    body = request.body
    if multipart:
        ctype = request.header("Content-Type")
        assert ctype.startswith("multipart/form-data; boundary=")
        headers[("content-type", ctype)] -= 1
        headers[("content-length", request.header("Content-Length"))] -= 1
        boundary = ctype.split("boundary=", 1)[1].encode()
        body = body.split(b"--" + boundary)
    return request.method, request.target, request.version, +headers, body


def compare(server, args, cwd=None, input=None, curl_input=None, multipart=False, home=None, env=None):
    """Sends with afcli, then with the printed curl command; returns the printed line and notes."""
    server.requests.clear()
    sent = run(args, cwd=cwd, input=input, env=env)
    assert sent.code == 0, sent
    ours = list(server.requests)
    server.requests.clear()
    line, notes = curl_line(args, cwd=cwd, input=input, env=env)
    assert server.requests == [], "--curl sent a request"
    run_curl(line, cwd=cwd, input=curl_input if curl_input is not None else input, home=home)
    theirs = list(server.requests)
    assert len(ours) == len(theirs) >= 1
    for hop, (a, b) in enumerate(zip(ours, theirs)):
        mine, curls = normalized(a, multipart), normalized(b, multipart)
        if hop > 0 and a.method == "GET":
            # Documented: after a redirect to GET, curl keeps the -H body headers afcli drops.
            curls[3].pop(("content-type", b.header("Content-Type")), None)
        assert mine == curls, (a.raw_head, b.raw_head)
    return line, notes


def test_get_with_query_and_headers(server, tmp_path):
    # A ~/.curlrc of the user's must not change what the printed command sends.
    (tmp_path / ".curlrc").write_text('header = "X-From-Curlrc: 1"\nrequest = "PATCH"\n')
    line, _ = compare(server, [f"{server.url}/get", "q==a b", "X-Quote:it's \"x\"", "X-Uni:é✓",
                               "search==ünï"], home=tmp_path)
    assert line.startswith("curl ")
    assert "--request" not in line


def test_json_post(server):
    line, _ = compare(server, ["post", f"{server.url}/post", "a=1", "b:=[1,2]", "X-Y:z"])
    assert "--request" not in line


def test_form(server):
    compare(server, ["--form", "put", f"{server.url}/put", "name=A B&C", "x=\nnew line"])


def test_file_body_stays_at_file(server, tmp_path):
    (tmp_path / "data.json").write_bytes(b'{"k": "v"}\n\x01')
    line, _ = compare(server, ["post", f"{server.url}/post", "@data.json"], cwd=tmp_path)
    assert "--data-binary @data.json" in line


def test_multipart_parts_compared(server, tmp_path):
    (tmp_path / "a.txt").write_text("file text\n")
    (tmp_path / "b.bin").write_bytes(bytes(range(256)))
    line, notes = compare(server, ["--multipart", "post", f"{server.url}/post", "f=v", "g=ü 'q'",
                                   "doc@a.txt", "blob@b.bin"], cwd=tmp_path, multipart=True)
    assert "--form-string" in line and "--form" in line
    assert "boundary" in notes


def test_multipart_curl_cannot_write_reads_stdin(server, tmp_path):
    (tmp_path / "semi;colon.txt").write_text("x")
    result = run(["--multipart", "--boundary=xyz", "--offline", "--print=B", "post", f"{server.url}/post",
                  "doc@semi;colon.txt"], cwd=tmp_path)
    assert result.code == 0, result
    line, notes = compare(server, ["--multipart", "--boundary=xyz", "post", f"{server.url}/post",
                                   "doc@semi;colon.txt"], cwd=tmp_path, curl_input=result.stdout)
    assert "--data-binary @-" in line and "-F" not in line
    assert "--boundary=xyz" in notes


def test_compress_body_from_stdin(server):
    server.requests.clear()
    args = ["--compress", "post", f"{server.url}/post", "text=" + "a" * 500]
    assert run(args).code == 0
    deflated = server.requests[0].body
    line, notes = compare(server, args, curl_input=deflated)
    assert "--data-binary @-" in line and "not text" in notes


def test_chunked(server):
    line, _ = compare(server, ["--chunked", "post", f"{server.url}/post", "a=1"])
    assert server.requests[-1].chunked


def test_stdin_body(server):
    line, notes = compare(server, ["put", f"{server.url}/put"], input=b"raw\x00bytes")
    assert "--data-binary @-" in line
    assert notes == (
        "afcli: note: the body is read from standard input (--data-binary @-): pipe into curl what you piped "
        "into afcli\n")


def test_http1_1_forced(server):
    line, _ = compare(server, ["--http1.1", f"{server.url}/get"])
    assert "--http1.1" in line


def test_basic_auth(server):
    line, _ = compare(server, ["-a", "ann:s3cr'et", f"{server.url}/get"])
    assert "Authorization: Basic" in line


def test_removed_and_empty_headers(server):
    line, _ = compare(server, ["delete", f"{server.url}/x", "Accept:", "User-Agent:", "X-Empty;"])
    assert "--request DELETE" in line


def test_head_and_empty_post(server):
    compare(server, ["head", f"{server.url}/h"])
    compare(server, ["post", f"{server.url}/p"])
    compare(server, ["patch", f"{server.url}/p"])


def test_follow(server):
    def handler(request):
        if request.target == "/start":
            return Response(status=302, reason="Found", headers=[("Location", "/end")], body=b"")
        return Response()
    server.handler = handler
    line, notes = compare(server, ["--follow", "post", f"{server.url}/start", "a=1"])
    assert "--location --max-redirs 30" in line
    assert [r.method for r in server.requests] == ["POST", "GET"]
    assert "Content-Type" in notes


def test_network_and_tls_flags_are_printed(server, tmp_path):
    line, notes = curl_line(["--verify=no", "--resolve", "example.test:80:127.0.0.1", "--connect-to",
                             "a:1:b:2", "-4", "--interface", "lo", "--limit-rate", "1000", "--max-filesize",
                             "99", "--max-time", "1.25", "--connect-timeout", "3", "--timeout", "7",
                             "--proxy", "http:http://127.0.0.1:9", "--noproxy", "x.test",
                             "--http2-prior-knowledge", "https://example.test/"])
    argv = shlex.split(line)
    for flag in ["--insecure", "--ipv4", "--http2-prior-knowledge"]:
        assert flag in argv
    pairs = list(zip(argv, argv[1:]))
    for pair in [("--resolve", "example.test:80:127.0.0.1"), ("--connect-to", "a:1:b:2"),
                 ("--interface", "lo"), ("--limit-rate", "1000"), ("--max-filesize", "99"),
                 ("--max-time", "1.25"), ("--connect-timeout", "3"), ("--speed-time", "7"),
                 ("--noproxy", "x.test")]:
        assert pair in pairs, pair
    # The http proxy is not used for an https URL.
    assert "--proxy" not in argv
    assert "speed" in notes


def test_the_idle_timeout_note_names_its_seconds():
    line, notes = curl_line(["--timeout", "4.2", "http://127.0.0.1:9/"])
    assert ("--speed-time", "5") in list(zip(shlex.split(line), shlex.split(line)[1:]))
    assert "--speed-limit 1 --speed-time 5 approximates" in notes, notes


def test_a_huge_time_limit_prints_the_limit_libcurl_gets():
    # 300 digits is still a finite number of seconds (400 overflow and are refused as no number).
    line, _ = curl_line(["--max-time", "9" * 300, "--connect-timeout", "9" * 20, "http://127.0.0.1:9/"])
    pairs = list(zip(shlex.split(line), shlex.split(line)[1:]))
    assert ("--max-time", "2147483.647") in pairs and ("--connect-timeout", "2147483.647") in pairs


def test_a_time_limit_too_large_for_a_number_is_refused():
    result = run(["--curl", "--max-time", "9" * 400, "http://127.0.0.1:9/"])
    assert result.code == 2 and b"is not a positive number of seconds" in result.stderr, result


def test_typed_digest_password_is_shown_as_typed(server):
    line, _ = curl_line(["--auth-type", "digest", "-a", "ann:pw", f"{server.url}/get"])
    argv = shlex.split(line)
    assert argv[argv.index("--user") + 1] == "ann:pw" and "--digest" in argv


def test_resolve_and_connect_to(server):
    port = server.port
    line, _ = compare(server, ["--resolve", f"example.test:{port}:127.0.0.1", f"http://example.test:{port}/r"])
    assert server.requests[-1].header("Host") == f"example.test:{port}"
    compare(server, ["--connect-to", f"other.test:80:127.0.0.1:{port}", "http://other.test/c", "-4"])
    assert server.requests[-1].header("Host") == "other.test"


def test_curl_with_a_missing_file_is_bad_input_and_sends_nothing(server, tmp_path):
    result = run(["--curl", "post", f"{server.url}/p", "@missing.json"], cwd=tmp_path)
    assert result.code == 2 and result.stdout == b"" and b"afcli: error:" in result.stderr
    assert server.requests == []


def sets_cookie(request):
    if request.target.startswith("/set"):
        return Response(headers=[("Set-Cookie", "sid=abc; Path=/"), ("Content-Type", "application/json")])
    return Response()


def test_session_cookies_and_auth_are_sent_and_redacted(server, tmp_path):
    server.handler = sets_cookie
    env = {"AFCLI_CONFIG_DIR": str(tmp_path / "cfg"), "HOME": str(tmp_path)}
    assert run(["--session=dev", f"{server.url}/set", "-a", "ann:pw", "X-Team:web"], env=env).code == 0
    line, _ = compare(server, ["--session=dev", "--show-secrets", f"{server.url}/get", "Cookie:k=v"], env=env)
    assert server.requests[-1].header("Cookie") in ("sid=abc; k=v", "k=v; sid=abc")
    assert server.requests[-1].header("Authorization").startswith("Basic ")
    redacted, _ = curl_line(["--session=dev", f"{server.url}/get"], env=env)
    argv = shlex.split(redacted)
    assert argv[argv.index("--cookie") + 1] in ("sid=<redacted>; k=<redacted>", "k=<redacted>; sid=<redacted>")
    assert "Authorization: <redacted>" in argv and "X-Team: <redacted>" in argv
    assert "abc" not in redacted and "YW5uOnB3" not in redacted


def test_cookie_jar_is_read_and_written_as_curl_does(server, tmp_path):
    jar = tmp_path / "cookies.txt"
    jar.write_text("# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tjar\tv1\n")
    jar.chmod(0o600)
    line, _ = compare(server, ["--cookie-jar", str(jar), f"{server.url}/get"])
    assert server.requests[-1].header("Cookie") == "jar=v1"
    assert f"--cookie {jar} --cookie-jar {jar}" in line


def test_netrc(server, tmp_path):
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login ann password pw\n")
    netrc.chmod(0o600)
    line, _ = compare(server, [f"{server.url}/get"], env={"NETRC": str(netrc)})
    assert server.requests[-1].header("Authorization") == "Basic YW5uOnB3"
    assert f"--netrc-optional --netrc-file {netrc}" in line


def test_location_trusted_keeps_credentials_on_another_host(server):
    port = server.port

    def handler(request):
        if request.target == "/start":
            return Response(status=302, reason="Found", headers=[("Location", f"http://other.test:{port}/end")],
                            body=b"")
        return Response()
    server.handler = handler
    args = ["--follow", "--resolve", f"other.test:{port}:127.0.0.1", "-a", "ann:pw", f"{server.url}/start"]
    compare(server, args)
    assert server.requests[-1].header("Authorization") is None
    line, _ = compare(server, ["--location-trusted", *args])
    assert server.requests[-1].header("Authorization") == "Basic YW5uOnB3"
    assert "--location-trusted" in line


def test_curl_is_refused_where_there_is_no_request_to_print(server, tmp_path):
    for args in (["download", "--curl", f"{server.url}/f"], ["pin", "--curl", "https://127.0.0.1:1/"]):
        result = run(args, cwd=tmp_path)
        assert result.code == 2 and b"--curl" in result.stderr, result
    assert server.requests == [] and list(tmp_path.iterdir()) == []


def test_unix_socket(tmp_path):
    path = tmp_path / "http.sock"
    args = ["http://sock.test/over/unix", "q==1", "--unix-socket", str(path)]
    with UnixSocketServer(path, b"ok\n", count=2) as unix:
        assert run(args, timeout=10).code == 0
        line, _ = curl_line(args)
        run_curl(line)
    heads = unix.heads
    assert f"--unix-socket {path}" in line
    first, second = ([l for l in h.split(b"\r\n") if l] for h in heads)
    assert first[0] == second[0] == b"GET /over/unix?q=1 HTTP/1.1"
    assert Counter(first[1:]) == Counter(second[1:])


def test_long_body_is_read_from_stdin(server):
    args = ["post", f"{server.url}/post", "text=" + "x" * (70 * 1024)]
    assert run(args).code == 0
    body = server.requests[-1].body
    line, notes = compare(server, args, curl_input=body)
    assert "--data-binary @-" in line and "too long" in notes and len(line) < 4096
