"""afcli run's times and live line: parallel requests to a plain-http host start together, the
NDJSON times of a request that was sent are never null (a failed decryption, an interrupt), and
the status line on a terminal fits its width."""

import json
import os
import re
import signal
import subprocess
import time

from conftest import base_env, drain, run, start
from test_run import counting, lines, records  # noqa: F401  (fixture)


def test_parallel_requests_to_a_plain_http_host_do_not_wait_for_the_first(counting):  # noqa: F811
    counting.answer(delays={name: 0.5 for name in "abcd"})
    started = time.monotonic()
    r = run(["run", "-", "--parallel", "4"], input=lines(counting.url, "abcd"))
    elapsed = time.monotonic() - started
    assert r.code == 0, r
    assert counting.most_active == 4 and counting.connections == 4
    assert elapsed < 0.95, elapsed
    for record in records(r):
        # Each line's times add up to no more than the run took: nothing waited unseen.
        assert 0.5 <= record["time"]["total"] and record["time"]["queue"] + record["time"]["total"] <= elapsed


def test_a_request_whose_decryption_failed_keeps_its_measured_times(server, tmp_path):
    r = run(["run", "-", "--decrypt-cmd", "cat >/dev/null; exit 3"], input=f"get {server.url}/a\n".encode())
    assert r.code == 1, r
    record = records(r)[0]
    assert "decrypt" in record["error"] and record["status"] == 200
    assert record["time"] is not None and record["time"]["total"] > 0 and record["remote"] is not None
    assert record["time"]["first_byte"] is not None


def test_an_interrupted_request_keeps_its_measured_times(counting):  # noqa: F811
    counting.answer(delays={"slow": 10})
    proc = start(
        ["run", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=base_env())
    proc.stdin.write(lines(counting.url, ["slow"]))
    proc.stdin.close()
    proc.stdin = None
    deadline = time.time() + 10
    while time.time() < deadline and "slow" not in counting.arrivals:
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 130, (out, err)
    record = json.loads(out.decode())
    assert record["error"] == "interrupted", record
    assert record["time"] is not None and record["time"]["total"] >= 0.25, record
    # The response never began: that phase did not happen.
    assert record["time"]["first_byte"] is None and record["remote"] is not None


def test_the_live_line_fits_a_narrow_terminal(counting):  # noqa: F811
    import fcntl
    import pty
    import struct
    import termios
    counting.answer(delays={name: 0.25 for name in "abcdef"})
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 30, 0, 0))
    proc = start(
        ["run", "-", "--parallel", "2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=slave, env=base_env({"TERM": "xterm"}), close_fds=True)
    os.close(slave)
    out, _ = proc.communicate(lines(counting.url, "abcdef"), timeout=20)
    err = drain(master, 0.5).decode()
    os.close(master)
    assert proc.returncode == 0, (out, err)
    summary_at = err.index("run: 6 requests")
    live = [part.replace("\x1b[K", "") for part in err[:summary_at].split("\r")]
    drawn = [part for part in live if part]
    assert drawn, err
    # Every redraw stays within 29 columns, on the one line: no line feed before the summary.
    assert all(len(part) <= 29 and "\n" not in part for part in drawn), drawn
    assert any(re.fullmatch(r"run: \d/6 done, \d failed", part) for part in drawn), drawn
