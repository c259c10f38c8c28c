"""Fixtures for afcli's black-box tests: the built binary, a loopback server and httpbin.

Every server listens on 127.0.0.1 at a port picked by the kernel, and is stopped by the fixture.
"""

import atexit
import os
import pty
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from loopback import LoopbackServer, Response  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("AFCLI_BIN", ROOT / ".build" / "debug" / "afcli")).resolve()


@pytest.fixture(scope="session", autouse=True)
def remove_pytest_temporary_directories(request, tmp_path_factory):
    """Removes this run's tmp_path directories at the end (pytest keeps the last three runs'),
    unless a test failed and its files may explain why."""
    yield
    if request.session.testsfailed == 0:
        shutil.rmtree(tmp_path_factory.getbasetemp(), ignore_errors=True)


class Result:
    def __init__(self, code, stdout, stderr):
        self.code = code
        self.stdout = stdout
        self.stderr = stderr

    @property
    def out(self):
        return self.stdout.decode("utf-8", "replace")

    @property
    def err(self):
        return self.stderr.decode("utf-8", "replace")

    def __repr__(self):
        return f"Result(code={self.code}, stdout={self.stdout[:400]!r}, stderr={self.stderr[:400]!r})"


# Every afcli run gets an empty home of its own, so the user's config file (default_options,
# environments), sessions and response cache never change what a test sees, and no test writes
# into the real ones. A test that needs a home passes its own HOME.
TEST_HOME = Path(tempfile.mkdtemp(prefix="afcli-home-"))
atexit.register(shutil.rmtree, TEST_HOME, True)


def base_env(extra=None):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(TEST_HOME),
        "LANG": "C.UTF-8",
    }
    if extra:
        env.update(extra)
    return env


# `AFCLI_TEST_CPUS=0` pins every afcli a test starts to that CPU list (taskset's), to run the
# parallel path on one core on a machine with more; `cpus=` pins one start.
TEST_CPUS = os.environ.get("AFCLI_TEST_CPUS") or None
# One CPU this process may run on, for a start pinned to a single core.
ONE_CPU = str(min(os.sched_getaffinity(0)))


@pytest.fixture(params=[None, ONE_CPU], ids=["all-cpus", "one-cpu"])
def cpus(request):
    """Runs a case twice: with afcli on every CPU it may use, and pinned to one (`cpus=cpus`), so
    a run's parallel path is tested on one core too."""
    return request.param


def command(args, cpus=None):
    """The argv that starts afcli with `args`, under `taskset --cpu-list` when pinned."""
    cpus = cpus or TEST_CPUS
    return [*(["taskset", "--cpu-list", cpus] if cpus else []), str(BINARY), *args]


def signal_of(returncode, through_shell=False):
    """The signal that ended a process, or None when it exited: a negative returncode as Python
    reports one, or 128 + N as a shell does (`through_shell`); 130 through a shell counts as the
    exit status afcli documents for an interrupt."""
    if returncode is None:
        return None
    if returncode < 0:
        return -returncode
    if through_shell and 128 < returncode < 128 + signal.NSIG and returncode != 130:
        return returncode - 128
    return None


def exited(returncode, may_die_of=(), through_shell=False, detail=""):
    """Fails the case when afcli died of a signal instead of exiting, unless it is one of
    `may_die_of` (a SIGKILL the test sends, say); returns `returncode`. An interrupt is an exit:
    afcli answers SIGINT and SIGTERM with status 130."""
    died_of = signal_of(returncode, through_shell)
    if died_of is not None and died_of not in tuple(may_die_of):
        pytest.fail(f"afcli died of {signal.Signals(died_of).name} (returncode {returncode}) {detail}".rstrip(),
                    pytrace=False)
    return returncode


# afcli processes `start` began during the current case, with the signals they may die of.
STARTED = []


def check_started():
    """Fails the case when an afcli that `start` began died of a signal it did not expect, and
    forgets them all; one still running is left to the test (it ends it as it sees fit)."""
    started, STARTED[:] = list(STARTED), []
    for proc, may_die_of in started:
        if proc.poll() is not None:
            exited(proc.returncode, may_die_of, detail=f"(pid {proc.pid})")


@pytest.fixture(autouse=True)
def afcli_exits_rather_than_dying_of_a_signal():
    """Checks, as each case ends, the afcli processes it started (see `check_started`)."""
    yield
    check_started()


def start(args, may_die_of=(), cpus=None, **popen):
    """Starts afcli with `args` as a `subprocess.Popen` with `popen`'s keywords (env is base_env()
    unless given); the case fails at its end if afcli died of a signal not in `may_die_of`."""
    popen.setdefault("env", base_env())
    proc = subprocess.Popen(command(args, cpus), **popen)
    STARTED.append((proc, tuple(may_die_of)))
    return proc


def run_process(args, may_die_of=(), cpus=None, **keywords):
    """`subprocess.run` of afcli with `args` and `keywords` (env is base_env() unless given), for
    tests that need what `run` does not offer; fails the case if afcli died of a signal."""
    keywords.setdefault("env", base_env())
    proc = subprocess.run(command(args, cpus), **keywords)
    exited(proc.returncode, may_die_of, detail=f"stderr: {proc.stderr[-400:]!r}" if proc.stderr else "")
    return proc


# What a pipe holds before its writer blocks (Linux's default capacity is 64 KiB).
PREFILL_LIMIT = 60 * 1024


def run(args, stdin=subprocess.DEVNULL, input=None, env=None, cwd=None, timeout=30, cpus=None, may_die_of=()):
    """Runs afcli with stdout and stderr piped; stdin is /dev/null unless given. The case fails
    if afcli dies of a signal (see `exited`); `cpus` pins it (see `command`).

    `input` that fits in a pipe is written and the pipe closed before afcli starts, as in
    `printf … | afcli`: afcli refuses stdin beside command-line data only when its bytes are
    ready at once, so feeding them after the start would race with that look. Larger input is
    fed while afcli runs."""
    if input is not None and len(input) <= PREFILL_LIMIT:
        read_end, write_end = os.pipe()
        os.write(write_end, input)
        os.close(write_end)
        try:
            proc = run_process(
                args, may_die_of, cpus, stdin=read_end, capture_output=True,
                env=base_env(env), cwd=cwd, timeout=timeout,
            )
        finally:
            os.close(read_end)
        return Result(proc.returncode, proc.stdout, proc.stderr)
    if input is not None:
        stdin = None
    proc = run_process(
        args, may_die_of, cpus, stdin=stdin, input=input, capture_output=True,
        env=base_env(env), cwd=cwd, timeout=timeout,
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


def run_interrupted(args, stdin=subprocess.DEVNULL, pending=None, settle=0.5, timeout=10):
    """Runs afcli until it waits (it must still run after `settle` seconds), then sends SIGINT.
    `pending` is written to a standard input that is left open, so afcli waits for the rest; it
    is closed only once afcli has ended, since an end of input could otherwise win over the
    signal. For runs that print little. Returns its Result."""
    proc = start(
        args, stdin=subprocess.PIPE if pending is not None else stdin,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        if pending is not None:
            proc.stdin.write(pending)
            proc.stdin.flush()
        time.sleep(settle)
        assert proc.poll() is None, "afcli ended before it was interrupted"
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
        out, err = proc.communicate()
    return Result(proc.returncode, out, err)


def drain(master, wait):
    """Reads a pseudo-terminal until it closes, fails (EIO once the child is gone), or stays
    silent for `wait` seconds; returns what was read."""
    output = b""
    while select.select([master], [], [], wait)[0]:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        output += data
    return output


def run_tty(args, env=None, timeout=30, columns=100):
    """Runs afcli with stdout on a pseudo-terminal (stderr piped); returns the terminal text."""
    master, slave = pty.openpty()
    import fcntl, struct, termios
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    proc = start(
        args, stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.PIPE,
        env=base_env({"TERM": "xterm-256color", **(env or {})}), close_fds=True,
    )
    os.close(slave)
    output = b""
    deadline = time.time() + timeout
    while time.time() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            output += data
        elif proc.poll() is not None:
            # Drain what is left after the process has gone.
            output += drain(master, 0.05)
            break
    proc.wait(timeout=5)
    stderr = proc.stderr.read()
    proc.stderr.close()
    os.close(master)
    return Result(proc.returncode, output.replace(b"\r\n", b"\n"), stderr)


def run_on_new_terminal(args, answers, env=None, cwd=None):
    """Runs afcli in a new session whose controlling terminal is a fresh pty (its standard input
    too); for each (prompt, typed) of `answers`, waits until the terminal has shown `prompt`, then
    types `typed`. Returns (result, everything the terminal showed)."""
    import fcntl
    import termios

    master, slave = pty.openpty()
    proc = start(
        args, stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=base_env(env), cwd=cwd, start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
    )
    os.close(slave)
    shown = b""
    deadline = time.monotonic() + 20
    try:
        for prompt, typed in answers:
            while prompt not in shown and time.monotonic() < deadline and proc.poll() is None:
                if select.select([master], [], [], 0.2)[0]:
                    try:
                        shown += os.read(master, 1024)
                    except OSError:
                        break
            if proc.poll() is None:
                os.write(master, typed)
        out, err = proc.communicate(timeout=20)
        shown += drain(master, 0.1)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return Result(proc.returncode, out, err), shown


@pytest.fixture
def server():
    srv = LoopbackServer()
    yield srv
    srv.stop()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def httpbin():
    """httpbin under gunicorn on an ephemeral loopback port, started and stopped here."""
    if shutil.which("gunicorn") is None:
        pytest.fail("gunicorn is not installed: run 'make test', which installs it")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    fd = sock.fileno()
    proc = subprocess.Popen(
        ["gunicorn", "--bind", f"fd://{fd}", "--workers", "2", "--log-level", "warning", "httpbin:app"],
        pass_fds=[fd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    sock.close()
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as c:
                c.sendall(b"GET /get HTTP/1.0\r\nHost: x\r\n\r\n")
                if c.recv(12).startswith(b"HTTP/1"):
                    break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("httpbin did not start: " + proc.stderr.read().decode())
    yield url
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.stderr.close()


__all__ = ["run", "run_tty", "start", "run_process", "exited", "Response", "ROOT", "BINARY", "free_port"]
