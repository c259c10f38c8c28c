"""afcli run: many requests in one process on libcurl's multi interface (stdin lines as the
source): order and keepers, the parallel limit, connection reuse and h2 multiplexing, the NDJSON
lines, exit statuses, --keep-going, --output-dir and Ctrl-C."""

import json
import os
import signal
import stat
import subprocess
import threading
import time

import pytest

from conftest import base_env, run, start
from loopback import LoopbackServer, Response
from nginx import NginxServer, TLSConfig
from test_network import certs, www  # noqa: F401  (fixtures)


class CountingServer(LoopbackServer):
    """A loopback server that also counts connections, and requests in progress at once."""

    def __init__(self):
        self.lock = threading.Lock()
        self.connections = 0
        self.active = 0
        self.most_active = 0
        self.arrivals = []
        super().__init__()

    def _connection(self, conn):
        with self.lock:
            self.connections += 1
        super()._connection(conn)

    def answer(self, delays=None, statuses=None):
        """Answers /NAME after delays.get(NAME) seconds with statuses.get(NAME, 200)."""
        delays = delays or {}
        statuses = statuses or {}

        def handler(request):
            name = request.target.lstrip("/")
            with self.lock:
                self.arrivals.append(name)
                self.active += 1
                self.most_active = max(self.most_active, self.active)
            try:
                time.sleep(delays.get(name, 0))
            finally:
                with self.lock:
                    self.active -= 1
            status = statuses.get(name, 200)
            reason = {200: "OK", 404: "Not Found", 500: "Internal Server Error", 503: "Service Unavailable"}[status]
            return Response(status=status, reason=reason, body=f"body of {name}\n".encode())

        self.handler = handler


@pytest.fixture
def counting():
    srv = CountingServer()
    yield srv
    srv.stop()


def lines(url, names, extra=""):
    return "".join(f"get {url}/{name}{extra}\n" for name in names).encode()


def records(result):
    return [json.loads(line) for line in result.out.splitlines()]


# MARK: - Order, keepers, parallelism, reuse

def test_sequential_by_default_in_the_order_written_over_one_connection(counting):
    counting.answer()
    r = run(["run", "-"], input=lines(counting.url, ["a", "b", "c", "d"]))
    assert r.code == 0, r
    assert counting.arrivals == ["a", "b", "c", "d"]
    assert [x["name"] for x in records(r)] == ["line-1", "line-2", "line-3", "line-4"]
    assert counting.connections == 1
    assert [x["reused"] for x in records(r)] == [False, True, True, True]


def test_parallel_never_exceeds_n_requests_at_once(counting, cpus):
    counting.answer(delays={str(i): 0.2 for i in range(9)})
    r = run(["run", "-", "--parallel", "3"], input=lines(counting.url, [str(i) for i in range(9)]), cpus=cpus)
    assert r.code == 0, r
    assert len(records(r)) == 9
    assert counting.most_active <= 3
    assert counting.most_active >= 2, "nothing ran at the same time"
    # Connections are reused: at most one per request in flight.
    assert counting.connections <= 3


def threads_while_held(counting, options, names):
    """The number of threads afcli runs while the server holds every request of `names`."""
    proc = start(
        ["run", "-", *options], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=base_env())
    proc.stdin.write(lines(counting.url, names))
    proc.stdin.close()
    proc.stdin = None
    deadline = time.time() + 10
    while time.time() < deadline and counting.active < len(names):
        time.sleep(0.02)
    threads = len(os.listdir(f"/proc/{proc.pid}/task"))
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, (out, err)
    assert len(out.decode().splitlines()) == len(names)
    return threads


def test_a_parallel_run_drives_every_transfer_from_its_one_thread(counting):
    # As curl -Z does from its one multi handle: on one core or many, decorated or not.
    counting.answer(delays={str(i): 0.5 for i in range(4)})
    names = [str(i) for i in range(4)]
    assert threads_while_held(counting, ["--parallel", "4"], names) == 1
    assert threads_while_held(counting, ["--parallel", "4", "--retry", "1"], names) == 1
    assert threads_while_held(counting, [], names[:1]) == 1
    assert threads_while_held(counting, ["--parallel", "4"], names[:1]) == 1


def test_keepers_complete_before_any_other_request_starts(counting, cpus):
    counting.answer(delays={"k1": 0.3, "k2": 0.2})
    source = (f"get {counting.url}/a\n# @first\nget {counting.url}/k1\nget {counting.url}/b\n"
              f"# @name k2\nget {counting.url}/k2\nget {counting.url}/c\n").encode()
    r = run(["run", "-", "--parallel", "4", "--first", "k2"], input=source, cpus=cpus)
    assert r.code == 0, r
    assert sorted(counting.arrivals[:2]) == ["k1", "k2"], counting.arrivals
    assert sorted(counting.arrivals[2:]) == ["a", "b", "c"]
    done = [x["name"] for x in records(r)]
    assert set(done[:2]) == {"line-3", "k2"}, done


def test_first_naming_no_request_is_a_usage_error_and_nothing_is_sent(counting):
    counting.answer()
    r = run(["run", "-", "--first", "nope"], input=lines(counting.url, ["a"]))
    assert r.code == 2, r
    assert r.err == 'afcli: error: --first: "nope" names no request of the batch\n'
    assert counting.arrivals == [] and r.out == ""


def test_run_options_are_refused_on_other_commands():
    r = run(["get", "http://127.0.0.1:9/", "--parallel", "2"])
    assert r.code == 2, r
    assert "--parallel does not apply to afcli request" in r.err


def test_missing_source_is_a_usage_error():
    r = run(["run"])
    assert r.code == 2, r
    assert "run: missing SOURCE" in r.err


# MARK: - NDJSON

def test_ndjson_shape_and_ordered_metrics(counting):
    counting.answer()
    r = run(["run", "-"], input=lines(counting.url, ["one", "two"]))
    assert r.code == 0, r
    first, second = records(r)
    assert list(first) == ["name", "method", "url", "status", "bytes", "redirects", "http_version", "time",
                           "reused", "remote", "error", "exit"]
    assert first["method"] == "GET" and first["url"] == counting.url + "/one"
    assert first["status"] == 200 and first["bytes"] == len(b"body of one\n")
    assert first["error"] is None and first["exit"] == 0 and first["http_version"] == "HTTP/1.1"
    assert first["remote"] == f"127.0.0.1:{counting.port}"
    for record in (first, second):
        assert list(record["time"]) == ["queue", "namelookup", "connect", "tls", "first_byte", "total"]
        assert record["time"]["tls"] is None  # plain http
    t = first["time"]
    assert 0 <= t["namelookup"] <= t["connect"] <= t["first_byte"] <= t["total"], t
    # The second reused the connection: no lookup or connect happened for it.
    t = second["time"]
    assert second["reused"] and t["namelookup"] is None and t["connect"] is None, t
    assert 0 <= t["first_byte"] <= t["total"], t
    # The second waited for the first: its queue time covers the first's transfer.
    assert second["time"]["queue"] >= first["time"]["total"]


def test_tls_metrics_are_ordered_and_h2_requests_share_one_connection(certs, www):  # noqa: F811
    for i in range(6):
        (www / f"f{i}.txt").write_text(f"file {i}\n")
    with NginxServer(www, tls=TLSConfig(certs / "leaf.pem", certs / "leaf.key"), http2=True) as srv:
        r = run(["run", "-", "--parallel", "6", f"--verify={certs / 'ca.pem'}"],
                input=lines(srv.url, [f"f{i}.txt" for i in range(6)]))
    assert r.code == 0, r
    result = records(r)
    assert len(result) == 6
    assert {x["http_version"] for x in result} == {"HTTP/2"}
    # One TLS connection, multiplexed: every other request reused it.
    assert [x["reused"] for x in result].count(False) == 1, result
    fresh = next(x for x in result if not x["reused"])["time"]
    assert 0 <= fresh["namelookup"] <= fresh["connect"] <= fresh["tls"] <= fresh["first_byte"] <= fresh["total"]


# MARK: - Failures and exit statuses

def test_stops_starting_requests_after_the_first_failure(counting):
    counting.answer(statuses={"b": 404})
    r = run(["run", "-"], input=lines(counting.url, ["a", "b", "c"]))
    assert r.code == 4, r
    assert counting.arrivals == ["a", "b"]
    result = records(r)
    assert [x["status"] for x in result] == [200, 404]
    assert result[1]["error"] == "HTTP 404 Not Found" and result[1]["exit"] == 4
    assert r.err == "afcli: error: line-2 (stdin:2): HTTP 404 Not Found\n"


def test_keep_going_runs_everything_and_exits_with_the_first_failure(counting):
    counting.answer(statuses={"b": 503, "c": 404})
    source = lines(counting.url, ["a", "b", "c"]) + b"get http://127.0.0.1:1/refused\n"
    r = run(["run", "-", "--keep-going"], input=source)
    assert r.code == 5, r
    result = records(r)
    assert [x["exit"] for x in result] == [0, 5, 4, 8]
    assert result[3]["status"] is None and "connect" in result[3]["error"]
    # The refused transfer's times stop at the failure: no connection, no first byte.
    refused = result[3]["time"]
    assert refused["connect"] is None and refused["first_byte"] is None and refused["total"] >= 0
    assert r.err.count("afcli: error: ") == 3


def test_no_check_status_makes_http_errors_successes(counting):
    counting.answer(statuses={"a": 500})
    r = run(["run", "-", "--no-check-status"], input=lines(counting.url, ["a"]))
    assert r.code == 0, r
    assert records(r)[0]["status"] == 500 and records(r)[0]["error"] is None


def test_a_connection_failure_exits_8(counting):
    r = run(["run", "-"], input=b"get http://127.0.0.1:1/x\n")
    assert r.code == 8, r


def test_a_timed_out_request_reports_its_times_up_to_the_failure():
    # A server that accepts and never answers: the line has the connect time, no first byte, and
    # the total until --max-time gave up, as curl -w reports them.
    import socket
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        r = run(["run", "-", "--max-time", "0.5"], input=f"get http://127.0.0.1:{port}/x\n".encode())
    assert r.code == 7, r
    [line] = records(r)
    assert line["status"] is None and line["remote"] == f"127.0.0.1:{port}"
    times = line["time"]
    assert times["first_byte"] is None and times["tls"] is None
    assert 0 < times["namelookup"] <= times["connect"] <= times["total"]
    assert 0.4 <= times["total"] < 30


# MARK: - --output-dir

def test_output_dir_saves_each_body_under_a_safe_unique_name(counting, tmp_path):
    counting.answer()
    source = (f"# @name ../up\nget {counting.url}/x\n# @name ../up\nget {counting.url}/y\n"
              f"get {counting.url}/z\n").encode()
    out = tmp_path / "bodies"
    r = run(["run", "-", "--output-dir", str(out)], input=source)
    assert r.code == 0, r
    assert sorted(os.listdir(out)) == ["_up-2.body", "_up.body", "line-5.body"]
    assert (out / "_up.body").read_bytes() == b"body of x\n"
    assert (out / "_up-2.body").read_bytes() == b"body of y\n"
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(out / "line-5.body").st_mode) == 0o600
    assert [x["file"] for x in records(r)] == [str(out / "_up.body"), str(out / "_up-2.body"),
                                               str(out / "line-5.body")]


def test_output_dir_never_writes_through_a_symbolic_link(counting, tmp_path):
    counting.answer()
    out = tmp_path / "bodies"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    (out / "line-1.body").symlink_to(victim)
    r = run(["run", "-", "--output-dir", str(out)], input=lines(counting.url, ["a"]))
    assert r.code == 1, r
    assert victim.read_text() == "keep me\n"
    assert "symbolic link" in records(r)[0]["error"]


@pytest.mark.parametrize("given, reason", [
    ("f", "not a directory"),                      # an existing file
    ("f/sub", "not a directory"),                  # under a file: stat fails
    ("missing/sub", "no such file or directory"),  # mkdir fails
])
def test_output_dir_that_cannot_be_used_is_bad_input_refused_before_sending(counting, tmp_path, given, reason):
    counting.answer()
    (tmp_path / "f").write_text("x")
    path = tmp_path / given
    r = run(["run", "-", "--output-dir", str(path)], input=lines(counting.url, ["a"]))
    assert r.code == 2, r
    assert r.err == f'afcli: error: --output-dir "{path}": {reason}\n', r
    assert r.out == ""
    assert counting.arrivals == []
    assert sorted(os.listdir(tmp_path)) == ["f"] and (tmp_path / "f").read_text() == "x"


# MARK: - Ctrl-C

def test_ctrl_c_cancels_in_flight_requests_prints_the_summary_and_exits_130(counting, cpus):
    counting.answer(delays={"slow1": 10, "slow2": 10})
    proc = start(
        ["run", "-", "--parallel", "2"], cpus=cpus, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=base_env())
    proc.stdin.write(lines(counting.url, ["fast", "slow1", "slow2", "never"]))
    proc.stdin.close()
    proc.stdin = None
    deadline = time.time() + 10
    while time.time() < deadline and not {"slow1", "slow2"} <= set(counting.arrivals):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 130, (out, err)
    result = [json.loads(line) for line in out.decode().splitlines()]
    assert [x["name"] for x in result if x["error"] is None] == ["line-1"]
    assert sorted(x["name"] for x in result if x["error"] == "interrupted") == ["line-2", "line-3"]
    assert "never" not in counting.arrivals
    assert "run: 4 requests, 1 succeeded, 2 failed, 1 not started" in err.decode()
    assert err.decode().rstrip().endswith(", interrupted")


# MARK: - Terminal

def test_on_a_terminal_stderr_shows_the_live_line_and_a_summary(counting):
    import pty
    from conftest import drain
    counting.answer(delays={"b": 0.3})
    master, slave = pty.openpty()
    proc = start(
        ["run", "-", "--parallel", "2", "--keep-going"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=slave, env=base_env({"TERM": "xterm"}), close_fds=True)
    os.close(slave)
    out, _ = proc.communicate(lines(counting.url, ["a", "b", "c"]), timeout=20)
    err = drain(master, 0.5).decode()
    os.close(master)
    assert proc.returncode == 0, (out, err)
    assert len(out.decode().splitlines()) == 3  # NDJSON still goes to stdout
    import re
    assert re.search(r"run: \d/3 done, 0 failed, \d running, [\d.]+/s", err), err
    assert "\x1b[K" in err
    assert "run: 3 requests, 3 succeeded, 0 failed, 0 not started in " in err


# MARK: - Redirects

def test_follow_queues_each_hop_as_a_new_transfer_and_no_follow_reports_the_3xx(server):
    def handler(request):
        if request.target == "/old":
            return Response(status=302, reason="Found", headers=[("Location", "/new")], body=b"")
        return Response(body=b"new\n")
    server.handler = handler
    followed = run(["run", "-", "--follow"], input=f"get {server.url}/old\n".encode())
    assert followed.code == 0, followed
    record = records(followed)[0]
    assert (record["status"], record["redirects"], record["bytes"]) == (200, 1, 4)
    assert [r.target for r in server.requests] == ["/old", "/new"]
    plain = run(["run", "-"], input=f"get {server.url}/old\n".encode())
    assert plain.code == 3, plain
    assert records(plain)[0]["status"] == 302 and records(plain)[0]["error"] == "HTTP 302 Found"


def test_readable_lines_on_the_same_terminal_never_share_a_line_with_the_status(counting):
    import pty
    from conftest import drain
    counting.answer(delays={"b": 0.3, "d": 0.3})
    master, slave = pty.openpty()
    proc = start(
        ["run", "-", "--parallel", "2"], stdin=subprocess.PIPE, stdout=slave, stderr=slave,
        env=base_env({"TERM": "xterm"}), close_fds=True)
    os.close(slave)
    proc.stdin.write(lines(counting.url, ["a", "b", "c", "d", "e"]))
    proc.stdin.close()
    output = b""
    deadline = time.time() + 20
    while time.time() < deadline and proc.poll() is None:
        output += drain(master, 0.2)
    output += drain(master, 0.2)
    os.close(master)
    assert proc.wait(timeout=5) == 0, output
    text = output.decode().replace("\r\n", "\n")
    # A run on a terminal shows a readable line per request (NDJSON is for pipes and files).
    found = [line for line in text.split("\n") if "PASS" in line]
    assert len(found) == 5 and '{"name"' not in text, text
    for line in found:
        rest = line.split("\x1b[K")[-1]
        assert rest.startswith("\x1b[1;32mPASS\x1b[0m  line-") and "200\x1b[0m  10 B" in rest, repr(line)
    # The summary does not follow the live line on its line either.
    (summary,) = [line for line in text.split("\n") if "passed" in line]
    assert summary.split("\x1b[K")[-1].startswith("\x1b[1;32m5 passed\x1b[0m, 0 failed (5 requests) in "), repr(summary)


# MARK: - The request log

def test_a_runs_log_blocks_are_those_of_the_same_requests_sent_one_by_one(server, tmp_path):
    server.handler = lambda request: Response(
        headers=[("Content-Type", "application/json")], body=b'{"ok":true,"path":"%s"}' % request.target.encode())
    requests = [
        ["get", f"{server.url}/a", "page==2"],
        ["post", f"{server.url}/b", "q=玩具车", "n:=3"],
        ["get", f"{server.url}/missing-is-fine"],
    ]
    single = tmp_path / "single.log"
    for words in requests:
        assert run([*words, f"--log-file={single}"]).code == 0
    batch = tmp_path / "batch.log"
    source = "".join(" ".join(f"'{w}'" for w in words) + "\n" for words in requests).encode()
    r = run(["run", "-", f"--log-file={batch}"], input=source)
    assert r.code == 0, r
    assert batch.read_bytes() == single.read_bytes()
    assert batch.read_text().count("网络请求Start") == 3


def test_a_run_logs_a_request_that_got_no_response_with_the_failure_text(tmp_path):
    log = tmp_path / "run.log"
    r = run(["run", "-", f"--log-file={log}"], input=b"get http://127.0.0.1:1/x\n")
    assert r.code == 8, r
    text = log.read_text()
    assert "地址：http://127.0.0.1:1/x" in text and "结果：无法连接服务器" in text


# MARK: - Decryption

def test_a_run_decrypts_2xx_bodies_and_fails_a_request_whose_decryption_fails(server, tmp_path):
    def handler(request):
        if request.target == "/bad":
            return Response(body=b"not decryptable")
        if request.target == "/missing":
            return Response(status=404, reason="Not Found", body=b"PLAIN ERROR")
        return Response(body=b"SECRET " + request.target.encode())
    server.handler = handler
    # A "decryption" that lower-cases, and refuses a body that says it cannot be decrypted.
    decrypt = "sh -c 'body=$(cat); case \"$body\" in not*) exit 3;; esac; printf %s \"$body\" | tr A-Z a-z'"
    out = tmp_path / "out"
    source = lines(server.url, ["a", "b", "missing", "bad"])
    r = run(["run", "-", "--keep-going", "--decrypt-cmd", decrypt, "--output-dir", str(out)], input=source)
    result = {record["name"]: record for record in records(r)}
    assert (out / "line-1.body").read_bytes() == b"secret /a"
    assert (out / "line-2.body").read_bytes() == b"secret /b"
    assert result["line-1"]["bytes"] == 9 and result["line-1"]["exit"] == 0
    # Only 2xx bodies are decrypted; a failed decryption fails that request alone.
    assert (out / "line-3.body").read_bytes() == b"PLAIN ERROR" and result["line-3"]["exit"] == 4
    assert result["line-4"]["exit"] == 1 and "decrypt" in result["line-4"]["error"]
    # Nothing of a failed decryption is written: no file, none named in the line.
    assert not (out / "line-4.body").exists() and result["line-4"].get("file") is None
    assert r.code == 4, r


def test_a_failed_decryption_leaves_an_earlier_body_file_as_it_was(server, tmp_path):
    server.handler = lambda request: Response(body=b"not decryptable")
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    (out / "line-1.body").write_bytes(b"from an earlier run")
    r = run(["run", "-", "--decrypt-cmd", "cat >/dev/null; exit 3", "--output-dir", str(out)],
            input=lines(server.url, ["a"]))
    assert r.code == 1 and records(r)[0]["exit"] == 1, r
    assert (out / "line-1.body").read_bytes() == b"from an earlier run"


def test_an_empty_final_body_is_saved_as_an_empty_file(server, tmp_path):
    server.handler = lambda request: Response(status=204, reason="No Content", body=b"")
    out = tmp_path / "out"
    r = run(["run", "-", "--output-dir", str(out)], input=lines(server.url, ["a"]))
    assert r.code == 0 and records(r)[0]["file"] == str(out / "line-1.body"), r
    assert (out / "line-1.body").read_bytes() == b""
