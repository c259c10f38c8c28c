"""--retry for single requests and afcli run: curl's transient failures and idempotent methods,
Retry-After and rate-limit waits, --retry-delay, --retry-max-time, --retry-all-errors, pacing of
a run by host, -v notes, the run's "tries" field, refusals, and Ctrl-C during a wait."""

import json
import socket
import threading
import time

from conftest import run, run_interrupted, free_port
from loopback import LoopbackServer, Response


def failing_then_ok(server, failures, status=503, headers=None):
    """Answers `failures` times with `status` (and `headers`), then 200 with a body; returns the
    arrival times (monotonic) of the requests."""
    arrivals = []
    lock = threading.Lock()

    def handler(request):
        with lock:
            arrivals.append(time.monotonic())
            count = len(arrivals)
        if count <= failures:
            return Response(
                status=status, reason="Failing", headers=[("Content-Type", "text/plain"), *(headers or [])],
                body=b"failed try %d\n" % count)
        return Response(body=b'{"try":%d}' % count)

    server.handler = handler
    return arrivals


def test_503_with_retry_after_is_retried_until_200(server):
    arrivals = failing_then_ok(server, 2, headers=[("Retry-After", "1")])
    result = run([server.url + "/x", "--retry", "3", "--print=hb"], timeout=20)
    assert result.code == 0, result.err
    assert len(server.requests) == 3
    # The waits are the server's second, not the backoff's.
    assert arrivals[1] - arrivals[0] >= 0.95 and arrivals[2] - arrivals[1] >= 0.95
    # Only the final try reaches the output: no failed status line, no failed body.
    assert result.out.count("HTTP/1.1") == 1
    assert "200 OK" in result.out and result.out.endswith('{"try":3}')
    assert "failed try" not in result.out and "503" not in result.out


def test_without_retry_a_503_is_final(server):
    failing_then_ok(server, 1)
    result = run([server.url + "/x"])
    assert result.code == 5
    assert len(server.requests) == 1


def test_tries_used_up_end_with_the_last_answer(server):
    failing_then_ok(server, 10)
    result = run([server.url + "/x", "--retry", "2", "--retry-delay", "0.1", "--print=hb"], timeout=20)
    assert result.code == 5
    assert len(server.requests) == 3
    assert result.out.count("HTTP/1.1 503") == 1 and "failed try 3" in result.out


def test_verbose_notes_each_retry(server):
    failing_then_ok(server, 2)
    result = run([server.url + "/x", "--retry", "3", "--retry-delay", "0.1", "-v"], timeout=20)
    assert result.code == 0, result.err
    notes = [line for line in result.err.splitlines() if "retrying" in line]
    assert notes == [
        f"afcli: note: retrying GET {server.url}/x in 0.1 s (HTTP 503, try 2 of 4)",
        f"afcli: note: retrying GET {server.url}/x in 0.1 s (HTTP 503, try 3 of 4)",
    ]
    # The request is shown once, though it was sent three times.
    assert result.out.count("GET /x HTTP/1.1") == 1


def test_post_is_not_retried_without_retry_all_errors(server):
    failing_then_ok(server, 1)
    result = run([server.url + "/x", "--retry", "3", "--retry-delay", "0.1", "a=1"])
    assert result.code == 5
    assert len(server.requests) == 1


def test_verbose_says_why_a_post_is_not_retried_and_what_would_retry_it(server):
    failing_then_ok(server, 1)
    result = run([server.url + "/x", "--retry", "3", "--retry-delay", "0.1", "a=1", "-v"])
    assert result.code == 5 and len(server.requests) == 1
    notes = [line for line in result.err.splitlines() if "retrying" in line]
    assert notes == [
        f"afcli: note: not retrying POST {server.url}/x (HTTP 503): POST is not idempotent, so sending it again "
        "could repeat its effect; --retry-all-errors retries it"]
    quiet = run([server.url + "/x", "--retry", "3", "--retry-delay", "0.1", "a=1"])
    assert "retrying" not in quiet.err


def test_post_is_retried_with_retry_all_errors_and_its_body_sent_again(server, tmp_path):
    body = tmp_path / "body.bin"
    body.write_bytes(b"x" * 100_000)
    failing_then_ok(server, 1)
    result = run(
        ["post", server.url + "/x", "@" + str(body), "--retry", "3", "--retry-delay", "0.1", "--retry-all-errors"],
        timeout=20)
    assert result.code == 0, result.err
    assert [r.method for r in server.requests] == ["POST", "POST"]
    assert [r.body for r in server.requests] == [b"x" * 100_000] * 2


def test_connection_refused_is_retried():
    port = free_port()
    started = time.monotonic()
    # A server starts listening on the refused port while afcli waits between tries.
    result_box = {}

    def client():
        result_box["result"] = run(
            [f"http://127.0.0.1:{port}/x", "--retry", "20", "--retry-delay", "0.2"], timeout=20)

    thread = threading.Thread(target=client)
    thread.start()
    time.sleep(0.5)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(1)
    try:
        conn, _ = sock.accept()
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        conn.close()
        thread.join(20)
    finally:
        sock.close()
    result = result_box["result"]
    assert result.code == 0, result.err
    assert result.out == "ok"
    assert time.monotonic() - started >= 0.5


def test_retry_max_time_stops_retrying(server):
    failing_then_ok(server, 100)
    started = time.monotonic()
    result = run([server.url + "/x", "--retry", "100", "--retry-delay", "0.2", "--retry-max-time", "1"], timeout=20)
    assert result.code == 5
    assert time.monotonic() - started < 3
    assert 3 <= len(server.requests) <= 7


def test_a_server_wait_past_retry_max_time_is_not_waited_for(server):
    failing_then_ok(server, 1, headers=[("Retry-After", "30")])
    started = time.monotonic()
    result = run([server.url + "/x", "--retry", "3", "--retry-max-time", "5", "-v"], timeout=20)
    assert result.code == 5
    assert len(server.requests) == 1
    assert time.monotonic() - started < 3
    assert "not retrying" in result.err and "--retry-max-time" in result.err


def test_a_stdin_body_is_refused_with_retry(server):
    result = run(["post", server.url + "/x", "--retry", "2"], input=b'{"a":1}')
    assert result.code == 2
    assert result.err.startswith("afcli: error: --retry: a body read from standard input cannot be sent again")
    assert server.requests == []


def test_ctrl_c_during_a_retry_wait_ends_at_once(server):
    failing_then_ok(server, 1, headers=[("Retry-After", "60")])
    started = time.monotonic()
    result = run_interrupted([server.url + "/x", "--retry", "2"], settle=0.8)
    assert result.code == 130
    assert time.monotonic() - started < 5


def test_run_retries_and_reports_tries(server):
    failing_then_ok(server, 2, headers=[("Retry-After", "1")])
    result = run(["run", "-", "--retry", "3"], input=f"{server.url}/x\n".encode(), timeout=20)
    assert result.code == 0, result.err
    line = json.loads(result.out)
    assert line["status"] == 200 and line["tries"] == 3 and line["retry_reason"] == "HTTP 503"
    assert len(server.requests) == 3


def test_run_lines_without_retry_have_no_tries(server):
    result = run(["run", "-"], input=f"{server.url}/x\n".encode())
    assert "tries" not in json.loads(result.out)


def test_a_429_paces_later_requests_to_its_host_and_not_another(server):
    other = LoopbackServer()
    try:
        lock = threading.Lock()
        times = {}

        def handler(request):
            with lock:
                times.setdefault(request.target, []).append(time.monotonic())
                throttled = request.target == "/a" and len(times["/a"]) == 1
            if throttled:
                return Response(status=429, reason="Too Many Requests", headers=[("Retry-After", "2")], body=b"")
            if request.target.startswith("/slow"):
                time.sleep(0.5)
            return Response()

        server.handler = handler
        other.handler = handler
        # /a is throttled at once; the two slow requests elsewhere hold the other places for half
        # a second, after which /c (the throttled host) and /d (the other host) start.
        lines = f"{server.url}/a\n{other.url}/slow1\n{other.url}/slow2\n{server.url}/c\n{other.url}/d\n"
        result = run(["run", "-", "--retry", "2", "--parallel", "3"], input=lines.encode(), timeout=30)
        assert result.code == 0, result.err
        out = {json.loads(line)["url"].rsplit("/", 1)[1]: json.loads(line) for line in result.out.splitlines()}
        assert all(line["status"] == 200 for line in out.values())
        start = times["/a"][0]
        # The request to the same host that started after the 429 waited for its Retry-After...
        assert times["/c"][0] - start >= 1.9
        assert times["/a"][1] - start >= 1.9
        # ...while the other host was not held up.
        assert times["/d"][0] - start < 1.5
        assert out["a"]["tries"] == 2 and out["a"]["retry_reason"] == "HTTP 429"
        assert out["c"]["tries"] == 1 and out["c"]["retry_reason"] is None
    finally:
        other.stop()


def test_a_request_waiting_for_its_next_try_lends_its_slot_under_parallel(server):
    # Under --parallel 2, /job gets a 503 and waits 3 s (--retry-delay; a Retry-After would pace
    # the whole host) for its next try; /hold answers only once /other has arrived. /other can
    # start only in the slot /job lent: were /job keeping it, /hold would give up after 2 s with
    # a 409 (which is not retried).
    arrived = threading.Event()
    calls = {"job": 0}

    def handler(request):
        if request.target == "/job":
            calls["job"] += 1
            if calls["job"] == 1:
                return Response(status=503, reason="Service Unavailable")
            return Response()
        if request.target == "/hold":
            return Response() if arrived.wait(2) else Response(status=409, reason="Conflict")
        arrived.set()
        return Response()

    server.handler = handler
    lines = f"{server.url}/job\n{server.url}/hold\n{server.url}/other\n"
    result = run(["run", "-", "--retry", "1", "--retry-delay", "3", "--parallel", "2"], input=lines.encode(),
                 timeout=30)
    out = {json.loads(line)["url"].rsplit("/", 1)[1]: json.loads(line) for line in result.out.splitlines()}
    assert result.code == 0, result
    assert out["job"]["tries"] == 2 and out["hold"]["status"] == 200 and out["other"]["status"] == 200
    # One after the other, a request keeps its turn while it waits: the next starts after it.
    calls["job"] = 0
    server.requests.clear()
    server.handler = handler
    result = run(["run", "-", "--retry", "1", "--retry-delay", "0.2"],
                 input=f"{server.url}/job\n{server.url}/other\n".encode(), timeout=30)
    assert result.code == 0, result
    assert [r.target for r in server.requests] == ["/job", "/job", "/other"]


def test_retry_options_are_refused_on_a_run_line(server):
    result = run(["run", "-"], input=f"{server.url}/x --retry 2\n".encode())
    assert result.code == 2
    assert "--retry" in result.err


def test_retry_max_time_is_refused_by_download(server, tmp_path):
    result = run(["download", server.url + "/x", "--retry", "2", "--retry-max-time", "5"], cwd=tmp_path)
    assert result.code == 2
    assert "--retry-max-time" in result.err
    assert server.requests == []


def test_retry_connrefused_points_at_retry():
    result = run(["http://127.0.0.1:1/", "--retry-connrefused"])
    assert result.code == 2
    assert "--retry" in result.err


def chunk(data):
    return b"%x\r\n%s\r\n" % (len(data), data)


def dropping_event_stream(server, second_part=b"id: 3\ndata: {\"n\":3}\n\n", cut=b""):
    """Sends events 1 and 2 (retry: 100) and drops the connection (no last chunk, `cut` sent
    first); a reconnection with Last-Event-ID: 2 gets `second_part` and a clean end."""

    def handler(request):
        if request.header("Last-Event-ID") == "2":
            def rest():
                yield chunk(second_part)
                yield b"0\r\n\r\n"
            return Response(
                headers=[("Content-Type", "text/event-stream"), ("Transfer-Encoding", "chunked")], body=rest)

        def first():
            yield chunk(b"retry: 100\nid: 1\ndata: {\"n\":1}\n\n")
            yield chunk(b"id: 2\ndata: {\"n\":2}\n\n")
            if cut:
                yield chunk(cut)
        return Response(
            headers=[("Content-Type", "text/event-stream"), ("Transfer-Encoding", "chunked")], body=first,
            fault="close")

    server.handler = handler


def test_reconnect_resumes_a_dropped_event_stream_with_last_event_id(server):
    dropping_event_stream(server)
    result = run([server.url + "/events", "--reconnect", "--retry", "3", "-v", "--print=hb"], timeout=20)
    assert result.code == 0, result.err
    assert [r.header("Last-Event-ID") for r in server.requests] == [None, "2"]
    assert f"afcli: note: reconnecting to {server.url}/events in 0.1 s" in result.err
    assert "with Last-Event-ID: 2" in result.err
    # Piped, the body is the stream as received across both connections, each event once.
    assert result.out.endswith('retry: 100\nid: 1\ndata: {"n":1}\n\nid: 2\ndata: {"n":2}\n\nid: 3\ndata: {"n":3}\n\n')
    assert result.out.count("HTTP/1.1 200") == 1, "the reconnection's head is not shown again"


def test_reconnect_events_as_json_lines_each_once(server):
    dropping_event_stream(server, cut=b"data: {\"cut\":")
    result = run([server.url + "/events", "--reconnect", "--retry", "2", "--events=json"], timeout=20)
    assert result.code == 0, result.err
    events = [json.loads(line) for line in result.out.splitlines()]
    datas = [event["data"] for event in events]
    assert datas[:2] == [{"n": 1}, {"n": 2}] and datas[-1] == {"n": 3}
    assert [event["id"] for event in events if event["data"] == {"n": 3}] == ["3"]


def test_reconnect_drops_the_event_a_drop_cut_off_as_eventsource_does(server):
    dropping_event_stream(server, cut=b"id: 9\ndata: {\"cut\":")
    result = run([server.url + "/events", "--reconnect", "--retry", "2", "--events=json"], timeout=20)
    assert result.code == 0, result.err
    assert [json.loads(line)["data"] for line in result.out.splitlines()] == [{"n": 1}, {"n": 2}, {"n": 3}]
    # The cut event's id was never dispatched: the reconnection asks for what follows event 2.
    assert [r.header("Last-Event-ID") for r in server.requests] == [None, "2"]
    raw = run([server.url + "/events", "--reconnect", "--retry", "2", "--print=b"], timeout=20)
    assert raw.out == 'retry: 100\nid: 1\ndata: {"n":1}\n\nid: 2\ndata: {"n":2}\n\nid: 3\ndata: {"n":3}\n\n', raw


def test_reconnect_connects_again_a_stream_that_ends_by_a_close(server):
    # No Content-Length, no chunking: the close that ends the body may be a proxy's drop, and
    # EventSource reconnects on any close.
    def handler(request):
        if request.header("Last-Event-ID") == "2":
            body = b"id: 3\ndata: {\"n\":3}\n\ndata: {\"half\":"
        else:
            body = b"retry: 100\nid: 1\ndata: {\"n\":1}\n\nid: 2\ndata: {\"n\":2}\n\n"
        return Response(headers=[("Content-Type", "text/event-stream")], body=body, fault="close-delimited")

    server.handler = handler
    result = run([server.url + "/events", "--reconnect", "--retry", "1", "--events=json", "-v", "--print=b"], timeout=20)
    assert result.code == 0, result.err
    assert [json.loads(line)["data"] for line in result.out.splitlines()] == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert [r.header("Last-Event-ID") for r in server.requests] == [None, "2"]
    assert (f"afcli: note: reconnecting to {server.url}/events in 0.1 s (the server closed the stream, try 2 of 2) "
            "with Last-Event-ID: 2") in result.err
    # The last connection's open event is told of, as the end of any stream cut inside an event.
    assert "ended inside an event" in result.err
    # A stream whose framing marks its end is over when it ends: not connected again.
    server.handler = lambda request: Response(
        headers=[("Content-Type", "text/event-stream")], body=b"data: 1\n\n")
    server.requests.clear()
    framed = run([server.url + "/events", "--reconnect", "--retry", "2"], timeout=20)
    assert framed.code == 0 and len(server.requests) == 1, framed


def test_without_reconnect_a_dropped_stream_fails(server):
    dropping_event_stream(server)
    result = run([server.url + "/events", "--retry", "3"], timeout=20)
    assert result.code == 1, result
    assert len(server.requests) == 1


def test_reconnect_needs_retry(server):
    result = run([server.url + "/events", "--reconnect"])
    assert result.code == 2
    assert result.err.startswith("afcli: error: --reconnect: needs --retry N")
    assert server.requests == []


def test_retries_sit_behind_the_cache(server, tmp_path):
    # The 503 is retried before the cache sees it: only the final 200 is stored, and answers next.
    arrivals = []

    def handler(request):
        arrivals.append(request)
        if len(arrivals) == 1:
            return Response(status=503, reason="Unavailable", headers=[("Content-Type", "text/plain")], body=b"no")
        return Response(headers=[("Content-Type", "application/json"), ("Cache-Control", "max-age=60")])

    server.handler = handler
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    first = run([server.url + "/c", "--cache", "--retry", "2", "--retry-delay", "0.1"], env=env, timeout=20)
    assert first.code == 0, first.err
    second = run([server.url + "/c", "--cache", "--retry", "2", "--retry-delay", "0.1"], env=env, timeout=20)
    assert second.code == 0, second.err
    assert second.out == '{"ok":true}'
    assert len(arrivals) == 2
