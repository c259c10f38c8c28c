"""What afcli prints: terminal versus pipe, --print, --verbose, --offline, --output, colours."""

import os
import re

import pytest

from conftest import Response, run, run_tty

ANSI = re.compile(rb"\x1b\[[0-9;]*m")


def text_handler(body=b"hello\n", status=200, reason="OK"):
    return lambda r: Response(status, reason, [("Content-Type", "text/plain"), ("X-Server", "loop")], body)


def test_piped_stdout_is_exact_body(server):
    server.handler = text_handler(b"exact \x00 bytes\n")
    result = run(["get", f"{server.url}/x"])
    assert result.code == 0
    assert result.stdout == b"exact \x00 bytes\n"
    assert result.stderr == b""


def test_terminal_shows_status_headers_and_body_in_colour(server):
    server.handler = text_handler()
    result = run_tty(["get", f"{server.url}/x"])
    assert result.code == 0, result
    assert b"\x1b[" in result.stdout
    plain = ANSI.sub(b"", result.stdout)
    assert plain.startswith(b"HTTP/1.1 200 OK\n")
    assert b"X-Server: loop\n" in plain
    assert plain.endswith(b"\n\nhello\n")


def test_no_color_and_dumb_terminal(server):
    server.handler = text_handler()
    for env in ({"NO_COLOR": "1"}, {"TERM": "dumb"}):
        result = run_tty(["get", f"{server.url}/x"], env=env)
        assert b"\x1b[" not in result.stdout, env
        assert result.stdout.startswith(b"HTTP/1.1 200 OK\n")


def json_handler(request):
    return Response(200, "OK", [("Content-Type", "application/json")], b'{"a": 1}\n')


@pytest.mark.parametrize("variable", ["FORCE_COLOR", "CLICOLOR_FORCE"])
def test_force_color_colours_a_pipe_and_a_file_but_keeps_the_layout(server, tmp_path, variable):
    server.handler = json_handler
    for value in ("1", "true", "3"):
        result = run(["get", f"{server.url}/j"], env={variable: value})
        assert result.code == 0 and b"\x1b[" in result.stdout, (value, result)
        # Colour only: the bytes without the escapes are the body as received.
        assert ANSI.sub(b"", result.stdout) == b'{"a": 1}\n'
    saved = tmp_path / "out.json"
    assert run(["get", f"{server.url}/j", "-o", str(saved)], env={variable: "1"}).code == 0
    assert b"\x1b[" in saved.read_bytes()
    # Empty or 0 forces nothing.
    for value in ("", "0"):
        assert run(["get", f"{server.url}/j"], env={variable: value}).stdout == b'{"a": 1}\n', value


def test_no_color_and_explicit_pretty_win_over_force_color(server):
    server.handler = json_handler
    plain = b'{"a": 1}\n'
    assert run(["get", f"{server.url}/j"], env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout == plain
    assert run(["get", "--pretty=none", f"{server.url}/j"], env={"FORCE_COLOR": "1"}).stdout == plain
    assert run(["get", "--pretty=format", f"{server.url}/j"], env={"CLICOLOR_FORCE": "1"}).stdout == \
        b'{\n    "a": 1\n}\n'
    # On a terminal FORCE_COLOR outranks TERM=dumb, not NO_COLOR.
    dumb = run_tty(["get", f"{server.url}/j"], env={"TERM": "dumb", "FORCE_COLOR": "1"})
    assert b"\x1b[" in dumb.stdout, dumb
    off = run_tty(["get", f"{server.url}/j"], env={"NO_COLOR": "1", "FORCE_COLOR": "1"})
    assert b"\x1b[" not in off.stdout, off


def test_binary_body_on_terminal_is_replaced_by_notice(server):
    server.handler = lambda r: Response(200, "OK", [("Content-Type", "application/octet-stream")], b"\x00\x01\x02")
    result = run_tty(["get", f"{server.url}/bin"])
    assert b"binary data not shown" in result.stdout
    assert b"\x00\x01\x02" not in result.stdout


def test_print_headers_only_when_piped(server):
    server.handler = text_handler()
    result = run(["--print=h", "get", f"{server.url}/x"])
    assert result.stdout.startswith(b"HTTP/1.1 200 OK\n")
    assert b"X-Server: loop\n" in result.stdout
    assert b"hello" not in result.stdout
    assert b"\r" not in result.stdout


def test_headers_and_body_flags(server):
    server.handler = text_handler()
    assert run(["--headers", "get", f"{server.url}/x"]).stdout.startswith(b"HTTP/1.1 200 OK\n")
    assert run(["--body", "get", f"{server.url}/x"]).stdout == b"hello\n"


def test_verbose_prints_request_and_response(server):
    server.handler = text_handler()
    result = run(["-v", "post", f"{server.url}/v", "a=1"])
    out = result.stdout
    assert out.startswith(b"POST /v HTTP/1.1\n")
    assert b"\nHost: 127.0.0.1:" in out
    assert b'{"a":"1"}' in out
    assert b"HTTP/1.1 200 OK\n" in out
    # The body, then the metrics (--print=HBhbm).
    assert b"hello\n\nElapsed time: " in out and out.endswith(b" of body\n")


def test_verbose_with_follow_prints_every_hop(server):
    def handler(req):
        if req.target == "/a":
            return Response(302, "Found", [("Location", "/b")], b"")
        return Response(200, "OK", [("Content-Type", "text/plain")], b"end")
    server.handler = handler
    out = run(["-v", "--follow", "get", f"{server.url}/a"]).out
    assert out.count("GET /a HTTP/1.1") == 1 and out.count("GET /b HTTP/1.1") == 1
    assert "HTTP/1.1 302 Found" in out and "HTTP/1.1 200 OK" in out


def test_print_m_shows_elapsed_time(server):
    out = run(["--print=m", "get", f"{server.url}/x"]).out
    assert re.search(r"Elapsed time: \d+\.\d+s", out), out


def test_quiet_prints_nothing(server):
    result = run(["-q", "get", f"{server.url}/x"])
    assert result.code == 0 and result.stdout == b"" and result.stderr == b""


def test_offline_prints_request_and_sends_nothing(server):
    result = run(["get", "--offline", "example.org/x", "a==1"])
    assert result.code == 0, result
    assert result.out.startswith("GET /x?a=1 HTTP/1.1\nHost: example.org\nUser-Agent: afcli/")
    assert server.requests == []


def test_offline_post_shows_body(server):
    result = run(["--offline", "post", f"{server.url}/p", "a=1"])
    assert result.out.endswith('Content-Length: 9\n\n{"a":"1"}')
    assert "Content-Type: application/json\n" in result.out
    assert server.requests == []


def test_output_file_gets_body(server, tmp_path):
    server.handler = text_handler(b"to a file\n")
    out = tmp_path / "out.txt"
    result = run(["get", f"{server.url}/x", "-o", str(out)])
    assert result.code == 0, result
    assert out.read_bytes() == b"to a file\n"
    assert result.stdout == b""


def test_output_file_untouched_when_request_fails(tmp_path):
    out = tmp_path / "keep.txt"
    out.write_bytes(b"precious")
    result = run(["get", "http://127.0.0.1:9/x", "-o", str(out)])
    assert result.code == 8, result
    assert out.read_bytes() == b"precious"


def test_status_exit_codes_and_warning(server):
    for status, reason, code in [(301, "Moved", 3), (404, "Not Found", 4), (500, "Internal Server Error", 5)]:
        server.handler = lambda r, s=status, t=reason: Response(s, t, [("Content-Type", "text/plain")], b"body")
        result = run(["get", f"{server.url}/s"])
        assert result.code == code, result
        assert result.stdout == b"body"
        assert f"HTTP {status}" in result.err
    result = run(["--no-check-status", "get", f"{server.url}/s"])
    assert result.code == 0


def test_response_decompression(server):
    import gzip
    payload = b'{"compressed":true}' * 50
    server.handler = lambda r: Response(200, "OK", [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], gzip.compress(payload))
    result = run(["get", f"{server.url}/gz"])
    assert result.stdout == payload
    assert "gzip" in server.requests[0].header("Accept-Encoding")


@pytest.mark.skipif(os.geteuid() != 0, reason="planting another user's link needs root")
def test_output_refuses_a_link_planted_by_another_user(server, tmp_path):
    target = tmp_path / "precious"
    target.write_bytes(b"keep")
    link = tmp_path / "out.json"
    link.symlink_to(target)
    os.lchown(link, 65534, 65534)
    result = run(["-o", str(link), server.url + "/x"])
    assert result.code == 1 and b"symbolic link owned by another user" in result.stderr, result
    assert target.read_bytes() == b"keep"
    # The user's own link is followed, as a shell's > would.
    os.lchown(link, 0, 0)
    result = run(["-o", str(link), server.url + "/x"])
    assert result.code == 0 and target.read_bytes() == b'{"ok":true}'
