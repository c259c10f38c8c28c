"""Bad input: one clear error line, exit 2, nothing sent, nothing overwritten."""

import os
import re
import socket
from pathlib import Path

import pytest

from conftest import run, start


def assert_usage_error(result, *fragments):
    assert result.code == 2, result
    first = result.err.splitlines()[0]
    assert first.startswith("afcli: error: "), result.err
    for fragment in fragments:
        assert fragment in result.err, result.err
    assert result.stdout == b""


@pytest.mark.parametrize("args, fragments", [
    (["get", "URL", "--folow"], ["--folow", "did you mean --follow"]),
    (["post", "URL", "noseparator"], ['"noseparator"', "request item"]),
    (["post", "URL", "a:={bad json"], ["invalid JSON", "a:={bad json", "^"]),
    (["post", "URL", "a=1", "a[b]=2"], ['"a"', "a[b]", "^"]),
    (["post", "URL", "a[b=1"], ["a[b", "^"]),
    (["post", "URL", "a=@/nonexistent/file"], ["/nonexistent/file"]),
    (["post", "URL", "@/nonexistent/body"], ["/nonexistent/body"]),
    (["post", "URL", "a=1", "--raw", "x"], ["cannot be mixed"]),
    (["get", "http://exa mple.com:99999/"], ["invalid URL"]),
    (["get", "ftp://example.com/"], ["invalid URL"]),
    (["get", "URL", "Bad Header:x"], ["invalid header"]),
    (["get", "URL", "X-A;value"], ["empty header"]),
    (["get", "URL", "--timeout", "abc"], ["--timeout"]),
    (["get", "URL", "--print=Z"], ["--print"]),
    (["get"], ["URL"]),
])
def test_bad_input_is_refused_before_sending(server, args, fragments):
    args = [a.replace("URL", server.url + "/x") for a in args]
    result = run(args)
    assert_usage_error(result, *fragments)
    assert server.requests == []


def test_body_from_stdin_and_items_conflict(server):
    result = run(["post", f"{server.url}/x", "a=1"], input=b"stdin body")
    assert_usage_error(result, "cannot be mixed")
    assert server.requests == []


def test_an_idle_stdin_pipe_beside_items_is_not_waited_for(server):
    # An inherited pipe nobody writes to (cron, CI runners): the items are the body, and afcli
    # neither hangs on the pipe nor refuses the request.
    read_end, write_end = os.pipe()
    try:
        result = run(["post", f"{server.url}/x", "a=1"], stdin=read_end, timeout=10)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert result.code == 0, result
    assert [r.body for r in server.requests] == [b'{"a":"1"}']


def test_connection_refused_exit_code():
    result = run(["get", "http://127.0.0.1:9/"])
    assert result.code == 8, result
    assert result.err.startswith("afcli: error: ")
    assert len(result.err.strip().splitlines()) == 1


def test_timeout_exit_code(server):
    import time
    from conftest import Response

    def slow(request):
        time.sleep(3)
        return Response()
    server.handler = slow
    result = run(["get", "--timeout", "0.5", f"{server.url}/slow"])
    assert result.code == 7, result
    assert "timed out" in result.err


def test_interrupt_exits_130(server):
    import signal
    import subprocess
    import time
    from conftest import Response, base_env

    def slow(request):
        time.sleep(10)
        return Response()
    server.handler = slow
    proc = start(["get", f"{server.url}/slow"], stdin=subprocess.DEVNULL,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=base_env())
    time.sleep(0.7)
    started = time.time()
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=5)
    assert code == 130
    assert time.time() - started < 2


def test_an_interrupted_body_on_a_terminal_ends_its_line(server):
    import pty
    import signal
    import subprocess
    import time
    from conftest import Response, base_env, drain

    def trickle():
        yield b"abc"
        time.sleep(10)
    server.handler = lambda request: Response(headers=[("Content-Type", "text/plain"), ("Content-Length", "100")],
                                              body=trickle)
    master, slave = pty.openpty()
    proc = start(["get", f"{server.url}/slow", "--body"], stdin=subprocess.DEVNULL,
                 stdout=slave, stderr=subprocess.PIPE, env=base_env({"TERM": "xterm"}))
    os.close(slave)
    time.sleep(0.7)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=5) == 130
    shown = drain(master, 0.2)
    os.close(master)
    # The error line on standard error, which shares the terminal, must not continue "abc".
    assert shown.replace(b"\r\n", b"\n").endswith(b"abc\n"), shown
    assert proc.stderr.read() == b"afcli: error: interrupted\n"


def test_help_and_version():
    result = run(["--help"])
    assert result.code == 0 and "usage: afcli" in result.out.lower()
    assert "--follow" in result.out
    long_help = run(["help"])
    assert long_help.code == 0 and "EXIT STATUS" in long_help.out
    assert len(long_help.out) > len(result.out)
    version = run(["--version"])
    assert version.code == 0 and version.out.startswith("afcli ")


def test_the_readme_tells_the_length_of_help_within_a_tenth():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    claimed = re.search(r"afcli --help +#.*about (\d+) lines", readme)
    assert claimed, "README no longer says how long --help is"
    lines = run(["--help"]).out.count("\n")
    assert abs(lines - int(claimed.group(1))) <= lines / 10, (lines, claimed.group(0))


def test_man_prints_the_committed_man_page_and_markdown_reference():
    root = Path(__file__).resolve().parents[2]
    assert run(["man"]).out == (root / "man" / "afcli.1").read_text()
    assert run(["man", "markdown"]).out == (root / "docs" / "reference.md").read_text()
    wrong = run(["man", "html"])
    assert (wrong.code, wrong.err) == (2, 'afcli: error: man: unexpected argument "html"\n')


def test_completions_command():
    for shell in ("bash", "zsh", "fish"):
        result = run(["completions", shell])
        assert result.code == 0 and "--follow" in result.out
    assert run(["completions", "tcsh"]).code == 2


def test_pin_refuses_offline_before_connecting():
    # pin only makes a TLS handshake; --offline would otherwise be ignored and connect anyway.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(0.5)
        port = listener.getsockname()[1]
        result = run(["pin", "--offline", f"https://127.0.0.1:{port}/"])
        with pytest.raises(socket.timeout):
            listener.accept()
    assert result.code == 2, result
    assert result.err == (
        "afcli: error: --offline does not apply to afcli pin (it sends no request, only makes a TLS handshake)\n"
    )
