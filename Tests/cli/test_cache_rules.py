"""RFC 9111 rules of the response cache beyond the suite's required cases: invalidation of the
Location and Content-Location of an unsafe request's answer (same origin only), a 304 with
no-store, and the final response of a followed redirect chain stored under its final URL."""

from loopback import Response
from test_cache import answer, cache  # noqa: F401  (fixture)


def test_an_unsafe_answer_invalidates_its_location_and_content_location(server, cache):
    server.handler = answer(Cache_Control="max-age=600")
    for path in ("/item", "/other", "/list"):
        cache.run("--cache", server.url + path)
    assert len(server.requests) == 3
    server.handler = lambda request: Response(
        status=201, reason="Created",
        headers=[("Location", "/item"), ("Content-Location", "list"),
                 ("Link", "</other>")], body=b"{}")
    posted = cache.run("--cache", "--print=m", "post", server.url + "/new", "a=1", at=1)
    assert posted.code == 0 and "cache: invalidated" in posted.out, posted
    server.handler = answer(Cache_Control="max-age=600")
    for path in ("/item", "/list", "/other"):
        cache.run("--cache", server.url + path, at=2)
    assert [r.target for r in server.requests[4:]] == ["/item", "/list"]


def test_another_origins_location_is_left_alone(server, cache):
    server.handler = answer(Cache_Control="max-age=600")
    cache.run("--cache", server.url + "/kept")
    elsewhere = server.url.replace("127.0.0.1", "localhost") + "/kept"
    server.handler = lambda request: Response(headers=[("Location", elsewhere)], body=b"{}")
    cache.run("--cache", "put", server.url + "/x", "a=1", at=1)
    cache.run("--cache", server.url + "/kept", at=2)
    assert len(server.requests) == 2


def test_a_304_with_no_store_answers_but_keeps_nothing(server, cache):
    server.handler = lambda request: (
        Response(status=304, reason="Not Modified", headers=[("ETag", '"a"'), ("Cache-Control", "no-store")], body=b"")
        if request.header("If-None-Match") else
        Response(headers=[("Cache-Control", "max-age=10"), ("ETag", '"a"')], body=b"stored"))
    cache.run("--cache", server.url + "/n")
    revalidated = cache.run("--cache", "--print=bm", server.url + "/n", at=20)
    assert "cache: revalidated" in revalidated.out and "stored" in revalidated.out
    assert "GET" not in cache.run("cache", "ls", at=21).out
    again = cache.run("--cache", "--print=m", server.url + "/n", at=21)
    assert "cache: miss" in again.out and server.requests[-1].header("If-None-Match") is None


def test_a_followed_redirect_stores_the_final_response_under_its_url(server, cache):
    def handler(request):
        if request.target == "/old":
            return Response(status=302, reason="Found", headers=[("Location", "/final")], body=b"")
        return Response(headers=[("Cache-Control", "max-age=600")], body=b"final " + request.method.encode())
    server.handler = handler
    followed = cache.run("--cache", "--follow", "--print=bm", server.url + "/old")
    assert followed.code == 0 and "final GET" in followed.out and "cache: miss, stored" in followed.out, followed
    listing = cache.run("cache", "ls", at=1).out
    assert "GET     " + server.url + "/final" in listing and "/old" not in listing
    hit = cache.run("--cache", "--print=bm", server.url + "/final", at=2)
    assert "cache: hit" in hit.out and "final GET" in hit.out and len(server.requests) == 2


def test_stale_while_revalidate_answers_then_refreshes_before_exiting(server, cache):
    server.handler = lambda request: (
        Response(status=304, reason="Not Modified",
                 headers=[("ETag", '"a"'), ("Cache-Control", "max-age=100, stale-while-revalidate=60")], body=b"")
        if request.header("If-None-Match") else
        Response(headers=[("Cache-Control", "max-age=1, stale-while-revalidate=60"), ("ETag", '"a"')], body=b"old"))
    cache.run("--cache", server.url + "/s")
    stale = cache.run("--cache", "--print=bm", server.url + "/s", at=10)
    assert stale.code == 0 and stale.out.startswith("old"), stale
    assert "cache: hit, stale, age 10 s (stale-while-revalidate)" in stale.out
    # The entry was revalidated before afcli exited: fresh again for 100 s.
    assert len(server.requests) == 2 and server.requests[1].header("If-None-Match") == '"a"'
    fresh = cache.run("--cache", "--print=m", server.url + "/s", at=50)
    assert "cache: hit, age" in fresh.out and len(server.requests) == 2
    # Past the window: an ordinary revalidation, answered after it.
    late = cache.run("--cache", "--print=m", server.url + "/s", at=300)
    assert "cache: revalidated" in late.out


def test_stale_if_error_answers_a_server_error_or_a_failed_connection(server, cache):
    server.handler = answer(Cache_Control="max-age=1, stale-if-error=60")
    cache.run("--cache", server.url + "/e")
    server.handler = lambda request: Response(status=503, reason="Service Unavailable", body=b"down")
    failed = cache.run("--cache", "--print=bm", server.url + "/e", at=10)
    assert failed.code == 0 and failed.out.startswith('{"n":1}'), failed
    assert "cache: hit, stale, age 10 s (stale-if-error)" in failed.out
    assert failed.err.count("afcli: warning:") == 1 and "503" in failed.err and "stale-if-error" in failed.err
    too_late = cache.run("--cache", server.url + "/e", at=100)
    assert too_late.code == 5 and too_late.out == "down"
    # A connection that fails is answered the same way.
    server.handler = answer(Cache_Control="max-age=1, stale-if-error=60")
    cache.run("--cache", server.url + "/e", at=200)
    url = server.url
    server.stop()
    refused = cache.run("--cache", url + "/e", at=210)
    assert refused.code == 0 and refused.out == '{"n":1}' and "stale-if-error" in refused.err, refused
    assert cache.run("--cache", url + "/e", at=300).code == 8


def test_without_stale_if_error_an_error_is_shown(server, cache):
    server.handler = answer(Cache_Control="max-age=1, must-revalidate, stale-if-error=60")
    cache.run("--cache", server.url + "/m")
    server.handler = lambda request: Response(status=500, reason="Internal Server Error", body=b"err")
    assert cache.run("--cache", server.url + "/m", at=10).code == 5
    server.handler = answer(Cache_Control="max-age=1")
    cache.run("--cache", server.url + "/p")
    server.handler = lambda request: Response(status=503, reason="Service Unavailable", body=b"err")
    assert cache.run("--cache", server.url + "/p", at=10).out == "err"


def test_stale_if_error_in_a_run(server, cache):
    import json
    server.handler = answer(Cache_Control="max-age=1, stale-if-error=60")
    cache.run("--cache", server.url + "/r")
    server.handler = lambda request: Response(status=502, reason="Bad Gateway", body=b"bad")
    result = cache.run("run", "-", "--cache", input=f"get {server.url}/r\n".encode(), at=10)
    record = json.loads(result.out)
    assert result.code == 0 and record["status"] == 200 and record["cache"] == "stale", result


def test_stale_while_revalidate_in_a_run_answers_then_refreshes_before_the_run_ends(server, cache):
    import json
    server.handler = lambda request: (
        Response(status=304, reason="Not Modified",
                 headers=[("ETag", '"a"'), ("Cache-Control", "max-age=100, stale-while-revalidate=60")], body=b"")
        if request.header("If-None-Match") else
        Response(headers=[("Cache-Control", "max-age=1, stale-while-revalidate=60"), ("ETag", '"a"')], body=b"old"))
    cache.run("--cache", server.url + "/s")
    source = f"get {server.url}/s\nget {server.url}/other\n".encode()
    result = cache.run("run", "-", "--cache", "--parallel", "2", "--keep-going", input=source, at=10)
    records = {json.loads(line)["url"].rsplit("/", 1)[1]: json.loads(line) for line in result.out.splitlines()}
    assert records["s"]["status"] == 200 and records["s"]["cache"] == "stale", result
    # The entry was revalidated before the run ended: fresh again for 100 s, as for a single request.
    assert [r.target for r in server.requests].count("/s") == 2
    assert [r.header("If-None-Match") for r in server.requests if r.target == "/s"][1] == '"a"'
    fresh = cache.run("--cache", "--print=m", server.url + "/s", at=50)
    assert "cache: hit, age" in fresh.out and [r.target for r in server.requests].count("/s") == 2


def test_the_route_is_part_of_the_key(server, cache):
    server.handler = lambda request: Response(
        headers=[("Cache-Control", "max-age=600")], body=request.header("Host").encode())
    port = server.url.rsplit(":", 1)[1]
    plain = cache.run("--cache", f"http://127.0.0.1:{port}/r")
    routed = cache.run("--cache", "--resolve", f"127.0.0.1:{port}:127.0.0.1", f"http://127.0.0.1:{port}/r", at=1)
    connected = cache.run("--cache", "--connect-to", f"127.0.0.1:{port}:127.0.0.1:{port}",
                          f"http://127.0.0.1:{port}/r", at=1)
    assert plain.code == routed.code == connected.code == 0
    assert len(server.requests) == 3
    again = cache.run("--cache", "--print=m", "--resolve", f"127.0.0.1:{port}:127.0.0.1", f"http://127.0.0.1:{port}/r", at=2)
    assert "cache: hit" in again.out and len(server.requests) == 3


def test_a_stored_get_answers_a_head(server, cache):
    server.handler = lambda request: Response(
        headers=[("Cache-Control", "max-age=60"), ("ETag", '"g"'), ("X-From", request.method)], body=b"body")
    cache.run("--cache", server.url + "/h")
    head = cache.run("--cache", "--print=hm", "head", server.url + "/h", at=5)
    assert head.code == 0 and "cache: hit, age 5 s" in head.out and "X-From: GET" in head.out, head
    assert "body" not in head.out and len(server.requests) == 1
    # Stale, the GET response does not answer: the HEAD goes out as it is, unconditionally.
    late = cache.run("--cache", "--print=hm", "head", server.url + "/h", at=100)
    assert "X-From: HEAD" in late.out and server.requests[-1].method == "HEAD"
    assert server.requests[-1].header("If-None-Match") is None
