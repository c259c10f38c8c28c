"""Progress on standard error: the bar fits the terminal it is drawn on, and percent lines never
go back (a body sent again after a redirect, a download restarted)."""

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time

from conftest import run, start
from test_download import RangeFile


def run_with_stderr_on_a_terminal(args, cwd, columns, timeout=20):
    """Runs afcli with standard error on a pseudo-terminal `columns` wide; returns the exit
    status and everything written to the terminal."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = start(args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave,
                 close_fds=True)
    os.close(slave)
    output = b""
    deadline = time.time() + timeout
    try:
        while time.time() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the process closed the terminal
                break
            if not data:
                break
            output += data
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=5)
    return proc.returncode, output.decode("utf-8", "replace")


def test_the_bar_fits_a_narrow_terminal(server, tmp_path):
    data = os.urandom(300_000)
    server.handler = RangeFile(data, chunk=10_000, delay=0.02)
    code, text = run_with_stderr_on_a_terminal(
        ["download", server.url + "/a-rather-long-file-name-for-a-narrow-pane.bin"], cwd=tmp_path, columns=40)
    assert code == 0, text
    bars = [piece for piece in re.split(r"[\r\n]", text) if piece.strip() and not piece.startswith("afcli:")]
    assert len(bars) >= 3, text
    assert any("%" in bar for bar in bars), text
    for bar in bars:
        assert len(bar) <= 40, (len(bar), bar)
    assert (tmp_path / "a-rather-long-file-name-for-a-narrow-pane.bin").read_bytes() == data


def test_upload_percent_lines_never_go_back_after_a_redirect(server, tmp_path):
    body = tmp_path / "up.bin"
    body.write_bytes(os.urandom(400_000))

    def handler(request):
        from conftest import Response
        if request.target == "/a":
            return Response(307, "Temporary Redirect", [("Location", "/b")], b"")
        return Response(200, "OK", [("Content-Type", "text/plain")], b"ok")

    server.handler = handler
    result = run(["post", "--follow", "--progress=percent", server.url + "/a", f"@{body}"])
    assert result.code == 0, result
    assert [r.target for r in server.requests] == ["/a", "/b"]
    percents = [int(m) for m in re.findall(r"^(\d+)%$", result.err, re.M)]
    assert percents == sorted(set(percents)) and percents[0] == 0 and percents[-1] == 100, result.err
