"""HTTP/2, routing options, body framing, receive rate and HSTS, against servers on loopback.

nginx (Debian's, built with the http2 module) serves h2 over TLS and h2c with prior knowledge;
the in-process loopback server records request bytes; a tiny server on a Unix socket in a temp
directory answers --unix-socket. Host names are mapped to 127.0.0.1 with --resolve/--connect-to,
so nothing is looked up or sent off this machine.
"""

import os
import re
import socket
import stat
import subprocess
import time
import zlib

import pytest

from conftest import free_port, run, run_tty
from loopback import LoopbackServer, Response, UnixSocketServer
from nginx import NginxServer, TLSConfig


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    """A CA and a leaf for localhost, 127.0.0.1 and hsts.test (EC keys: fast)."""
    d = tmp_path_factory.mktemp("certs")
    key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl("req", "-x509", *key, "-keyout", "ca.key", "-out", "ca.pem", "-days", "30",
            "-subj", "/CN=afcli network test CA", cwd=d)
    openssl("req", *key, "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=localhost", cwd=d)
    (d / "leaf.ext").write_text("basicConstraints=CA:FALSE\n"
                                "subjectAltName=DNS:localhost,DNS:hsts.test,IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "leaf.pem", "-days", "30", "-extfile", "leaf.ext", cwd=d)
    return d


@pytest.fixture(scope="module")
def www(tmp_path_factory):
    d = tmp_path_factory.mktemp("www")
    (d / "hello.txt").write_text("hello\n")
    return d


@pytest.fixture(scope="module")
def h2tls(certs, www):
    sts = 'location = /sts { add_header Strict-Transport-Security "max-age=3600" always; return 200 "sts\\n"; }'
    with NginxServer(www, tls=TLSConfig(certs / "leaf.pem", certs / "leaf.key"), http2=True,
                     extra_server=sts) as srv:
        yield srv


@pytest.fixture(scope="module")
def h2c(www):
    with NginxServer(www, http2=True) as srv:
        yield srv


# MARK: - HTTP/2

def test_https_negotiates_http2_and_prints_a_reason_phrase(h2tls, certs):
    r = run([f"--verify={certs / 'ca.pem'}", f"{h2tls.url}/hello.txt", "--print=hbm"])
    assert r.code == 0, r
    head = r.out.split("\n\n")[0]
    assert head.startswith("HTTP/2 200 OK\n"), r.out
    # h2 field names arrive in lower case and are shown as received.
    assert re.search(r"^content-length: 6$", head, re.M), head
    assert not re.search(r"^:status", head, re.M), head
    assert "hello\n" in r.out
    assert "Protocol: HTTP/2\n" in r.out


def test_verbose_shows_the_http2_request_line(h2tls, certs):
    r = run([f"--verify={certs / 'ca.pem'}", f"{h2tls.url}/hello.txt", "-v"])
    assert r.code == 0, r
    assert "GET /hello.txt HTTP/2\n" in r.out, r.out
    assert "HTTP/2 200 OK\n" in r.out


def test_http1_1_switch_keeps_http1_over_tls(h2tls, certs):
    r = run([f"--verify={certs / 'ca.pem'}", f"{h2tls.url}/hello.txt", "--http1.1", "--print=h"])
    assert r.code == 0, r
    assert r.out.startswith("HTTP/1.1 200 OK\n"), r.out
    assert "Content-Length: 6" in r.out


def test_http2_not_found_gets_its_phrase_in_the_warning(h2tls, certs):
    r = run([f"--verify={certs / 'ca.pem'}", f"{h2tls.url}/missing"])
    assert r.code == 4, r
    assert "HTTP 404 Not Found" in r.err, r.err


def test_h2c_prior_knowledge(h2c):
    r = run([f"{h2c.url}/hello.txt", "--http2-prior-knowledge", "--print=hb"])
    assert r.code == 0, r
    assert r.out.startswith("HTTP/2 200 OK\n"), r.out
    assert r.out.endswith("hello\n")


def test_http3_is_refused_naming_the_libcurl_version(server):
    r = run([server.url + "/x", "--http3"])
    assert r.code == 2, r
    assert re.fullmatch(r"afcli: error: --http3: libcurl \d+\.\d+\.\d+ was built without HTTP/3, "
                        r"so afcli cannot use it\n", r.err), r.err
    assert server.requests == []


# MARK: - Routing

def test_connect_to_keeps_the_url_host(server):
    r = run(["http://example.invalid:1/x", "--connect-to", f"example.invalid:1:127.0.0.1:{server.port}"])
    assert r.code == 0, r
    assert server.requests[0].header("Host") == "example.invalid:1"


def test_connect_to_rejects_a_malformed_entry(server):
    r = run([server.url, "--connect-to", "a:b:c"])
    assert r.code == 2, r
    assert "--connect-to" in r.err and server.requests == []


def has_ipv6_loopback():
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def test_ipv4_only_reaches_the_ipv4_server(server):
    r = run([f"http://localhost:{server.port}/four", "-4"])
    assert r.code == 0, r
    assert server.requests[0].target == "/four"


@pytest.mark.skipif(not has_ipv6_loopback(), reason="no IPv6 loopback on this machine")
def test_ipv6_only_reaches_the_ipv6_server_and_not_the_ipv4_one(server):
    v6 = LoopbackServer("::1")
    try:
        r = run([f"http://[::1]:{v6.port}/six", "-6"])
        assert r.code == 0, r
        assert v6.requests[0].target == "/six"
        # An IPv4 address cannot be reached with -6.
        r = run([f"http://127.0.0.1:{server.port}/no", "-6"])
        assert r.code == 8 and server.requests == [], r
    finally:
        v6.stop()


def test_unix_socket(tmp_path):
    path = tmp_path / "http.sock"
    with UnixSocketServer(path, b"unix\n") as unix:
        r = run(["http://sock.test/over/unix", "--unix-socket", str(path)], timeout=10)
    seen = unix.heads
    assert r.code == 0, r
    assert r.stdout == b"unix\n"
    assert seen[0].startswith(b"GET /over/unix HTTP/1.1\r\n")
    assert b"\r\nHost: sock.test\r\n" in seen[0]


def test_a_unix_socket_that_cannot_be_reached_is_named(tmp_path):
    missing = tmp_path / "missing.sock"
    r = run(["http://sock.test/x", "--unix-socket", str(missing)], timeout=10)
    assert r.code == 8, r
    assert r.err == f"afcli: error: cannot connect to the Unix socket {missing}: no such file or directory\n"
    idle = tmp_path / "idle.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(idle))
    listener.close()  # bound, never listening: connections are refused
    r = run(["http://sock.test/x", "--unix-socket", str(idle)], timeout=10)
    assert r.code == 8, r
    assert r.err == f"afcli: error: cannot connect to the Unix socket {idle}: connection refused\n"


def test_noproxy_bypasses_the_proxy(server):
    # The proxy is a closed port: only a bypass can reach the server.
    dead = socket.socket()
    dead.bind(("127.0.0.1", 0))
    port = dead.getsockname()[1]
    dead.close()
    r = run([server.url + "/direct", "--proxy", f"http://127.0.0.1:{port}", "--noproxy", "127.0.0.1"])
    assert r.code == 0, r
    assert server.requests[0].target == "/direct"
    r = run([server.url + "/via", "--proxy", f"http://127.0.0.1:{port}"])
    assert r.code == 8, r


def test_lower_case_proxy_variable_is_used_and_upper_case_http_proxy_is_not(server):
    # libcurl reads http_proxy only in lower case (HTTP_PROXY can be set by a CGI request header).
    target = "http://origin.invalid/through"
    r = run([target], env={"http_proxy": server.url})
    assert r.code == 0, r
    assert server.requests[0].target == target
    r = run([target], env={"HTTP_PROXY": server.url})
    assert r.code == 8, r
    assert len(server.requests) == 1


# MARK: - Body framing

def test_chunked_sends_transfer_encoding_and_prints_it(server):
    r = run([server.url + "/post", "a=1", "--chunked", "-v"])
    assert r.code == 0, r
    request = server.requests[0]
    assert request.chunked and request.body == b'{"a":"1"}'
    assert request.header("Content-Length") is None
    printed = r.out.split("\n\n")[0]
    assert "Transfer-Encoding: chunked" in printed and "Content-Length" not in printed, printed


def test_chunked_offline_head_matches_what_is_sent(server):
    r = run([server.url + "/post", "a=1", "--chunked", "--offline", "--print=H"])
    assert r.code == 0, r
    assert "Transfer-Encoding: chunked" in r.out and "Content-Length" not in r.out, r.out


# MARK: - Receive rate

def test_limit_rate_slows_the_response(server):
    body = os.urandom(250 * 1024)
    server.handler = lambda request: Response(headers=[("Content-Type", "application/octet-stream")], body=body)
    start = time.monotonic()
    r = run([server.url + "/big", "--limit-rate", "100k"], timeout=30)
    elapsed = time.monotonic() - start
    assert r.code == 0, r
    assert r.stdout == body
    # 250 KiB at 100 KiB/s: about 1.5 s (libcurl lets the first second through at once); an
    # unthrottled loopback transfer takes milliseconds.
    assert elapsed >= 1.0, elapsed


def test_limit_rate_rejects_nonsense(server):
    r = run([server.url, "--limit-rate", "fast"])
    assert r.code == 2 and server.requests == [], r


# MARK: - HSTS

def test_hsts_is_remembered_and_upgrades_plain_http(h2tls, certs, tmp_path):
    state = tmp_path / "state"
    env = {"XDG_STATE_HOME": str(state)}
    route = ["--resolve", f"hsts.test:{h2tls.port}:127.0.0.1", f"--verify={certs / 'ca.pem'}"]
    # A plain http request with no cache creates nothing.
    r = run(["http://hsts.test:1/", "--connect-to", f"hsts.test:1:127.0.0.1:{h2tls.port}", "--no-check-status"],
            env=env)
    assert not state.exists(), r

    r = run([f"https://hsts.test:{h2tls.port}/sts", *route], env=env)
    assert r.code == 0, r
    cache = state / "afcli" / "hsts.txt"
    assert cache.exists(), r
    assert "hsts.test" in cache.read_text()
    assert stat.S_IMODE((state / "afcli").stat().st_mode) == 0o700
    assert stat.S_IMODE(cache.stat().st_mode) & 0o077 == 0

    # Plain http to the TLS port: nginx answers 400 unless libcurl upgrades the request to https.
    r = run([f"http://hsts.test:{h2tls.port}/hello.txt", *route], env=env)
    assert r.code == 0, r
    assert r.stdout == b"hello\n"
    r = run([f"http://hsts.test:{h2tls.port}/hello.txt", *route, "--no-hsts"], env=env)
    assert r.code == 4, r


def test_a_policy_learned_in_a_run_upgrades_a_later_request_on_another_handle(h2tls, certs, server, tmp_path):
    # The run's transfers share one HSTS cache: `c` waits for `a` (which sets the policy) and for
    # `b` (slower, on another handle, which ends last and so is the handle `c` runs on), and is
    # upgraded. Each handle with a cache of its own missed the policy and sent plain http to
    # the TLS port (400). The file is written when the run ends.
    state = tmp_path / "state"
    env = {"XDG_STATE_HOME": str(state)}

    def slow(request):
        time.sleep(0.5)
        return Response(body=b'{"ok":true}')

    server.handler = slow
    plan = tmp_path / "hsts.http"
    plan.write_text(f"""### a
# @name a
GET https://hsts.test:{h2tls.port}/sts

### b
# @name b
GET {server.url}/slow

### c
GET http://hsts.test:{h2tls.port}/hello.txt?a={{{{a.response.headers.Content-Type}}}}&b={{{{b.response.body.$.ok}}}}
""")
    r = run(["run", str(plan), "--parallel", "2", "--resolve", f"hsts.test:{h2tls.port}:127.0.0.1",
             f"--verify={certs / 'ca.pem'}"], env=env)
    assert r.code == 0, r
    assert "hsts.test" in (state / "afcli" / "hsts.txt").read_text()


def test_an_hsts_upgrade_is_said_under_verbose_and_in_the_error(h2tls, certs, tmp_path):
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    route = ["--resolve", f"hsts.test:{h2tls.port}:127.0.0.1", f"--verify={certs / 'ca.pem'}"]
    assert run([f"https://hsts.test:{h2tls.port}/sts", *route], env=env).code == 0
    url = f"http://hsts.test:{h2tls.port}/hello.txt"
    note = f"afcli: note: {url} was upgraded to https by HSTS; --no-hsts to skip\n"
    verbose = run([url, *route, "-v"], env=env)
    assert verbose.code == 0 and note in verbose.err, verbose
    quiet = run([url, *route], env=env)
    assert quiet.code == 0 and quiet.err == "", quiet
    # The upgraded connection fails (nothing listens on that port): the error says why https.
    closed = free_port()
    failed = run([f"http://hsts.test:{closed}/", "--resolve", f"hsts.test:{closed}:127.0.0.1"], env=env)
    assert failed.code == 8, failed
    assert failed.err.startswith("afcli: error: ") and failed.err.count("\n") == 1, failed
    assert failed.err.endswith(" (upgraded to https by HSTS; --no-hsts to skip)\n"), failed
    plain = run([f"http://hsts.test:{closed}/", "--resolve", f"hsts.test:{closed}:127.0.0.1", "--no-hsts"], env=env)
    assert plain.code == 8 and "HSTS" not in plain.err, plain


def test_https_without_a_policy_creates_no_directory(h2tls, certs, tmp_path):
    state = tmp_path / "state"
    r = run([f"{h2tls.url}/hello.txt", f"--verify={certs / 'ca.pem'}"], env={"XDG_STATE_HOME": str(state)})
    assert r.code == 0, r
    assert not state.exists()


# MARK: - Compression

def test_compress_deflates_a_body_that_gets_smaller(server):
    r = run([server.url + "/post", "text=" + "abc" * 200, "--compress", "-v"])
    assert r.code == 0, r
    request = server.requests[0]
    assert request.header("Content-Encoding") == "deflate"
    assert request.header("Content-Length") == str(len(request.body))
    assert zlib.decompress(request.body) == b'{"text":"' + b"abc" * 200 + b'"}'
    printed = r.out.split("\n\n")[0]
    assert "Content-Encoding: deflate" in printed and f"Content-Length: {len(request.body)}" in printed, printed
    # The printed body is the bytes sent.
    assert request.body in r.stdout


def test_compress_leaves_a_body_that_would_grow(server):
    r = run([server.url + "/post", "a=1", "-x"])
    assert r.code == 0, r
    request = server.requests[0]
    assert request.header("Content-Encoding") is None and request.body == b'{"a":"1"}'


def test_compress_streams_a_file_body_chunked(server, tmp_path):
    data = b"line of a log file\n" * 5000
    (tmp_path / "log.txt").write_bytes(data)
    r = run([server.url + "/upload", "@" + str(tmp_path / "log.txt"), "--compress"])
    assert r.code == 0, r
    request = server.requests[0]
    assert request.chunked and request.header("Content-Encoding") == "deflate"
    assert zlib.decompress(request.body) == data


def test_compress_offline_prints_the_head_that_would_be_sent(server):
    r = run([server.url + "/post", "text=" + "abc" * 200, "--compress", "--offline"])
    assert r.code == 0, r
    head, _, body = r.stdout.partition(b"\r\n\r\n") if b"\r\n\r\n" in r.stdout else r.stdout.partition(b"\n\n")
    assert b"Content-Encoding: deflate" in head
    assert zlib.decompress(body) == b'{"text":"' + b"abc" * 200 + b'"}'
    assert f"Content-Length: {len(body)}".encode() in head


def test_compressed_request_body_shows_as_binary_on_a_terminal(server):
    r = run_tty([server.url + "/post", "text=" + "abc" * 200, "--compress", "--print=HB"], env={"NO_COLOR": "1"})
    assert r.code == 0, r
    assert b"Content-Encoding: deflate" in r.stdout
    assert b"NOTE: binary data not shown in terminal" in r.stdout
    assert zlib.decompress(server.requests[0].body).startswith(b'{"text":"abc')


def test_interface_binds_the_local_address(server):
    r = run([server.url + "/local", "--interface", "127.0.0.1"])
    assert r.code == 0, r
    assert server.requests[0].target == "/local"
    r = run([server.url + "/none", "--interface", "afcli-no-such-if0"])
    assert r.code == 8 and len(server.requests) == 1, r
    assert r.err.startswith("afcli: error: "), r.err


def test_http2_on_plain_http_asks_for_an_upgrade(server):
    r = run([server.url + "/up", "--http2"])
    assert r.code == 0, r
    request = server.requests[0]
    assert request.header("Upgrade") == "h2c" and request.header("HTTP2-Settings") is not None


def test_connect_to_keeps_the_tls_name(h2tls, certs):
    # The certificate names hsts.test, not the address connected to.
    r = run(["https://hsts.test/hello.txt", "--connect-to", f"hsts.test:443:127.0.0.1:{h2tls.port}",
             f"--verify={certs / 'ca.pem'}", "--no-hsts"])
    assert r.code == 0, r
    assert r.stdout == b"hello\n"
