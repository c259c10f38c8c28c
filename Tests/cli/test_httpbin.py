"""afcli against a server no one here wrote: httpbin under gunicorn on loopback."""

import json

from conftest import run


def test_json_post_reaches_httpbin(httpbin):
    result = run(["post", f"{httpbin}/post", "name=José", "age:=41", "tags[]=a"])
    assert result.code == 0, result
    body = json.loads(result.stdout)
    assert body["json"] == {"name": "José", "age": 41, "tags": ["a"]}
    assert body["headers"]["Content-Type"] == "application/json"


def test_form_post_reaches_httpbin(httpbin):
    result = run(["post", "--form", f"{httpbin}/post", "user=ann", "q=a b&c"])
    body = json.loads(result.stdout)
    assert body["form"] == {"user": "ann", "q": "a b&c"}


def test_query_reaches_httpbin(httpbin):
    body = json.loads(run(["get", f"{httpbin}/get", "page==2", "q==hello world"]).stdout)
    assert body["args"] == {"page": "2", "q": "hello world"}


def test_basic_and_digest_auth(httpbin):
    assert run(["get", f"{httpbin}/basic-auth/u/p", "-a", "u:p"]).code == 0
    assert run(["get", f"{httpbin}/basic-auth/u/p", "-a", "u:wrong"]).code == 4
    assert run(["get", f"{httpbin}/digest-auth/auth/u/p", "-A", "digest", "-a", "u:p"]).code == 0


def test_bearer_auth(httpbin):
    result = run(["get", f"{httpbin}/bearer", "-A", "bearer", "-a", "t0k"])
    assert result.code == 0 and json.loads(result.stdout)["token"] == "t0k"


def test_follow_redirects(httpbin):
    result = run(["get", "--follow", f"{httpbin}/redirect/3"])
    assert result.code == 0, result
    assert json.loads(result.stdout)["url"].endswith("/get")


def test_gzip_and_deflate(httpbin):
    assert json.loads(run(["get", f"{httpbin}/gzip"]).stdout)["gzipped"] is True
    assert json.loads(run(["get", f"{httpbin}/deflate"]).stdout)["deflated"] is True


def test_status_codes(httpbin):
    assert run(["get", f"{httpbin}/status/418"]).code == 4
    assert run(["get", f"{httpbin}/status/503"]).code == 5
