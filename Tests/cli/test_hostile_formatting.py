"""Hostile response bodies against the formatters: entity and reference bombs, deep nesting,
invalid tails after output was flushed, control characters, truncated transfers and Ctrl-C.

Each test serves its body from an in-process loopback server; together they run in seconds.
"""

import os
import pty
import re
import signal
import subprocess
import threading
import time

from conftest import Response, base_env, drain, run, run_tty, start

ANSI = re.compile(rb"\x1b\[[0-9;]*m")
DEPTH = 512


def serve(server, body, content_type, headers=(), **kwargs):
    server.handler = lambda r: Response(
        200, "OK", [("Content-Type", content_type), *headers], body, **kwargs)


def billion_laughs():
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{("&lol%d;" % (i - 1)) * 10}">' for i in range(1, 10)]
    return ('<?xml version="1.0"?>\n<!DOCTYPE lolz [\n' + "\n".join(entities)
            + '\n]>\n<lolz>&lol9;</lolz>\n').encode()


def shared_children_bplist(count):
    """A binary property list where object i is [i+1, i+1] and the last one is "x"."""
    body = bytearray(b"bplist00")
    offsets = []
    for index in range(count - 1):
        offsets.append(len(body))
        body += bytes([0xA2, index + 1, index + 1])
    offsets.append(len(body))
    body += b"\x51x"
    table = len(body)
    body += bytes(offsets)
    body += bytes([0, 0, 0, 0, 0, 0, 1, 1]) + count.to_bytes(8, "big") + bytes(8) + table.to_bytes(8, "big")
    return bytes(body)


def test_billion_laughs_is_refused_quickly(server):
    body = billion_laughs()
    serve(server, body, "application/xml")
    result = run(["--pretty=format", "get", f"{server.url}/x"], timeout=15)
    assert result.code == 0, result
    assert result.stdout == body
    assert result.err.count("afcli: warning: malformed XML") == 1, result.err


def test_shared_children_binary_plist_is_shown_as_received(server):
    for count in (20, 60):
        body = shared_children_bplist(count)
        serve(server, body, "application/x-plist")
        result = run(["--pretty=format", "get", f"{server.url}/x"], timeout=15)
        assert result.code == 0, result
        assert result.stdout == body
        assert result.err.count("afcli: warning:") == 1, result.err
        assert "objects shared by reference" in result.err


def test_deep_json_is_formatted_to_the_limit_then_shown_as_received(server):
    body = b"[" * 40000 + b"]" * 40000
    serve(server, body, "application/json")
    result = run(["--pretty=format", "get", f"{server.url}/x"], timeout=15)
    assert result.code == 0
    assert result.stdout.endswith(body[DEPTH:])
    assert len(result.stdout) < 2 * 1024 * 1024
    assert result.err == f"afcli: warning: JSON at byte {DEPTH}: nested deeper than the limit ({DEPTH} levels; " \
        "--max-depth raises it); the rest is shown as received\n"


def test_deep_xml_is_formatted_to_the_limit_then_shown_as_received(server):
    body = b"<a>" * 40000 + b"</a>" * 40000
    serve(server, body, "application/xml")
    result = run(["--pretty=format", "get", f"{server.url}/x"], timeout=15)
    assert result.code == 0
    assert result.stdout.endswith(b"</a>" * 39000)
    assert len(result.stdout) < 2 * len(body)
    assert result.err == f"afcli: warning: XML nested deeper than the limit ({DEPTH} levels; --max-depth raises " \
        "it); the rest is shown as received\n"


def test_invalid_json_after_a_flush_is_not_repaired(server):
    for tail, shown in ((b"[1 2]", b"1 2]]"), (b"[1,]", b"1,]]"), (b'{"a":1,2}', b"1,2}]")):
        serve(server, b"[" + b"[1,2,3]," * 20000 + tail + b"]", "application/json")
        result = run(["--pretty=format", "get", f"{server.url}/x"])
        assert result.code == 0
        assert result.stdout.endswith(shown), (tail, result.stdout[-40:])
        assert result.err.count("invalid JSON") == 1


def test_controls_from_the_server_are_escaped_on_a_terminal_only(server):
    body = b"before\x1b[2Jafter\r\nover\rwrite\n"
    serve(server, body, "text/plain", [("X-Title", "\x1b]0;title\x07")])
    shown = run_tty(["get", f"{server.url}/x"])
    assert shown.code == 0
    assert b"\x1b]" not in shown.stdout and b"\x07" not in shown.stdout and b"\x1b[2J" not in shown.stdout
    plain = ANSI.sub(b"", shown.stdout)
    assert b"X-Title: \\x1b]0;title\\x07\n" in plain
    assert b"before\\x1b[2Jafter" in plain and b"over\\x0dwrite" in plain
    piped = run(["get", f"{server.url}/x"])
    assert piped.stdout == body


def test_controls_in_invalid_json_are_escaped_around_the_colours(server):
    serve(server, b'{"a": "x\x1b]0;t\x07y", "b": 1}', "application/json")
    shown = run_tty(["get", f"{server.url}/x"])
    assert b"\x1b]0" not in shown.stdout and b"\x07" not in shown.stdout
    assert b'"x\\x1b]0;t\\x07y"' in ANSI.sub(b"", shown.stdout)


def test_truncated_transfer_keeps_everything_received(server):
    items = b",".join(b'"item%06d"' % i for i in range(30000))
    body = b"[" + items
    serve(server, body, "application/json", [("Content-Length", str(len(body) + 100000))], fault="close")
    result = run(["--pretty=format", "get", f"{server.url}/x"])
    assert result.code == 1, result
    assert re.sub(rb"\s", b"", result.stdout) == body
    xml = b"<r>" + b"".join(b"<i>%06d</i>" % i for i in range(30000))
    serve(server, xml, "application/xml", [("Content-Length", str(len(xml) + 100000))], fault="close")
    result = run(["--pretty=format", "get", f"{server.url}/x"])
    assert result.code == 1, result
    assert re.sub(rb"\s", b"", result.stdout) == xml


def test_malformed_xml_rest_does_not_repeat_text(server):
    serve(server, b"<r>" + b"<a>y</a>" * 60000 + b"<a>x</b></r>", "application/xml")
    result = run(["--pretty=format", "get", f"{server.url}/x"])
    assert result.stdout.endswith(b"\n  <a>x</b></r>"), result.stdout[-40:]


def test_internal_dtd_subset_is_shown(server):
    body = b'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x "hello">]>\n<r>&x;</r>'
    serve(server, body, "application/xml")
    result = run(["--pretty=format", "get", f"{server.url}/x"])
    assert result.stdout == body + b"\n"
    assert result.stderr == b""


def test_quiet_silences_formatter_warnings(server, tmp_path):
    serve(server, b'{"a": 1 2}', "application/json")
    target = tmp_path / "out.json"
    result = run(["-q", "--pretty=format", "-o", str(target), "get", f"{server.url}/x"])
    assert result.code == 0
    assert result.stderr == b""
    assert target.read_bytes() == b'{"a": 1 2}'


def run_on_one_terminal(args):
    """Runs afcli with stdout and stderr on the same pseudo-terminal; returns what it showed."""
    master, slave = pty.openpty()
    proc = start(args, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                 env=base_env({"TERM": "xterm-256color", "NO_COLOR": "1"}), close_fds=True)
    os.close(slave)
    output = drain(master, 10)
    proc.wait(timeout=10)
    os.close(master)
    return proc.returncode, output.replace(b"\r\n", b"\n")


def test_warning_starts_on_its_own_line(server):
    serve(server, b'{"a": 1 2}', "application/json")
    code, shown = run_on_one_terminal(["get", f"{server.url}/x"])
    assert code == 0
    assert b'{"a": 1 2}\nafcli: warning: invalid JSON' in shown, shown


def test_explicit_colours_win_over_no_color(server):
    serve(server, b'{"a": 1}', "application/json")
    coloured = run(["--pretty=all", "get", f"{server.url}/x"], env={"NO_COLOR": "1"})
    assert b"\x1b[" in coloured.stdout
    default = run_tty(["get", f"{server.url}/x"], env={"NO_COLOR": "1"})
    assert b"\x1b[" not in default.stdout


def test_colour_never_spans_a_line_break(server):
    body = b'<!DOCTYPE r SYSTEM "x\ny" [\n<!ENTITY e "v">\n]><r><!--one\ntwo\nthree--><?pi a\nb?></r>'
    serve(server, body, "application/xml")
    result = run(["--pretty=all", "get", f"{server.url}/x"])
    for line in result.stdout.split(b"\n"):
        codes = re.findall(rb"\x1b\[([0-9;]*)m", line)
        assert not codes or codes[-1] == b"0", line


def test_ctrl_c_stops_formatting_at_once(server):
    # 500 levels deep, each element a line of 2000 spaces: gigabytes of output from 16 MB. The
    # output goes to a pipe that is read as fast as it comes (to /dev/null the release build
    # formats it all in half a second, before the signal).
    body = b"[" * 500 + b"0," * (8 * 1024 * 1024) + b"0" + b"]" * 500
    serve(server, body, "application/json")
    proc = start(["--pretty=format", "get", f"{server.url}/x"],
                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                 env=base_env())
    reader = threading.Thread(target=lambda: [None for _ in iter(lambda: proc.stdout.read(1 << 20), b"")])
    reader.start()
    try:
        deadline = time.time() + 10
        while not server.requests and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        sent = time.time()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=15)
        elapsed = time.time() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join(timeout=15)
        proc.stdout.close()
        stderr = proc.stderr.read()
        proc.stderr.close()
    assert code == 130, stderr
    assert elapsed < 2, elapsed
