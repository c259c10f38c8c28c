"""afcli run in parallel over HTTP/2 with TLS, against nginx (`listen ... ssl http2`): GETs and
POSTs, small and large bodies, more requests than --parallel so that every easy handle is used
again after an HTTP/2 stream of a shared connection ended on it; POSTs to a location that reads
the whole body (proxied) and to one that answers at once (`return 200`, which nginx follows with
RST_STREAM NO_ERROR without reading the rest of the body)."""

import json
import re

import pytest

from conftest import run
from nginx import NginxServer, TLSConfig
from test_network import certs, www  # noqa: F401  (fixtures)

LARGE = 1024 * 1024
# Larger than nginx's HTTP/2 stream window (64 KiB), so a server that does not read cannot have
# the whole body before it answers.
LARGE_POST = 100 * 1000

# The message afcli gives when libcurl 7.88 drops the response that arrived with the server's reset;
# how much of the body went before the reset depends on the window's updates (65,535 or 65,536 bytes
# seen), never all of it.
LOST = re.compile(r"the server ended the HTTP/2 stream without reading the whole request body \("
                  r"(\d+) of 100000 bytes sent\), and libcurl lost the response that came with its reset")


def lost(error):
    """Whether `error` is the lost-response message, naming fewer bytes than the body has."""
    found = LOST.fullmatch(error or "")
    return found is not None and int(found.group(1)) < LARGE_POST


@pytest.fixture(scope="module")
def site(certs, www):  # noqa: F811
    (www / "large.bin").write_bytes(bytes(range(256)) * (LARGE // 256))
    srv = NginxServer(www, tls=TLSConfig(certs / "leaf.pem", certs / "leaf.key"), http2=True)
    # /read answers after reading the whole body (proxied: nginx buffers it first) with its length;
    # /early answers before reading any of it.
    upstream = srv.dir / "upstream.sock"
    srv.extra_http = (f"server {{ listen unix:{upstream}; "
                      'location / { return 200 "$content_length\\n"; } }')
    srv.extra_server = (f"location = /read {{ proxy_pass http://unix:{upstream}:/; }}\n"
                        '        location = /early { return 200 "early\\n"; }')
    with srv:
        yield srv


@pytest.fixture(scope="module")
def bodies(tmp_path_factory):
    d = tmp_path_factory.mktemp("bodies")
    (d / "small").write_bytes(b"s" * 1000)
    (d / "large").write_bytes(b"L" * LARGE_POST)
    (d / "huge").write_bytes(b"H" * LARGE)
    return d


def records(result):
    return [json.loads(line) for line in result.out.splitlines()]


def run_lines(site, certs, lines, parallel, *extra):  # noqa: F811
    return run(["run", "-", "--parallel", str(parallel), "--keep-going", f"--verify={certs / 'ca.pem'}", *extra],
               input="".join(line + "\n" for line in lines).encode(), timeout=60)


@pytest.mark.parametrize("parallel", [2, 6])
@pytest.mark.parametrize("name, size", [("hello.txt", len("hello\n")), ("large.bin", LARGE)])
def test_parallel_gets_over_http2_all_succeed(site, certs, name, size, parallel):  # noqa: F811
    r = run_lines(site, certs, [f"get {site.url}/{name}"] * 20, parallel)
    assert r.code == 0, r
    result = records(r)
    assert len(result) == 20
    assert all(x["status"] == 200 and x["bytes"] == size and x["error"] is None for x in result), result
    assert {x["http_version"] for x in result} == {"HTTP/2"}
    # The streams shared one connection.
    assert [x["reused"] for x in result].count(False) == 1, result


def test_parallel_gets_with_a_rate_limit_over_http2_all_succeed(site, certs):  # noqa: F811
    # A rate-limited transfer asks libcurl for a smaller receive buffer than the others.
    r = run_lines(site, certs, [f"get {site.url}/hello.txt"] * 20, 6, "--limit-rate", "200k")
    assert r.code == 0, r
    assert [x["status"] for x in records(r)] == [200] * 20


@pytest.mark.parametrize("parallel", [2, 4])
@pytest.mark.parametrize("body, size", [("small", 1000), ("large", LARGE_POST), ("huge", LARGE)])
def test_parallel_posts_over_http2_reach_a_server_that_reads_them(site, certs, bodies, body, size, parallel):  # noqa: F811
    out = bodies / f"out-{body}-{parallel}"
    r = run_lines(site, certs, [f"post {site.url}/read @{bodies / body}"] * 12, parallel, "--output-dir", str(out))
    assert r.code == 0, r
    result = records(r)
    assert [x["status"] for x in result] == [200] * 12, result
    assert {x["http_version"] for x in result} == {"HTTP/2"}
    # The server read every byte of every body.
    assert sorted(p.read_text() for p in out.iterdir()) == [f"{size}\n"] * 12


def test_a_large_post_to_a_server_that_answers_at_once_gets_its_response(site, certs, bodies):  # noqa: F811
    # libcurl 7.88 stops reading the stream at the response's last byte and would send the rest of
    # the body for ever (curl spins at 100 % CPU): the complete response ends the exchange.
    r = run([f"--verify={certs / 'ca.pem'}", "post", f"{site.url}/early", f"@{bodies / 'large'}", "--print=hb"],
            timeout=30)
    assert r.code == 0, r
    assert r.out.startswith("HTTP/2 200")
    assert r.out.endswith("early\n")
    assert r.err == ""


def test_small_parallel_posts_to_a_server_that_answers_at_once_all_succeed(site, certs, bodies):  # noqa: F811
    r = run_lines(site, certs, [f"post {site.url}/early @{bodies / 'small'}"] * 20, 4)
    assert r.code == 0, r
    assert [x["status"] for x in records(r)] == [200] * 20


def test_large_parallel_posts_to_a_server_that_answers_at_once_end_with_a_response_or_say_why(
    site, certs, bodies  # noqa: F811
):
    # The run ends (no transfer spins); each request has its response, or, when libcurl dropped
    # the response that came with the server's reset (a race of libcurl 7.88), says so.
    r = run_lines(site, certs, [f"post {site.url}/early @{bodies / 'large'}"] * 20, 4)
    result = records(r)
    assert len(result) == 20, r
    for x in result:
        assert (x["status"], x["bytes"], x["error"]) == (200, len("early\n"), None) or lost(x["error"]), x
    failed = [x for x in result if x["error"]]
    assert r.code == (1 if failed else 0), r
    assert len(LOST.findall(r.err)) == len(failed)
