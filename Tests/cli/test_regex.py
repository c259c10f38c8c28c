"""Regular expressions (I-Regexp) in --jsonpath's match() and search() and in `?? … matches`
lines: a pattern past the matcher's limits is refused before anything is sent, patterns that
used to take minutes on large bodies finish, and SIGINT stops a long match with exit 130."""

import json
import random

from conftest import run, run_interrupted
from loopback import Response


def serve(server, body, content_type="application/json"):
    server.handler = lambda request: Response(headers=[("Content-Type", content_type)], body=body)


def write(tmp_path, text):
    path = tmp_path / "api.http"
    path.write_text(text)
    return str(path)


def random_ab(length):
    """A random text of a and b, the same each run."""
    return random.Random(7).randbytes(length).translate(bytes(b"ab"[byte & 1] for byte in range(256))).decode()


def test_a_repetition_over_1000_is_refused_before_anything_is_sent(server, tmp_path):
    serve(server, b'["a"]')
    result = run(["get", f"{server.url}/x", "--jsonpath", "$[?search(@, 'a{1001}')]"])
    assert result.code == 2, result
    assert result.err == (
        "afcli: error: --jsonpath: \"$[?search(@, 'a{1001}')]\" is not a JSONPath query: search() pattern "
        "refused: the repetition count 1001 is over the limit of 1000 at character 14\n")
    result = run(["get", f"{server.url}/x", "--jsonpath", "$[?match(@, '(a{1000}){1000}')]"])
    assert result.code == 2, result
    assert "more than 20000 instructions, the limit" in result.err
    path = write(tmp_path, f"GET {server.url}/x\n?? body matches ^a{{1001}}$\n\nGET {server.url}/y\n")
    result = run(["run", path])
    assert result.code == 2, result
    assert "api.http:2" in result.err
    assert "the pattern is refused: the repetition count 1001 is over the limit of 1000" in result.err
    assert result.err.count("\n") == 1 and result.err.startswith("afcli: error: ")
    assert server.requests == []
    # At the limit the pattern is accepted.
    assert run(["get", f"{server.url}/x", "--jsonpath", "$[?search(@, 'a{1000}')]"]).code == 0


def test_patterns_that_took_minutes_on_large_bodies_finish(server, tmp_path):
    run_of_a = "a" * 100_000
    serve(server, json.dumps({"s": [run_of_a, run_of_a + "b"]}).encode())
    result = run(["get", f"{server.url}/x", "--jsonpath", "$.s[?search(@, '(a{100}){100}b')]"], timeout=120)
    assert result.code == 0, result.err
    assert result.stdout == json.dumps(run_of_a + "b").encode() + b"\n"

    letters = ("abcdefghijklmnopqrstuvwxyz" * 40_330)[:1_048_576]
    server.handler = lambda request: Response(
        headers=[("Content-Type", "text/plain")], body=(letters + ("@" if "at" in request.target else "")).encode())
    # The one that passes first: a failed request stops the run.
    path = write(tmp_path, f"GET {server.url}/at\n?? body matches [a-z]{{1,255}}@\n\n###\n"
                           f"GET {server.url}/plain\n?? body matches [a-z]{{1,255}}@\n")
    result = run(["run", path], timeout=120)
    lines = [json.loads(line) for line in result.out.splitlines()]
    assert [line["assertions"][0]["passed"] for line in lines] == [True, False], result
    assert result.code == 16


def test_sigint_stops_a_long_jsonpath_match_with_130(server):
    # Every scalar of a random a/b text leads to a new state of some thousand threads: billions
    # of steps' work, far more than the settle time, had the matcher no look at the signal. The
    # step budget ends the match (status 12) after about a second or two in the release build, so
    # the signal comes half a second in, while the match runs (the body arrives in milliseconds).
    serve(server, json.dumps([random_ab(4 << 20)]).encode())
    result = run_interrupted(
        ["get", f"{server.url}/x", "--jsonpath", "$[?search(@, '(a|b)*a(a|b){1000}c')]"], settle=0.5, timeout=10)
    assert result.code == 130, result
    assert result.stdout == b""


def test_sigint_stops_a_long_assertion_match_with_130(server, tmp_path):
    serve(server, random_ab(8 << 20).encode(), "text/plain")
    path = write(tmp_path, f"GET {server.url}/x\n?? body matches (a|b)*a(a|b){{1000}}c\n")
    result = run_interrupted(["run", path], settle=2, timeout=10)
    assert result.code == 130, result
