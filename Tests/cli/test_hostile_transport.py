"""Hostile and slow servers: timeouts, size limits, header limits, head-first printing, cut-short
bodies, dot segments, IDN hosts and refused redirects.

Every server is in-process on 127.0.0.1; each test takes well under a few seconds.
"""

import gzip
import json
import os
import pty
import select
import subprocess
import threading
import time

from conftest import Response, base_env, drain, run, run_tty, start, run_process


def trickle(count, interval, byte=b"x"):
    """A body generator that sends one byte every `interval` seconds, `count` times."""
    def body():
        for _ in range(count):
            yield byte
            time.sleep(interval)
    return body


def stall(seconds, first=b""):
    """A body generator that sends `first`, then nothing for `seconds`."""
    def body():
        if first:
            yield first
        time.sleep(seconds)
        yield b""
    return body


def endless(chunk=b"x" * 65536, limit=None):
    """A body generator that never ends (or ends after `limit` seconds, so threads do not leak)."""
    def body():
        deadline = time.time() + (limit or 20)
        while time.time() < deadline:
            yield chunk
    return body


def timed(args, **kwargs):
    start = time.monotonic()
    result = run(args, **kwargs)
    return result, time.monotonic() - start


def one_error_line(result):
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("afcli: error: "), result
    return lines[0]


# MARK: - Timeouts


def test_idle_timeout_lets_a_slow_but_steady_body_through(server):
    # One byte every 0.3 s for 3 s: never idle for 1 s, though the whole takes 3 s.
    server.handler = lambda r: Response(headers=[("Content-Type", "text/plain"), ("Content-Length", "10")],
                                        body=trickle(10, 0.3))
    result, elapsed = timed([server.url + "/slow", "--timeout", "1"])
    assert result.code == 0, result
    assert result.stdout == b"x" * 10
    assert elapsed >= 2.5


def test_idle_timeout_fails_a_stalled_body_in_about_that_time(server):
    server.handler = lambda r: Response(headers=[("Content-Type", "text/plain"), ("Content-Length", "10")],
                                        body=stall(6, b"x"))
    result, elapsed = timed([server.url + "/stall", "--timeout", "1"])
    assert result.code == 7, result
    assert "no data received or sent for 1 second" in one_error_line(result)
    assert 0.9 <= elapsed < 4, elapsed


def test_idle_timeout_covers_waiting_for_the_head(server):
    def handler(request):
        time.sleep(6)
        return Response()
    server.handler = handler
    result, elapsed = timed([server.url + "/slow-head", "--timeout", "1"])
    assert result.code == 7, result
    assert 0.9 <= elapsed < 4, elapsed


def test_max_time_limits_the_whole_exchange(server):
    server.handler = lambda r: Response(headers=[("Content-Type", "text/plain"), ("Content-Length", "10")],
                                        body=trickle(10, 0.3))
    result, elapsed = timed([server.url + "/slow", "--max-time", "1"])
    assert result.code == 7, result
    assert "timed out" in one_error_line(result)
    assert 0.9 <= elapsed < 2.5, elapsed


def test_download_retry_recovers_from_a_stall_with_timeout(server, tmp_path):
    attempts = []

    def handler(request):
        attempts.append(request)
        if len(attempts) == 1:
            return Response(headers=[("Content-Length", "10")], body=stall(6, b"01234"))
        return Response(status=206, reason="Partial Content",
                        headers=[("Content-Length", "5"), ("Content-Range", "bytes 5-9/10")], body=b"56789")
    server.handler = handler
    result = run(["download", server.url + "/f.bin", "--retry", "1", "--retry-delay", "0.1", "--timeout", "1",
                  "-o", "f.bin"], cwd=tmp_path)
    assert result.code == 0, result
    assert (tmp_path / "f.bin").read_bytes() == b"0123456789"
    assert attempts[1].header("Range") == "bytes=5-"


# MARK: - Body size and compression bombs


def gzip_bomb(megabytes):
    return gzip.compress(b"\0" * (megabytes << 20), compresslevel=9)


def test_gzip_bomb_is_stopped_by_the_expansion_ratio(server, tmp_path):
    bomb = gzip_bomb(96)
    server.handler = lambda r: Response(
        headers=[("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")], body=bomb)
    result = run([server.url + "/bomb", "-o", str(tmp_path / "out")])
    assert result.code == 12, result
    line = one_error_line(result)
    assert "expands more than 200 times" in line and "--max-expansion 0" in line
    assert (tmp_path / "out").stat().st_size < (96 << 20)


def test_expansion_check_can_be_turned_off(server):
    bomb = gzip_bomb(24)
    server.handler = lambda r: Response(
        headers=[("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")], body=bomb)
    result = run([server.url + "/bomb", "--max-expansion", "0"])
    assert result.code == 0, result
    assert len(result.stdout) == 24 << 20


# MARK: - Codings afcli cannot decode


def test_an_unknown_content_encoding_passes_through_with_one_warning(server, tmp_path):
    body = b'{"a": 1}'
    server.handler = lambda r: Response(
        headers=[("Content-Type", "application/json"), ("Content-Encoding", "foo")], body=body)
    result = run([server.url + "/x"])
    assert (result.code, result.stdout) == (0, body), result
    assert result.stderr == (
        b"afcli: warning: Content-Encoding foo is not a coding afcli can decode: the body is passed on as received\n")
    saved = tmp_path / "out"
    assert run([server.url + "/x", "-o", str(saved), "--quiet"]).code == 0
    assert saved.read_bytes() == body


def test_an_unknown_content_encoding_is_stored_and_answered_as_received(server, tmp_path):
    """The cache stores such a body as received; a hit hands it on as the network did, warning
    the same way, and the gzip body stored beside it is still answered decoded, unwarned."""
    def answer(request):
        coding = "gzip" if request.target == "/gz" else "foo"
        body = gzip.compress(b'{"z": 1}') if coding == "gzip" else b'{"a": 1}'
        return Response(headers=[("Content-Type", "application/json"), ("Content-Encoding", coding),
                                 ("Cache-Control", "max-age=600")], body=body)

    server.handler = answer
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    warning = b"afcli: warning: Content-Encoding foo is not a coding afcli can decode: the body is passed on as received\n"
    for _ in range(2):
        result = run(["--cache", server.url + "/x"], env=env)
        assert (result.code, result.stdout, result.stderr) == (0, b'{"a": 1}', warning), result
        decoded = run(["--cache", server.url + "/gz"], env=env)
        assert (decoded.code, decoded.stdout, decoded.stderr) == (0, b'{"z": 1}', b""), decoded
    assert [r.target for r in server.requests] == ["/x", "/gz"]


def test_an_unknown_content_encoding_without_a_body_draws_no_warning(server):
    def answer(request):
        status, reason = {"/204": (204, "No Content"), "/304": (304, "Not Modified")}.get(request.target, (200, "OK"))
        body = b"" if status != 200 else b'{"a": 1}'
        return Response(status, reason, [("Content-Type", "application/json"), ("Content-Encoding", "foo")], body)

    server.handler = answer
    for args in (["head", server.url + "/x"], [server.url + "/204"], [server.url + "/304", "--no-check-status"]):
        result = run(args)
        # Nothing was passed through, so there is nothing to warn about.
        assert (result.code, result.stdout, result.stderr) == (0, b"", b""), (args, result)
    batch = run(["run", "-"], input=f"head {server.url}/x\nget {server.url}/204\n".encode())
    assert batch.code == 0 and batch.stderr == b"", batch


def test_an_unknown_content_encoding_is_opaque_to_the_formatters(server):
    server.handler = lambda r: Response(
        headers=[("Content-Type", "application/json"), ("Content-Encoding", "gzip, foo")], body=b'{"a": 1}')
    shown = run_tty([server.url + "/x", "--pretty=all"])
    assert shown.code == 0
    assert b"binary data not shown" in shown.stdout and b'"a"' not in shown.stdout
    assert b"Content-Encoding foo is not a coding" in shown.stderr


def test_a_known_coding_is_still_decoded_after_an_unknown_one(server):
    plain = b'{"a": 1}'
    codings = iter([("foo", plain), ("gzip", gzip.compress(plain))])

    def answer(request):
        coding, body = next(codings)
        return Response(headers=[("Content-Type", "application/json"), ("Content-Encoding", coding)], body=body)

    server.handler = answer
    result = run(["run", "-"], input=f"get {server.url}/1\nget {server.url}/2\n".encode())
    assert result.code == 0, result
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(line["exit"], line["bytes"]) for line in lines] == [(0, len(plain)), (0, len(plain))]
    assert result.stderr.count(b"afcli: warning:") == 1
    assert b"Content-Encoding foo is not a coding afcli can decode" in result.stderr


def test_an_unknown_transfer_encoding_passes_through(server):
    server.handler = lambda r: Response(
        headers=[("Content-Type", "text/plain"), ("Transfer-Encoding", "foo")], body=b"coded bytes", fault="close")
    result = run([server.url + "/x"])
    assert (result.code, result.stdout) == (0, b"coded bytes"), result
    assert b"Transfer-Encoding foo is not a coding" in result.stderr
    server.handler = lambda r: Response(
        headers=[("Content-Type", "text/plain"), ("Transfer-Encoding", "foo, chunked")],
        body=b"5\r\ncoded\r\n0\r\n\r\n")
    result = run([server.url + "/x"])
    assert (result.code, result.stdout) == (0, b"coded"), result
    downloaded = run(["download", server.url + "/x", "-o", "-"])
    assert (downloaded.code, downloaded.stdout) == (0, b"coded"), downloaded


def test_max_filesize_refuses_an_announced_length_before_the_body(server):
    server.handler = lambda r: Response(headers=[("Content-Type", "text/plain")], body=b"x" * 5000)
    result = run([server.url + "/big", "--max-filesize", "4k"])
    assert result.code == 12, result
    assert one_error_line(result) == "afcli: error: response body exceeds --max-filesize 4096"
    assert result.stdout == b""


def test_max_filesize_counts_decoded_bytes(server):
    body = gzip.compress(b"a" * 100_000)
    server.handler = lambda r: Response(
        headers=[("Content-Type", "text/plain"), ("Content-Encoding", "gzip")], body=body)
    result = run([server.url + "/gz", "--max-filesize", "50000"])
    assert result.code == 12, result
    assert "exceeds --max-filesize 50000" in one_error_line(result)
    assert len(result.stdout) <= 50000
    # Within the limit the same body passes.
    assert run([server.url + "/gz", "--max-filesize", "100000"]).stdout == b"a" * 100_000


def test_max_filesize_counts_a_chunked_body(server):
    server.handler = lambda r: Response(
        headers=[("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")],
        body=lambda: iter([b"1000\r\n" + b"y" * 4096 + b"\r\n"] * 4 + [b"0\r\n\r\n"]))
    result = run([server.url + "/chunked", "--max-filesize", "10k"])
    assert result.code == 12, result
    assert run([server.url + "/chunked", "--max-filesize", "16k"]).code == 0


def test_max_filesize_rejects_a_bad_value():
    result = run(["--offline", "example.org", "--max-filesize", "12q"])
    assert result.code == 2, result
    assert "--max-filesize" in one_error_line(result)


# MARK: - Header limits


def test_a_huge_header_line_is_too_large(server):
    server.handler = lambda r: Response(headers=[("X-Huge", "h" * (1 << 20))], body=b"{}")
    result = run([server.url + "/huge"])
    assert result.code == 12, result
    line = one_error_line(result)
    assert "response header too large" in line and "out of memory" not in line


def test_thousands_of_headers_are_too_many(server):
    server.handler = lambda r: Response(headers=[(f"X-H{i}", "v") for i in range(5000)], body=b"{}")
    result = run([server.url + "/many"])
    assert result.code == 12, result
    assert "more than 1000 header fields" in one_error_line(result)


# MARK: - Head first, and bodies nobody reads


def test_head_is_printed_on_a_terminal_before_a_slow_body(server):
    release = threading.Event()
    sent_body = threading.Event()

    def body():
        release.wait(10)
        sent_body.set()
        yield b"slow body\n"
    server.handler = lambda r: Response(headers=[("Content-Type", "text/plain"), ("Content-Length", "10")],
                                        body=body)
    master, slave = pty.openpty()
    proc = start([server.url + "/slow"], stdin=subprocess.DEVNULL, stdout=slave,
                 stderr=subprocess.PIPE, env=base_env({"TERM": "dumb"}), close_fds=True)
    os.close(slave)
    output = b""
    try:
        deadline = time.time() + 10
        while b"Content-Length: 10" not in output and time.time() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                output += os.read(master, 65536)
        head_before_body = b"HTTP/1.1 200 OK" in output and not sent_body.is_set()
        release.set()
        proc.wait(timeout=10)
        output += drain(master, 0.2)
    finally:
        release.set()
        if proc.poll() is None:
            proc.kill()
        proc.stderr.close()
        os.close(master)
    assert head_before_body, output
    assert proc.returncode == 0
    assert b"slow body" in output


def test_headers_only_does_not_read_an_endless_body(server):
    server.handler = lambda r: Response(headers=[("Content-Type", "text/plain"), ("Content-Length", str(1 << 40))],
                                        body=endless())
    result, elapsed = timed([server.url + "/endless", "-h"], timeout=15)
    assert result.code == 0, result
    assert result.out.startswith("HTTP/1.1 200 OK\n")
    assert "x" * 100 not in result.out
    assert elapsed < 5


def test_quiet_does_not_read_an_endless_body_and_keeps_the_status(server):
    server.handler = lambda r: Response(status=404, reason="Not Found", headers=[("Content-Type", "text/plain"),
                                        ("Transfer-Encoding", "chunked")],
                                        body=endless(b"10000\r\n" + b"x" * 65536 + b"\r\n"))
    result, elapsed = timed([server.url + "/endless", "-q"], timeout=15)
    assert result.code == 4, result
    assert elapsed < 5


def test_binary_notice_on_a_terminal_stops_reading(server):
    server.handler = lambda r: Response(headers=[("Content-Type", "application/octet-stream"),
                                                 ("Content-Length", str(1 << 40))], body=endless())
    from conftest import run_tty
    start = time.monotonic()
    result = run_tty([server.url + "/endless.bin"], timeout=15)
    assert time.monotonic() - start < 5
    assert result.code == 0, result
    assert b"binary data not shown" in result.stdout


def test_the_body_is_still_read_when_it_is_logged(server, tmp_path):
    server.handler = lambda r: Response(headers=[("Content-Type", "text/plain")], body=b"logged body")
    log = tmp_path / "log.txt"
    result = run([server.url + "/x", "-h", "--log=cj", "--log-file", str(log)])
    assert result.code == 0, result
    assert "logged body" in log.read_text()


# MARK: - URLs: dot segments and IDN hosts


def test_dot_segments_print_as_they_go_on_the_wire(server):
    offline = run(["--offline", "get", "example.org/a/./c/../b?x=/../y"])
    assert offline.out.startswith("GET /a/b?x=/../y HTTP/1.1\n"), offline
    result = run([server.url + "/a/../b/./c", "-v"])
    assert result.code == 0, result
    assert server.requests[-1].raw_head.startswith(b"GET /b/c HTTP/1.1\r\n")
    assert "GET /b/c HTTP/1.1" in result.out


def test_idn_host_is_sent_as_its_a_label(server):
    offline = run(["--offline", "get", "bücher.example:3000/x"])
    assert offline.code == 0, offline
    assert "Host: xn--bcher-kva.example:3000\n" in offline.out
    # --resolve routes the name to the loopback server; the entry may be typed in Unicode too.
    result = run([f"http://bücher.example:{server.port}/x", f"--resolve=bücher.example:{server.port}:127.0.0.1"])
    assert result.code == 0, result
    assert server.requests[-1].header("Host") == f"xn--bcher-kva.example:{server.port}"


def test_an_invalid_idn_host_is_bad_input():
    result = run(["--offline", "get", "http://a\u200db\u0301-.example/"])
    assert result.code == 2, result
    assert "not a valid internationalized domain name" in one_error_line(result)


# MARK: - Redirects


def test_redirect_to_file_scheme_is_refused_with_a_reason(server):
    server.handler = lambda r: Response(status=302, reason="Found", headers=[("Location", "file:///etc/passwd")],
                                        body=b"")
    result = run([server.url + "/r", "--follow"])
    assert result.code == 6, result
    assert one_error_line(result) == (
        "afcli: error: refusing to follow a redirect to file:///etc/passwd (only http and https)")
    # Without --follow a redirect is just the final response.
    assert run([server.url + "/r"]).code == 3


# MARK: - Message casing


def test_a_closed_pipe_is_reported_in_lower_case(server):
    server.handler = lambda r: Response(headers=[("Content-Type", "text/plain")], body=b"z" * (4 << 20))
    read_end, write_end = os.pipe()
    os.close(read_end)
    # Started with SIGPIPE ignored (as under some supervisors), afcli sees EPIPE and says so.
    proc = run_process([server.url + "/big"], stdin=subprocess.DEVNULL, stdout=write_end,
                       stderr=subprocess.PIPE, env=base_env(), timeout=15, restore_signals=False)
    os.close(write_end)
    err = proc.stderr.decode()
    assert proc.returncode == 1, err
    assert "broken pipe" in err and "Broken pipe" not in err, err


def test_a_url_libcurl_refuses_is_bad_input():
    result = run(["get", "http://a*b.example/x"])
    assert result.code == 2, result
    assert one_error_line(result).startswith('afcli: error: invalid URL "http://a*b.example/x": libcurl refuses it')


def test_redirect_to_a_unicode_host_is_followed_to_its_a_label(server):
    # The loopback server writes heads as Latin-1: this puts the name's UTF-8 bytes on the wire.
    target = f"http://bücher.example:{server.port}/final".encode().decode("latin-1")
    server.handler = lambda r: (Response(status=302, reason="Found", headers=[("Location", target)], body=b"")
                                if r.target == "/r" else Response(body=b"arrived"))
    result = run([server.url + "/r", "--follow", f"--resolve=bücher.example:{server.port}:127.0.0.1"])
    assert result.code == 0, result
    assert result.out == "arrived"
    assert server.requests[-1].header("Host") == f"xn--bcher-kva.example:{server.port}"
