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
