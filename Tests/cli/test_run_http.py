"""afcli run FILE.http and afcli run -: the requests the batch readers build, as a loopback
server receives them (variables, environment files, streamed `< ./file` bodies, directives,
skipped handlers), and the mistakes that stop a run before anything is sent."""

import json

from conftest import run
from loopback import Response


def records(result):
    return [json.loads(line) for line in result.out.splitlines()]


def test_http_file_requests_arrive_as_written(server, tmp_path):
    (tmp_path / "http-client.env.json").write_text(json.dumps({"dev": {"token": "public", "who": "ann"}}))
    (tmp_path / "http-client.private.env.json").write_text(json.dumps({"dev": {"token": "private"}}))
    (tmp_path / "payload.bin").write_bytes(bytes(range(256)) * 4096)
    (tmp_path / "api.http").write_text(
        f"@api = {server.url}\n"
        "\n"
        "### create user\n"
        "POST {{api}}/users\n"
        "Content-Type: application/json\n"
        "Authorization: Bearer {{token}}\n"
        "\n"
        '{"name": "{{who}}"}\n'
        "\n"
        "> {%\n"
        "    client.global.set(\"id\", response.body.id);\n"
        "%}\n"
        "\n"
        "###\n"
        "GET {{api}}/search\n"
        "    ?q=a%20b\n"
        "    &page=2\n"
        "\n"
        "###\n"
        "# @name upload\n"
        "PUT {{api}}/blob\n"
        "\n"
        "< ./payload.bin\n")
    r = run(["run", str(tmp_path / "api.http"), "--env", "dev"])
    assert r.code == 0, r
    assert [x["name"] for x in records(r)] == ["create user", "request-2", "upload"]
    assert r.err == f"afcli: warning: {tmp_path / 'api.http'}:10: response handler skipped: afcli runs no JavaScript\n"
    post, get, put = server.requests
    assert (post.method, post.target) == ("POST", "/users")
    assert post.header("Authorization") == "Bearer private"
    assert post.header("Content-Type") == "application/json"
    assert post.body == b'{"name": "ann"}'
    assert (get.method, get.target, get.body) == ("GET", "/search?q=a%20b&page=2", b"")
    assert put.method == "PUT" and put.body == bytes(range(256)) * 4096
    assert put.header("Content-Length") == str(256 * 4096) and put.header("Content-Type") is None


def test_no_redirect_directive_overrides_follow(server, tmp_path):
    def handler(request):
        if request.target.startswith("/old"):
            return Response(status=302, reason="Found", headers=[("Location", "/new")], body=b"")
        return Response(body=b"new")
    server.handler = handler
    (tmp_path / "r.http").write_text(
        f"GET {server.url}/old-followed\n\n###\n# @no-redirect\nGET {server.url}/old-kept\n")
    r = run(["run", str(tmp_path / "r.http"), "--follow", "--keep-going"])
    assert [x["status"] for x in records(r)] == [200, 302]
    assert [x.target for x in server.requests] == ["/old-followed", "/new", "/old-kept"]


def test_a_mistake_in_the_file_stops_the_run_before_anything_is_sent(server, tmp_path):
    path = tmp_path / "bad.http"
    path.write_text(f"GET {server.url}/a\n\n###\nPOST {server.url}/b\nnot a header\n")
    r = run(["run", str(path)])
    assert r.code == 2, r
    assert r.err == f"afcli: error: {path}:5: expected a header (Name: value) or a blank line before the body\n"
    assert server.requests == [] and r.out == ""


def test_an_unknown_environment_lists_the_known_ones(server, tmp_path):
    (tmp_path / "http-client.env.json").write_text('{"dev": {}, "prod": {}}')
    (tmp_path / "a.http").write_text(f"GET {server.url}/a\n")
    r = run(["run", str(tmp_path / "a.http"), "--env", "qa"])
    assert r.code == 2, r
    assert r.err == "afcli: error: --env qa: no such environment in the environment files (known: dev, prod)\n"
    assert server.requests == []


def test_standard_input_lines_with_quotes_and_per_line_options(server):
    source = (f"# @name create\npost {server.url}/users name='Ann Lee' \"X-Note:a b\" --form\n"
              f"\n# a comment\nget {server.url}/users  page==2   # trailing comment\n").encode()
    r = run(["run", "-"], input=source)
    assert r.code == 0, r
    assert [x["name"] for x in records(r)] == ["create", "line-5"]
    post, get = server.requests
    assert post.body == b"name=Ann%20Lee" and post.header("X-Note") == "a b"
    assert post.header("Content-Type") == "application/x-www-form-urlencoded"
    assert get.target == "/users?page=2"


def test_a_run_option_on_a_line_is_refused_before_anything_is_sent(server):
    source = f"get {server.url}/a\nget {server.url}/b --offline\n".encode()
    r = run(["run", "-"], input=source)
    assert r.code == 2, r
    assert r.err == ("afcli: error: stdin:2: --offline applies to the whole run: give it on the afcli run "
                     "command line, not on a request's line\n")
    assert server.requests == []
