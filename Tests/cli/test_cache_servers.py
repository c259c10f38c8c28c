"""The response cache against servers no one here wrote: httpbin's caching endpoints and nginx's
static files (ETag, Last-Modified). The clock is fixed per run (AFCLI_TEST_NOW)."""

import os
import time

import pytest

from conftest import run
from nginx import NginxServer

NOW = 1_700_000_000


@pytest.fixture
def cached(tmp_path):
    def call(*args, at=0):
        env = {"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "xdg"), "AFCLI_TEST_NOW": str(NOW + at)}
        return run(["--print=hbm", *args], env=env)
    return call


def test_httpbin_cache_n_is_fresh_for_n_seconds(httpbin, cached):
    assert "cache: miss, stored" in cached("--cache", httpbin + "/cache/60").out
    hit = cached("--cache", httpbin + "/cache/60", at=30)
    assert "cache: hit, age 30 s" in hit.out and '"url"' in hit.out
    assert "cache: miss, stored" in cached("--cache", httpbin + "/cache/60", at=61).out


def test_httpbin_etag_and_cache_revalidate(httpbin, cached):
    cached("--cache", httpbin + "/etag/abc")
    again = cached("--cache", httpbin + "/etag/abc", at=1)
    assert again.code == 0 and "cache: revalidated" in again.out and "200 OK" in again.out
    cached("--cache", httpbin + "/cache")
    revalidated = cached("--cache", httpbin + "/cache", at=1)
    assert "cache: revalidated" in revalidated.out and '"url"' in revalidated.out


def test_httpbin_response_headers(httpbin, cached):
    cached("--cache", httpbin + "/response-headers?Cache-Control=no-store")
    assert "cache: miss, not stored" in cached("--cache", httpbin + "/response-headers?Cache-Control=no-store", at=1).out
    cached("--cache", httpbin + "/response-headers?Cache-Control=max-age%3D100")
    assert "cache: hit" in cached("--cache", httpbin + "/response-headers?Cache-Control=max-age%3D100", at=99).out


def test_nginx_static_file_heuristic_then_304(tmp_path, cached):
    www = tmp_path / "www"
    www.mkdir()
    (www / "data.json").write_bytes(b'{"static":true}')
    # Last modified 1000 s before the server's Date: 100 s of heuristic freshness.
    modified = time.time() - 1000
    os.utime(www / "data.json", (modified, modified))
    with NginxServer(www) as srv:
        assert "cache: miss, stored" in cached("--cache", srv.url + "/data.json").out
        assert "cache: hit, age 50 s" in cached("--cache", srv.url + "/data.json", at=50).out
        late = cached("--cache", srv.url + "/data.json", at=150)
        assert "cache: revalidated" in late.out and '{"static":true}' in late.out
        assert "cache: hit" in cached("--cache", srv.url + "/data.json", at=160).out
