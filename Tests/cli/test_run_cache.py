"""The response cache in afcli run: hits answered without the network, revalidation with a 304,
an unsafe method's invalidation, --cache=only, keys per credentials, and the options a run
refuses. Each test has its own cache directory and a fixed clock (AFCLI_TEST_NOW)."""

import json

import pytest

from conftest import run
from loopback import Response
from test_cache import NOW, answer, cache  # noqa: F401  (fixture)


def lines(*requests):
    return "".join(line + "\n" for line in requests).encode()


def records(result):
    return [json.loads(line) for line in result.out.splitlines()]


def test_a_second_run_is_answered_from_the_cache_without_the_network(server, cache, tmp_path):
    server.handler = lambda request: Response(
        headers=[("Content-Type", "application/json"), ("Cache-Control", "max-age=60")],
        body=f'{{"path":"{request.target}"}}'.encode())
    source = lines(*(f"get {server.url}/item/{i}" for i in range(6)))
    first = cache.run("run", "-", "--cache", "--parallel", "3", input=source)
    assert first.code == 0, first
    assert [r["cache"] for r in records(first)] == ["stored"] * 6
    assert len(server.requests) == 6
    out = tmp_path / "out"
    second = cache.run("run", "-", "--cache", "--parallel", "3", "--output-dir", str(out), input=source, at=30)
    assert second.code == 0, second
    assert len(server.requests) == 6
    for record in records(second):
        assert record["cache"] == "hit" and record["status"] == 200
        # No transfer: no times, no connection.
        assert record["time"] is None and record["remote"] is None
    for i in range(6):
        assert (out / f"line-{i + 1}.body").read_bytes() == f'{{"path":"/item/{i}"}}'.encode()


def test_a_stale_response_is_revalidated_and_answered_by_a_304(server, cache, tmp_path):
    server.handler = answer(body=b'{"v":1}', Cache_Control="max-age=10", ETag='"v1"')
    assert cache.run("run", "-", "--cache", input=lines(f"get {server.url}/x")).code == 0
    server.handler = lambda request: Response(status=304, reason="Not Modified", headers=[("ETag", '"v1"')], body=b"")
    out = tmp_path / "out"
    result = cache.run("run", "-", "--cache", "--output-dir", str(out), input=lines(f"get {server.url}/x"), at=20)
    assert result.code == 0, result
    [record] = records(result)
    assert record["cache"] == "revalidated" and record["status"] == 200 and record["bytes"] == 7
    assert record["time"]["total"] > 0
    assert server.requests[-1].header("If-None-Match") == '"v1"'
    assert (out / "line-1.body").read_bytes() == b'{"v":1}'


def test_an_unsafe_method_invalidates_what_is_stored_for_its_url(server, cache):
    server.handler = answer(Cache_Control="max-age=60")
    source = lines(f"get {server.url}/x", f"post {server.url}/x a=1", f"get {server.url}/x")
    result = cache.run("run", "-", "--cache", input=source)
    assert result.code == 0, result
    assert [r["cache"] for r in records(result)] == ["stored", "invalidated", "stored"]
    assert [r.method for r in server.requests] == ["GET", "POST", "GET"]


def test_cache_only_fails_a_miss_with_15_and_sends_nothing(server, cache):
    server.handler = answer(Cache_Control="max-age=60")
    assert cache.run("run", "-", "--cache", input=lines(f"get {server.url}/a")).code == 0
    result = cache.run("run", "-", "--cache=only", "--keep-going", input=lines(f"get {server.url}/a", f"get {server.url}/b"))
    assert result.code == 15, result
    first, second = records(result)
    assert first["cache"] == "hit" and first["exit"] == 0
    assert second["exit"] == 15 and second["status"] is None and "--cache=only" in second["error"]
    assert len(server.requests) == 1


def test_cj_first_answers_within_its_lifetime_whatever_the_headers_say(server, cache):
    server.handler = answer(Cache_Control="no-cache")
    source = lines(f"get {server.url}/cj")
    assert cache.run("run", "-", "--cache=cj-first", "--cache-ttl", "10m", input=source).code == 0
    again = cache.run("run", "-", "--cache=cj-first", "--cache-ttl", "10m", input=source, at=300)
    assert [r["cache"] for r in records(again)] == ["hit"]
    late = cache.run("run", "-", "--cache=cj-first", "--cache-ttl", "10m", input=source, at=700)
    assert [r["cache"] for r in records(late)] == ["stored"]
    assert len(server.requests) == 2


def test_a_request_with_other_credentials_is_not_answered_by_anothers_entry(server, cache):
    server.handler = answer(Cache_Control="private, max-age=60")
    assert cache.run("run", "-", "--cache", input=lines(f"get {server.url}/me -a ann:pw")).code == 0
    result = cache.run("run", "-", "--cache", input=lines(f"get {server.url}/me -a bob:pw", f"get {server.url}/me -a ann:pw"))
    assert [r["cache"] for r in records(result)] == ["stored", "hit"]
    assert len(server.requests) == 2


def test_without_the_cache_lines_have_no_cache_field(server):
    server.handler = answer()
    result = run(["run", "-"], input=lines(f"get {server.url}/x"))
    assert "cache" not in records(result)[0]


@pytest.mark.parametrize("args, message", [
    (["--cache=cj-then-network", "--cache-ttl", "1m"],
     "afcli: error: --cache=cj-then-network does not apply to afcli run (a run reports one answer per request; "
     "--cache=cj-first answers from the cache alone)\n"),
    (["--cache-transition-output", "x"],
     "afcli: error: --cache-transition-output does not apply to afcli run (it is for --cache=cj-then-network, whose "
     "two answers a run cannot report)\n"),
    (["--cache=cj-first"], "afcli: error: --cache=cj-first needs --cache-ttl (a duration such as 10m, or forever)\n"),
])
def test_cache_options_a_run_cannot_honour_are_refused_before_sending(server, cache, args, message):
    result = cache.run("run", "-", *args, input=lines(f"get {server.url}/x"))
    assert result.code == 2, result
    assert result.err == message
    assert server.requests == []


def test_the_cache_is_an_option_of_the_whole_run_not_of_a_line(server, cache):
    result = cache.run("run", "-", input=lines(f"get {server.url}/x --cache"))
    assert result.code == 2, result
    assert "--cache applies to the whole run" in result.err
    assert server.requests == []
