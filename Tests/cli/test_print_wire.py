"""The request head afcli prints (--print=H, -v, --offline) is the head the server receives.

Each command goes to a loopback server that records the raw request bytes, and the printed heads
are compared with them line by line (an empty value prints as `Name: `, libcurl sends `Name:`).
"""

import pytest

from conftest import run


def head_lines(text):
    """The request line and (name, value) pairs of a head, up to its blank line."""
    lines = text.replace("\r\n", "\n").split("\n\n", 1)[0].split("\n")
    pairs = []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        pairs.append((name, value.strip()))
    return [lines[0], *pairs]


CASES = [
    (["post", "/p"], [("Content-Length", "0")]),
    (["put", "/p"], [("Content-Length", "0")]),
    (["patch", "/p"], [("Content-Length", "0")]),
    (["post", "/p", "Host:other.test"], [("Host", "other.test")]),
    (["get", "/p", "Host;"], [("Host", "")]),
    (["get", "/p", "Host:a.test", "host:b.test"], [("Host", "b.test")]),
    (["post", "/p", "a=1", "Content-Length:9"], [("Content-Length", "9")]),
    (["post", "/p", "a=1", "Transfer-Encoding:chunked"], [("Transfer-Encoding", "chunked")]),
    (["--multipart", "--boundary", "B0", "post", "/p"], [("Content-Length", "8")]),
]


@pytest.mark.parametrize("args,expected", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_printed_head_is_the_wire_head(server, args, expected):
    full = [server.url + a if a.startswith("/") else a for a in args]
    printed = run(["--print=H", *full])
    assert printed.code == 0, printed
    verbose = run(["-v", "--pretty=none", *full])
    assert verbose.code == 0, verbose
    offline = run(["--offline", "--print=H", *full])
    assert offline.code == 0, offline
    assert len(server.requests) == 2
    wire = head_lines(server.requests[0].raw_head.decode("latin-1"))
    assert head_lines(server.requests[1].raw_head.decode("latin-1")) == wire
    assert head_lines(printed.out) == wire
    assert head_lines(verbose.out) == wire
    assert head_lines(offline.out) == wire
    for pair in expected:
        assert wire.count(pair) == 1, (pair, wire)
    names = [pair[0].lower() for pair in wire[1:]]
    assert names.count("host") == 1
    assert names.count("content-length") + names.count("transfer-encoding") <= 1
    if ("Content-Length", "8") in expected:
        assert server.requests[0].body == b"--B0--\r\n"
        assert server.requests[0].header("Content-Type") == "multipart/form-data; boundary=B0"


@pytest.mark.parametrize("items,message", [
    (["a=1", "Content-Length:5"], 'cannot send the header "Content-Length" as typed: '
                                  "afcli sets it from the body, and the body is 9 bytes"),
    (["Content-Length:"], 'cannot send the header "Content-Length" as typed: '
                          "afcli sets it from the body, and the body is 0 bytes"),
    (["a=1", "Transfer-Encoding:gzip"], 'cannot send the header "Transfer-Encoding" as typed: afcli frames '
                                        'the body itself; only "chunked" on a request with a body can be asked for'),
    (["Host:"], 'cannot send the header "Host" as typed: an HTTP/1.1 request needs one '
                "(Host:NAME sends another value)"),
])
def test_disagreeing_framing_header_is_refused(server, items, message):
    for extra in [[], ["--offline"]]:
        result = run([*extra, "post", f"{server.url}/p", *items])
        assert result.code == 2, result
        assert result.err == f"afcli: error: {message}\n"
        assert result.stdout == b""
    assert server.requests == []


def test_chunked_multipart_upload_is_printed_and_sent_chunked(server, tmp_path):
    part = tmp_path / "h.txt"
    part.write_text("hello\n")
    args = ["--boundary", "B1", "post", "--form", f"{server.url}/u", f"f@{part}", "Transfer-Encoding:chunked"]
    verbose = run(["-v", "--pretty=none", *args])
    assert verbose.code == 0, verbose
    offline = run(["--offline", *args])
    assert offline.code == 0, offline
    request = server.requests[0]
    assert request.chunked
    assert request.header("Content-Length") is None
    assert head_lines(offline.out) == head_lines(request.raw_head.decode("latin-1"))
    assert offline.stdout.split(b"\n\n", 1)[1] == request.body
    assert request.body in verbose.stdout
