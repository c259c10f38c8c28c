"""Streaming responses: server-sent events and JSON lines shown as they arrive (formatted on a
terminal or with --pretty, exact bytes piped, one JSON object per event with --events=json),
memory flat for a long stream, Ctrl-C ending it with exit status 130."""

import json
import os
import re
import select
import signal
import subprocess
import threading
import time

import pytest

from conftest import Response, base_env, run, run_tty, start

ANSI = re.compile(rb"\x1b\[[0-9;]*m")

SSE = (
    b"\xef\xbb\xbf: keep-alive\r\n"
    b"event: delta\r\nid: 1\r\ndata: {\"text\":\"Hel\",\r\ndata: \"n\":1}\r\n\r\n"
    b"data: plain words\n\n"
    b"data: [DONE]\n\n"
)


def frame(part):
    """`part` as one HTTP/1.1 chunk."""
    return b"%x\r\n%s\r\n" % (len(part), part)


def stream(server, content_type, parts):
    """Answers with `parts`, sent one chunk at a time (a callable part is called in between)."""

    def body():
        for part in parts:
            if callable(part):
                part()
                continue
            yield frame(part)
        yield b"0\r\n\r\n"

    server.handler = lambda r: Response(
        200, "OK", [("Content-Type", content_type), ("Transfer-Encoding", "chunked")], body)


# What each type's first value looks like once formatted, and the bytes that carry it.
FIRST_AND_SECOND = {
    "text/event-stream": (b"event: first\ndata: {\"n\":1}\n\n", b"data: {\"n\":2}\n\n"),
    "application/x-ndjson": (b"{\"n\":1}\n", b"{\"n\":2}\n"),
    "application/jsonl": (b"{\"n\":1}\n", b"{\"n\":2}\n"),
    "application/json-seq": (b"\x1e{\"n\":1}\n", b"\x1e{\"n\":2}\n"),
}


def read_until(proc, needle, timeout):
    """Reads afcli's stdout until `needle` shows up (colours removed) or `timeout` passes."""
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.05)
        if not ready:
            continue
        data = os.read(proc.stdout.fileno(), 65536)
        if not data:
            break
        seen += data
        if needle in ANSI.sub(b"", seen):
            return seen, True
    return seen, False


@pytest.mark.parametrize("content_type", sorted(FIRST_AND_SECOND))
@pytest.mark.parametrize("mode", [["--pretty=all"], ["--events=json"], []])
def test_each_value_is_written_before_the_next_is_sent(server, content_type, mode):
    # The server holds the second value back until the test has seen the first on afcli's
    # standard output (a pipe), or for 10 s: seeing it in time means nothing on the way buffered.
    first, second = FIRST_AND_SECOND[content_type]
    shown = threading.Event()
    waited = {}

    def hold():
        waited["in_time"] = shown.wait(10)

    stream(server, content_type, [first, hold, second])
    proc = start(["get", "-b", *mode, f"{server.url}/events"],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=base_env())
    try:
        needle = b'"n": 1' if mode == ["--pretty=all"] else b'"n":1'
        seen, found = read_until(proc, needle, 10)
        shown.set()
        out, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert found, (seen, err)
    assert waited.get("in_time") is True
    assert proc.returncode == 0, err


def test_terminal_shows_events_formatted_with_dimmed_fields(server):
    stream(server, "text/event-stream", [SSE[:40], SSE[40:]])
    result = run_tty(["get", "-b", f"{server.url}/events"])
    assert result.code == 0, result
    # event: and id: in the dim grey of comments; [DONE] dimmed as the end.
    assert b"\x1b[90mevent: delta\x1b[0m\n\x1b[90mid: 1\x1b[0m\n" in result.stdout
    assert ANSI.sub(b"", result.stdout) == (
        b'event: delta\nid: 1\n{\n    "text": "Hel",\n    "n": 1\n}\n\nplain words\n\n[DONE] (end of stream)\n')
    assert result.stderr == b""


def test_pipe_gets_the_exact_bytes_by_default(server):
    stream(server, "text/event-stream", [SSE[:7], SSE[7:]])
    assert run(["get", "-b", f"{server.url}/events"]).stdout == SSE
    nd = b'{"n": 1}\n\x1e{"n":2}\n'
    stream(server, "application/json-seq", [nd])
    assert run(["get", "-b", f"{server.url}/seq"]).stdout == nd


def test_events_json_writes_one_object_per_event(server):
    stream(server, "text/event-stream; charset=utf-8", [SSE])
    result = run(["get", "-b", "--events=json", f"{server.url}/events"])
    assert result.code == 0, result
    assert [json.loads(line) for line in result.out.splitlines()] == [
        {"event": "delta", "id": "1", "data": {"text": "Hel", "n": 1}},
        {"event": "message", "id": "1", "data": "plain words"},
        {"event": "message", "id": "1", "data": "[DONE]"},
    ]
    stream(server, "application/json-seq", [b'\x1e{"n": 1}\n\x1e[2, 3]\n'])
    assert run(["get", "-b", "--events=json", f"{server.url}/seq"]).stdout == b'{"n":1}\n[2,3]\n'


def test_events_takes_auto_or_json():
    result = run(["get", "--events=yaml", "--offline", "http://127.0.0.1:9/"])
    assert result.code == 2
    assert result.stderr == b'afcli: error: --events: "yaml" is not one of auto, json\n'


def test_a_stream_ending_inside_an_event_is_warned_about(server):
    stream(server, "text/event-stream", [b"data: 1\n\ndata: 2\n"])
    result = run(["get", "-b", "--pretty=format", f"{server.url}/events"])
    assert result.stdout == b"1\n"
    assert result.stderr == (
        b"afcli: warning: the event stream ended inside an event, which was not shown (no blank line after it)\n")


def endless(server, content_type, event, close_after=None):
    """Serves `event` (a block of events) over and over until the client goes or
    `close_after` bytes were sent, then ends the body."""

    def body():
        sent = 0
        framed = frame(event)
        while close_after is None or sent < close_after:
            yield framed
            sent += len(event)
        yield b"0\r\n\r\n"

    server.handler = lambda r: Response(
        200, "OK", [("Content-Type", content_type), ("Transfer-Encoding", "chunked")], body)


def test_ctrl_c_ends_a_stream_with_130(server):
    def body():
        tick = frame(b'data: {"tick":true}\n\n')
        while True:
            yield tick
            time.sleep(0.05)

    server.handler = lambda r: Response(
        200, "OK", [("Content-Type", "text/event-stream"), ("Transfer-Encoding", "chunked")], body)
    proc = start(["get", "-b", "--pretty=all", f"{server.url}/events"],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=base_env())
    try:
        _, found = read_until(proc, b'"tick": true', 10)
        assert found
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    err = proc.stderr.read()
    proc.stderr.close()
    assert err.count(b"\n") <= 1, err


def peak_rss_kib(args):
    """Runs afcli with its output thrown away; returns its exit status and peak resident size."""
    with open(os.devnull, "wb") as null:
        proc = start(args, stdout=null, stderr=subprocess.PIPE, env=base_env())
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read()
        proc.stderr.close()
    return proc.returncode, usage.ru_maxrss, err


@pytest.mark.parametrize("mode", [["--pretty=all"], ["--events=json"]])
def test_memory_stays_flat_for_a_long_stream(server, mode):
    # 24 MiB of small events, and one endless line: afcli's peak stays that of a short stream
    # (bench/events streams 200 MB with the release build).
    block = b"".join(b'event: tick\nid: %d\ndata: {"n":%d,"text":"tok"}\n\n' % (i, i) for i in range(2000))
    endless(server, "text/event-stream", block, close_after=1 << 20)
    code, small, err = peak_rss_kib(["get", "-b", *mode, f"{server.url}/short"])
    assert code == 0, err
    endless(server, "text/event-stream", block, close_after=24 << 20)
    code, large, err = peak_rss_kib(["get", "-b", *mode, f"{server.url}/long"])
    assert code == 0, err
    assert large < small + 16 * 1024, (small, large)
    endless(server, "text/event-stream", b"data: " + b"x" * (1 << 20), close_after=24 << 20)
    code, line, err = peak_rss_kib(["get", "-b", *mode, f"{server.url}/line"])
    assert code == 0, err
    # The event's data is kept up to the 8 MiB limit (and its formatted copy).
    assert line < small + 40 * 1024, (small, line)


def test_a_dropped_stream_keeps_the_events_shown_and_fails(server):
    def body():
        for part in [b'data: {"n":1}\n\n', b'data: {"n":2}\n\ndata: {"n":3']:
            yield frame(part)

    server.handler = lambda r: Response(
        200, "OK", [("Content-Type", "text/event-stream"), ("Transfer-Encoding", "chunked")], body, fault="close")
    error = b"afcli: error: transfer closed with outstanding read data remaining\n"
    result = run(["get", "-b", "--events=json", f"{server.url}/events"])
    assert (result.code, result.stderr) == (1, error)
    assert result.stdout == (b'{"event":"message","id":null,"data":{"n":1}}\n'
                             b'{"event":"message","id":null,"data":{"n":2}}\n')
    result = run(["get", "-b", f"{server.url}/events"])
    assert (result.code, result.stdout) == (1, b'data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3')


def test_jsonpath_applies_to_each_events_data_as_it_arrives(server):
    chat = (b'data: {"choices":[{"delta":{"content":"Hel"}}]}\n\n'
            b'data: {"choices":[{"delta":{"content":"lo"}}]}\n\n'
            b"data: [DONE]\n\n")
    shown = threading.Event()
    waited = {}

    def hold():
        waited["in_time"] = shown.wait(10)

    split = chat.index(b"\n\n") + 2
    stream(server, "text/event-stream", [chat[:split], hold, chat[split:]])
    proc = start(["post", "--jsonpath", "$.choices[0].delta.content", f"{server.url}/chat",
                  "stream:=true"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=base_env())
    try:
        seen, found = read_until(proc, b'"Hel"\n', 10)
        shown.set()
        out, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert found and waited.get("in_time") is True, (seen, err)
    assert proc.returncode == 0, err
    assert seen + out == b'"Hel"\n"lo"\n'
