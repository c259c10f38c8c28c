"""--timeout and --max-time, by how they arrive: typed, in default_options, on a line of
`afcli run -`, and as a `.http` file's `# @timeout N`; for afcli download and pin too. (The
config environment has no key for them.) A server that sleeps before answering trips them: exit
status 7, within a few seconds."""

import socket
import time

import pytest

from arrival import Arrival
from conftest import run
from loopback import Response

SLEEP = 4


@pytest.fixture
def slow(server):
    """/slow answers after SLEEP seconds, /fast at once."""
    def handler(request):
        if request.target == "/slow":
            time.sleep(SLEEP)
        return Response(headers=[("Content-Type", "text/plain")], body=b"done")
    server.handler = handler
    return server


def timed(call):
    start = time.monotonic()
    result = call()
    return result, time.monotonic() - start


@pytest.mark.parametrize("option", ["--timeout", "--max-time"])
def test_typed(slow, tmp_path, option):
    result, took = timed(lambda: Arrival(tmp_path).typed([option, "1"], ["get", f"{slow.url}/slow"]))
    assert result.code == 7 and result.out == "" and took < SLEEP - 1, (result, took)


@pytest.mark.parametrize("option", ["--timeout", "--max-time"])
def test_in_default_options_and_typed_beats_it(slow, tmp_path, option):
    arrival = Arrival(tmp_path)
    result, took = timed(lambda: arrival.default_options([option, "1"], ["get", f"{slow.url}/slow"]))
    assert result.code == 7 and took < SLEEP - 1, (result, took)
    env = arrival.env(default_options=[option, "1"])
    longer = run([option, "30", "get", f"{slow.url}/slow"], env=env)
    assert (longer.code, longer.out) == (0, "done"), longer


@pytest.mark.parametrize("option", ["--timeout", "--max-time"])
def test_on_a_run_line_for_that_line_alone(slow, tmp_path, option):
    result, took = timed(lambda: Arrival(tmp_path).run_lines(
        [f"get {slow.url}/slow {option} 1", f"get {slow.url}/fast"], run_words=["--keep-going"]))
    exits = {record["name"]: record["exit"] for record in result.records}
    assert exits == {"line-1": 7, "line-2": 0} and took < SLEEP - 1, (result, took)


def test_timeout_directive_in_a_http_run(slow, tmp_path):
    text = f"# @name slow\n# @timeout 1\nGET {slow.url}/slow\n\n###\n# @name fast\nGET {slow.url}/fast\n"
    result, took = timed(lambda: Arrival(tmp_path).http_file(text, run_words=["--keep-going"]))
    exits = {record["name"]: record["exit"] for record in result.records}
    assert exits == {"slow": 7, "fast": 0} and took < SLEEP - 1, (result, took)


@pytest.mark.parametrize("option", ["--timeout", "--max-time"])
def test_for_a_http_run(slow, tmp_path, option):
    result, took = timed(lambda: Arrival(tmp_path).http_file(f"GET {slow.url}/slow\n", run_words=[option, "1"]))
    assert [record["exit"] for record in result.records] == [7] and took < SLEEP - 1, (result, took)


def test_a_line_and_a_directive_beat_the_run_option(slow, tmp_path):
    arrival = Arrival(tmp_path)
    line = arrival.run_lines([f"get {slow.url}/slow --timeout 30"], run_words=["--timeout", "1"])
    assert [record["exit"] for record in line.records] == [0] and line.bodies == {"line-1": b"done"}, line
    text = f"# @timeout 30\nGET {slow.url}/slow\n"
    directive = arrival.http_file(text, default_options=["--timeout", "1"])
    assert [record["exit"] for record in directive.records] == [0], directive


@pytest.mark.parametrize("way", ["typed", "default_options"])
def test_for_a_download(slow, tmp_path, way):
    arrival = Arrival(tmp_path)
    call = arrival.typed if way == "typed" else arrival.default_options
    args = ["download", "-o", str(tmp_path / "saved"), f"{slow.url}/slow"]
    result, took = timed(lambda: call(["--timeout", "1"], args))
    assert result.code == 7 and took < SLEEP - 1, (result, took)


@pytest.mark.parametrize("way", ["typed", "default_options"])
def test_for_pin_a_handshake_that_never_answers(tmp_path, way):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    try:
        arrival = Arrival(tmp_path)
        call = arrival.typed if way == "typed" else arrival.default_options
        port = listener.getsockname()[1]
        result, took = timed(lambda: call(["--timeout", "1"], ["pin", f"https://127.0.0.1:{port}/"]))
        assert result.code == 7 and "timeout" in result.err and took < SLEEP - 1, (result, took)
    finally:
        listener.close()
