"""The request's own Cache-Control with --cache (RFC 9111 §5.2.1): max-age, min-fresh,
max-stale, no-cache, no-store and only-if-cached, typed as an item, from an environment's
headers, and on a `run -` line."""

import json

import pytest

from loopback import Response
from test_cache import answer, cache  # noqa: F401  (fixture)


def stored(server, cache, path, **headers):
    server.handler = answer(**headers)
    assert cache.run("--cache", server.url + path).code == 0
    return len(server.requests)


@pytest.mark.parametrize(
    "response, request_cc, at, reused",
    [
        ({"Cache_Control": "max-age=3600"}, "max-age=0", 3, False),
        ({"Cache_Control": "max-age=3600"}, "max-age=1", 3, False),
        ({"Cache_Control": "max-age=3600"}, "max-age=5", 3, True),
        ({"Cache_Control": "max-age=3600", "Age": "1800"}, "max-age=600", 0, False),
        ({"Cache_Control": "max-age=1500"}, "min-fresh=2000", 0, False),
        ({"Cache_Control": "max-age=1500", "Age": "1000"}, "min-fresh=1000", 0, False),
        ({"Cache_Control": "max-age=1500", "Age": "1000"}, "min-fresh=100", 0, True),
        ({"Cache_Control": "max-age=1"}, "max-stale=1000", 3, True),
        ({"Cache_Control": "max-age=1500", "Age": "2000"}, "max-stale=1000", 0, True),
        ({"Cache_Control": "max-age=1"}, "max-stale", 3000, True),
        ({"Cache_Control": "max-age=1, must-revalidate"}, "max-stale", 3, False),
        ({"Cache_Control": "max-age=3600"}, "no-cache", 1, False),
    ],
)
def test_typed_request_directives(server, cache, response, request_cc, at, reused):
    before = stored(server, cache, "/r", **response)
    again = cache.run("--cache", "--print=m", server.url + "/r", "Cache-Control:" + request_cc, at=at)
    assert again.code == 0, again
    assert (len(server.requests) == before) == reused, (request_cc, again.out)


def test_request_no_store_neither_reads_nor_writes(server, cache):
    before = stored(server, cache, "/n", Cache_Control="max-age=3600")
    server.handler = answer(body=b'{"n":2}', Cache_Control="max-age=3600")
    skipped = cache.run("--cache", "--print=bm", server.url + "/n", "Cache-Control:no-store", at=1)
    assert len(server.requests) == before + 1 and "cache: bypassed" in skipped.out and '{"n":2}' in skipped.out
    # The answer it got was not stored: the first one still answers.
    hit = cache.run("--cache", server.url + "/n", at=2)
    assert hit.out == '{"n":1}' and len(server.requests) == before + 1
    assert cache.run("--cache=only", server.url + "/n", "Cache-Control:no-store", at=2).code == 15


def test_only_if_cached_answers_504_without_sending(server, cache):
    miss = cache.run("--cache", "--print=hm", server.url + "/o", "Cache-Control:only-if-cached")
    assert miss.code == 5 and "504 Gateway Timeout" in miss.out and "only-if-cached" in miss.out, miss
    assert server.requests == []
    stored(server, cache, "/o", Cache_Control="max-age=10")
    stale = cache.run("--cache", server.url + "/o", "Cache-Control:only-if-cached", at=100)
    assert stale.code == 0 and stale.out == '{"n":1}' and len(server.requests) == 1
    stored(server, cache, "/m", Cache_Control="max-age=10, must-revalidate")
    refused = cache.run("--cache", "--no-check-status", server.url + "/m", "Cache-Control:only-if-cached", at=100)
    assert refused.code == 0 and len(server.requests) == 2


def test_request_directives_from_an_environment(server, cache, tmp_path):
    config = tmp_path / "cfg"
    config.mkdir()
    (config / "config.json").write_text(json.dumps(
        {"environments": {"dev": {"headers": {"Cache-Control": "max-age=0"}}}}))
    env = {"AFCLI_CONFIG_DIR": str(config)}
    before = stored(server, cache, "/e", Cache_Control="max-age=3600")
    result = cache.run_env("--cache", "--env", "dev", server.url + "/e", at=3, **env)
    assert result.code == 0 and len(server.requests) == before + 1, result


def test_request_directives_on_a_run_line(server, cache):
    before = stored(server, cache, "/l", Cache_Control="max-age=3600")
    source = f"get {server.url}/l Cache-Control:max-age=0\nget {server.url}/l\n".encode()
    result = cache.run("run", "-", "--cache", "--parallel", "1", input=source, at=3)
    records = [json.loads(line) for line in result.out.splitlines()]
    assert result.code == 0 and [r["cache"] for r in records] == ["stored", "hit"], result
    assert len(server.requests) == before + 1
    oic = cache.run("run", "-", "--cache", "--keep-going", input=f"get {server.url}/none Cache-Control:only-if-cached\n".encode())
    record = json.loads(oic.out)
    assert record["status"] == 504 and record["cache"] == "only-if-cached" and len(server.requests) == before + 1
