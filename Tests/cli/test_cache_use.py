"""The response cache under real use: several large bodies removed at once, the Host actually
sent in the key, --cache=only sending nothing, a 304 about another representation, `cache
show/rm` finding what a request stores, `cache prune` rebuilding only a damaged database, keys
of encrypted bodies, and a hit held to --max-filesize with its own --meta=json."""

import json
import sqlite3
import threading

from loopback import Response
from test_cache import NOW, answer, cache  # noqa: F401  (fixture)

BIG = b"x" * 100_000


def test_invalidating_two_stored_body_files_removes_both(server, cache):
    server.handler = lambda request: Response(
        headers=[("Cache-Control", "max-age=600"), ("Vary", "Accept")], body=BIG + request.header("Accept").encode())
    cache.run("--cache", server.url + "/two", "Accept:a")
    cache.run("--cache", server.url + "/two", "Accept:b")
    assert len(list((cache.dir / "bodies").iterdir())) == 2
    posted = cache.run("--cache", "--print=m", "post", server.url + "/two", "k=v", at=1)
    assert posted.code == 0 and "cache: invalidated" in posted.out and posted.err == "", posted
    again = cache.run("--cache", "--print=m", server.url + "/two", "Accept:a", at=2)
    assert "cache: miss, stored" in again.out and len(server.requests) == 4
    cache.run("--cache", server.url + "/two", "Accept:b", at=3)
    removed = cache.run("cache", "rm", server.url + "/two")
    assert removed.code == 0 and removed.out == "removed 2 entries\n", removed
    assert list((cache.dir / "bodies").iterdir()) == []
    cache.run("--cache", server.url + "/two", "Accept:a", at=4)
    cache.run("--cache", server.url + "/two", "Accept:b", at=4)
    everything = cache.run("cache", "rm", "--all")
    assert everything.code == 0 and everything.out == "removed 2 entries\n", everything


def test_prune_removes_expired_body_files_and_keeps_fresh_entries(server, cache):
    server.handler = lambda request: Response(
        headers=[("Cache-Control", "max-age=10" if "old" in request.target else "max-age=6000")],
        body=BIG + request.target.encode())
    for name in ("old1", "old2", "fresh"):
        cache.run("--cache", server.url + "/" + name)
    pruned = cache.run("cache", "prune", at=100)
    assert pruned.code == 0 and "removed 2 expired" in pruned.out and "rebuilt" not in pruned.out, pruned
    hit = cache.run("--cache", "--print=m", server.url + "/fresh", at=101)
    assert "cache: hit" in hit.out and len(server.requests) == 3


def test_the_host_sent_is_part_of_the_key_and_listed(server, cache):
    server.handler = lambda request: Response(
        headers=[("Cache-Control", "max-age=600")], body=request.header("Host").encode())
    alice = cache.run("--cache", server.url + "/page", "Host:alice.example")
    assert alice.out == "alice.example"
    bob = cache.run("--cache", server.url + "/page", "Host:bob.example", at=1)
    assert bob.out == "bob.example" and len(server.requests) == 2
    again = cache.run("--cache", server.url + "/page", "Host:ALICE.example:80", at=2)
    assert again.out == "alice.example" and len(server.requests) == 2
    listing = cache.run("cache", "ls", at=3).out
    assert "http://alice.example/page" in listing and "http://bob.example/page" in listing
    assert cache.run("cache", "show", "alice.example/page").code == 0
    # A POST with that Host invalidates that target, not the other.
    cache.run("--cache", "post", server.url + "/page", "Host:bob.example", "a=1", at=4)
    cache.run("--cache", server.url + "/page", "Host:alice.example", at=5)
    assert len(server.requests) == 3
    cache.run("--cache", server.url + "/page", "Host:bob.example", at=5)
    assert len(server.requests) == 4


def test_only_never_sends_an_unsafe_method(server, cache):
    for method in ("post", "put", "delete", "patch"):
        result = cache.run("--cache=only", method, server.url + "/w", "a=1")
        assert result.code == 15, (method, result)
        assert "--cache=only" in result.err
    other = cache.run("--cache=only", "--method", "PURGE", server.url + "/w")
    assert other.code == 15
    assert server.requests == []


def test_only_never_sends_an_unsafe_method_in_a_run(server, cache):
    source = f"post {server.url}/a x=1\ndelete {server.url}/b\n".encode()
    result = cache.run("run", "-", "--cache=only", "--keep-going", input=source)
    records = [json.loads(line) for line in result.out.splitlines()]
    assert [r["exit"] for r in records] == [15, 15], result
    assert server.requests == []


def test_a_304_with_another_strong_etag_is_fetched_again_unconditionally(server, cache):
    state = {"etag": '"v1"'}

    def handler(request):
        if request.header("If-None-Match"):
            # A broken server: "not modified", but it names the new representation.
            return Response(status=304, reason="Not Modified", headers=[("ETag", '"v2"')], body=b"")
        return Response(headers=[("Cache-Control", "max-age=10"), ("ETag", state["etag"])],
                        body=state["etag"].encode())

    server.handler = handler
    cache.run("--cache", server.url + "/e")
    state["etag"] = '"v2"'
    stale = cache.run("--cache", "--print=hbm", server.url + "/e", at=20)
    assert stale.code == 0, stale
    assert len(server.requests) == 3 and server.requests[2].header("If-None-Match") is None
    assert '"v2"' in stale.out and "ETag: \"v1\"" not in stale.out
    assert "cache: miss, stored" in stale.out
    hit = cache.run("--cache", "--print=hb", server.url + "/e", at=21)
    assert 'ETag: "v2"' in hit.out and hit.out.rstrip().endswith('"v2"') and len(server.requests) == 3


def test_a_304_with_the_same_etag_or_a_weak_one_refreshes(server, cache):
    server.handler = lambda request: (
        Response(status=304, reason="Not Modified", headers=[("ETag", 'W/"other"')], body=b"")
        if request.header("If-None-Match") else
        Response(headers=[("Cache-Control", "max-age=10"), ("ETag", '"s"')], body=b"stored"))
    cache.run("--cache", server.url + "/w")
    weak = cache.run("--cache", "--print=hbm", server.url + "/w", at=20)
    assert "cache: revalidated" in weak.out and len(server.requests) == 2


def test_show_and_rm_find_the_url_a_request_stored(server, cache):
    server.handler = answer(Cache_Control="max-age=600")
    typed = server.url + '/a/./b/../ü q?x="1"'
    assert cache.run("--cache", typed).code == 0
    again = cache.run("--cache", "--print=m", typed, at=1)
    assert "cache: hit" in again.out
    shown = cache.run("cache", "show", typed)
    assert shown.code == 0 and "/a/%C3%BC%20q?x=%221%22" in shown.out, shown
    removed = cache.run("cache", "rm", typed)
    assert removed.out == "removed 1 entry\n", removed
    assert "cache: miss" in cache.run("--cache", "--print=m", typed, at=2).out


def test_prune_does_not_rebuild_a_cache_that_is_only_busy(server, cache):
    server.handler = answer(Cache_Control="max-age=600")
    cache.run("--cache", server.url + "/kept")
    holder = sqlite3.connect(cache.dir / "cache.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        pruned = cache.run("cache", "prune", at=1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert pruned.code == 1 and "rebuil" not in pruned.out + pruned.err, pruned
    assert pruned.err.startswith("afcli: error: ")
    hit = cache.run("--cache", "--print=m", server.url + "/kept", at=2)
    assert "cache: hit" in hit.out and len(server.requests) == 1


def test_an_encrypted_body_is_keyed_on_what_was_typed(server, cache):
    server.handler = lambda request: Response(body=b"answer " + request.body[:8])
    # A salted encryption: the same input never gives the same bytes twice.
    salted = "cat; date +%N"
    first = cache.run("--cache=cj-first", "--cache-ttl", "10m", "post", server.url + "/p", "q=1",
                      "--encrypt-cmd", salted)
    assert first.code == 0, first
    again = cache.run("--cache=cj-first", "--cache-ttl", "10m", "--print=bm", "post", server.url + "/p", "q=1",
                      "--encrypt-cmd", salted, at=5)
    assert again.code == 0 and "cache: hit" in again.out and len(server.requests) == 1, again
    other = cache.run("--cache=cj-first", "--cache-ttl", "10m", "post", server.url + "/p", "q=2",
                      "--encrypt-cmd", salted, at=6)
    assert other.code == 0 and len(server.requests) == 2


def test_a_hit_is_held_to_max_filesize(server, cache):
    server.handler = lambda request: Response(headers=[("Cache-Control", "max-age=600")], body=b"y" * 5000)
    cache.run("--cache", server.url + "/big")
    refused = cache.run("--cache", "--max-filesize", "1000", server.url + "/big", at=1)
    assert refused.code == 12 and "--max-filesize" in refused.err and refused.out == "", refused
    fits = cache.run("--cache", "--max-filesize", "5000", server.url + "/big", at=1)
    assert fits.code == 0 and len(fits.out) == 5000
    assert len(server.requests) == 1


def test_a_hit_prints_its_metrics_as_a_local_cache_load(server, cache):
    server.handler = answer(Cache_Control="max-age=600")
    network = cache.run("--cache", "--meta=json", server.url + "/m")
    assert json.loads(network.err)["transactionMetrics"][0]["resourceFetchType"] == "networkLoad"
    hit = cache.run("--cache", "--meta=json", server.url + "/m", at=1)
    assert hit.code == 0 and hit.out == '{"n":1}', hit
    metrics = json.loads(hit.err)
    transaction = metrics["transactionMetrics"][0]
    assert transaction["resourceFetchType"] == "localCache"
    assert transaction["response"] == {"statusCode": 200} and transaction["remoteAddress"] is None
    assert transaction["countOfResponseBodyBytesReceived"] == 0 and metrics["redirectCount"] == 0
    assert len(server.requests) == 1


def test_prune_verify_removes_body_files_that_do_not_match_their_name(server, cache):
    server.handler = lambda request: Response(headers=[("Cache-Control", "max-age=600")], body=BIG + request.target.encode())
    cache.run("--cache", server.url + "/good")
    cache.run("--cache", server.url + "/bad")
    bodies = sorted((cache.dir / "bodies").iterdir())
    assert len(bodies) == 2
    import hashlib
    bad = next(p for p in bodies if hashlib.sha256(BIG + b"/bad").hexdigest() == p.name)
    bad.write_bytes(b"y" * len(BIG + b"/bad"))
    plain = cache.run("cache", "prune", at=1)
    assert plain.code == 0 and "damaged" not in plain.out and bad.exists()
    verified = cache.run("cache", "prune", "--verify-bodies", at=1)
    assert verified.code == 0 and "1 damaged" in verified.out, verified
    assert not bad.exists() and len(list((cache.dir / "bodies").iterdir())) == 1
    listing = cache.run("cache", "ls", at=1).out
    assert "/good" in listing and "/bad" not in listing
    assert cache.run("--verify-bodies", server.url + "/good").code == 2


def test_a_hit_shows_a_cache_read_and_no_connection(server, cache):
    server.handler = answer(Cache_Control="max-age=600")
    cache.run("--cache", server.url + "/t")
    hit = cache.run("--cache", "--print=m", server.url + "/t", at=1)
    assert "cache read" in hit.out and "Connection: none (answered from the cache)" in hit.out, hit
    assert "TLS handshake" not in hit.out and "Sent:" not in hit.out


def test_a_hit_never_loads_libcurl(server, cache):
    # glibc's loader names every library it opens under LD_DEBUG=files.
    server.handler = answer(Cache_Control="max-age=600")
    first = cache.run_env("--cache", server.url + "/l", LD_DEBUG="files")
    assert first.code == 0 and "libcurl.so" in first.err
    hit = cache.run_env("--cache", "--print=hm", server.url + "/l", at=1, LD_DEBUG="files")
    assert hit.code == 0 and "cache: hit" in hit.out, hit
    assert "libcurl" not in hit.err and "libgnutls" not in hit.err
    # The request a hit answers carries the same Accept-Encoding a sent one does.
    sent = server.requests[0].header("Accept-Encoding")
    shown = cache.run("--cache", "--offline", "--print=H", server.url + "/l", at=2)
    assert f"Accept-Encoding: {sent}" in shown.out


def test_the_cache_offers_the_codings_libcurl_does_and_writes_no_memo_of_them(server, cache):
    server.handler = answer(Cache_Control="max-age=600")
    assert cache.run(server.url + "/plain").code == 0
    assert cache.run("--cache", server.url + "/cached", at=1).code == 0
    assert "cache: hit" in cache.run("--cache", "--print=m", server.url + "/cached", at=2).out
    # Without the cache the Accept-Encoding is libcurl's own list; with it, the same, known
    # without asking libcurl, and nothing but the store is written to learn it.
    plain, cached = (r.header("Accept-Encoding") for r in server.requests)
    assert plain == cached and "gzip" in plain, (plain, cached)
    assert not (cache.dir / "accept-encoding").exists()
    assert not [p.name for p in cache.dir.iterdir() if p.name.startswith("accept-encoding")]


def test_a_hit_with_a_session_loads_no_libcurl_either(server, cache, tmp_path):
    server.handler = answer(Cache_Control="max-age=600")
    session = tmp_path / "s.json"
    cache.run("--cache", "--session", str(session), server.url + "/s", "Cookie:a=1")
    cache.run("--cache", "--session", str(session), server.url + "/s", at=1)
    hit = cache.run_env("--cache", "--print=m", "--session", str(session), server.url + "/s", at=2, LD_DEBUG="files")
    assert hit.code == 0 and "cache: hit" in hit.out and "libcurl" not in hit.err, hit.out
    assert len(server.requests) == 1


def test_cache_help_describes_the_rules_and_options(cache):
    shown = cache.run("cache", "--help")
    assert shown.code == 0 and shown.out.startswith("usage: afcli cache ls|show URL"), shown
    for rule in ("RESPONSE CACHE", "only-if-cached", "stale-if-error", "Set-Cookie", "Host:", "--max-filesize",
                 "--verify-bodies", "--cache-ttl", "route"):
        assert rule in shown.out, rule
    assert all(len(line) <= 80 for line in shown.out.splitlines())
    # Elsewhere, --help is the one-screen summary.
    assert "RESPONSE CACHE" not in cache.run("--help").out
