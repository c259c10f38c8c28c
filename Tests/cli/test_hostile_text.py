"""Text a hostile server chooses (reason phrases, bodies quoted in the request log, messages)
reaches a terminal only with its control characters escaped, wherever afcli prints it."""

import os
import pty
import subprocess

from conftest import base_env, drain, run, start
from loopback import Response

# Sets the window title on a terminal that obeys it.
TITLE = "\x1b]0;pwned\x07"


def run_stderr_tty(args, input=None, timeout=30):
    """Runs afcli with stdout piped and stderr on a pseudo-terminal; returns (code, stdout, terminal)."""
    master, slave = pty.openpty()
    proc = start(
        args, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=slave, env=base_env({"TERM": "xterm-256color"}), close_fds=True,
    )
    os.close(slave)
    out, _ = proc.communicate(input=input, timeout=timeout)
    terminal = drain(master, 0.2)
    os.close(master)
    return proc.returncode, out, terminal.replace(b"\r\n", b"\n")


def test_the_request_log_on_a_terminal_shows_the_bodys_controls_escaped(server):
    server.handler = lambda request: Response(
        headers=[("Content-Type", "text/plain")], body=f"hello{TITLE}world".encode())
    code, out, terminal = run_stderr_tty(["get", f"{server.url}/x", "--log=cj"])
    assert code == 0
    assert out == f"hello{TITLE}world".encode()
    assert b"\x1b" not in terminal and b"\x07" not in terminal
    assert "结果：hello\\x1b]0;pwned\\x07world \n".encode() in terminal


def test_the_request_log_file_keeps_the_bytes(server, tmp_path):
    server.handler = lambda request: Response(
        headers=[("Content-Type", "text/plain")], body=f"hello{TITLE}world".encode())
    log = tmp_path / "cj.log"
    result = run(["get", f"{server.url}/x", "--log-file", str(log)])
    assert result.code == 0
    assert f"结果：hello{TITLE}world \n".encode() in log.read_bytes()


def test_a_run_error_line_shows_the_reason_phrase_escaped(server):
    server.handler = lambda request: Response(status=404, reason=f"Gone{TITLE}", body=b"")
    result = run(["run", "-"], input=f"get {server.url}/x\n".encode())
    assert result.code == 4
    assert b"\x1b" not in result.stderr and b"\x07" not in result.stderr
    assert b"HTTP 404 Gone\\x1b]0;pwned\\x07\n" in result.stderr


def test_a_download_error_shows_the_reason_phrase_escaped(server, tmp_path):
    server.handler = lambda request: Response(status=404, reason=f"Gone{TITLE}", body=b"")
    result = run(["download", f"{server.url}/file.bin"], cwd=tmp_path)
    assert result.code == 4
    assert result.stderr == b"afcli: error: HTTP 404 Gone\\x1b]0;pwned\\x07; nothing was saved\n"
    assert list(tmp_path.iterdir()) == []


def test_the_status_warning_of_a_piped_response_shows_the_reason_escaped(server):
    server.handler = lambda request: Response(status=500, reason=f"Oops{TITLE}", body=b"x")
    result = run(["get", f"{server.url}/x"])
    assert result.code == 5
    assert result.stderr == b"afcli: warning: HTTP 500 Oops\\x1b]0;pwned\\x07\n"


def test_an_error_message_from_the_server_stays_on_one_line(server):
    server.handler = lambda request: Response(
        headers=[("Content-Type", "application/json")],
        body=b'{"status":1,"message":"first\\nafcli: error: forged\\r\\u001b[2J"}')
    result = run(["get", f"{server.url}/x", "--envelope"])
    assert result.code == 13
    assert result.stderr == b"afcli: error: first\\nafcli: error: forged\\x0d\\x1b[2J\n"


def test_write_out_values_sent_to_a_terminal_stderr_are_escaped(server):
    server.handler = lambda request: Response(
        headers=[("Content-Type", "text/plain"), ("X-Title", TITLE)], body=b"body")
    code, out, terminal = run_stderr_tty(["get", f"{server.url}/x", "-w", "%{stderr}[%header{x-title}]"])
    assert (code, out) == (0, b"body")
    assert terminal == b"[\\x1b]0;pwned\\x07]"
    piped = run(["get", f"{server.url}/x", "-w", "%{stderr}[%header{x-title}]"])
    assert piped.stderr == f"[{TITLE}]".encode()
