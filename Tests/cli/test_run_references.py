"""Values from earlier responses in afcli run (REST Client's request variables): a login's token
reaches the requests that name it, which wait for it while the others still run in parallel; in
a .http file (directly and through a file variable) and on afcli run - lines; JSONPath, XPath,
headers and the request's own body; a reference to a request that failed or a path that selects
nothing fails only the request that needs it, unsent."""

import json
import threading
import time

from conftest import run
from loopback import Response


def records(result):
    return {json.loads(line)["name"]: json.loads(line) for line in result.out.splitlines()}


class Api:
    """A login that answers slowly, and endpoints that say what they were sent."""

    def __init__(self, server, login_status=200):
        self.lock = threading.Lock()
        self.events = []
        self.login_status = login_status
        server.handler = self.handle

    def handle(self, request):
        path = request.target.split("?")[0]
        with self.lock:
            self.events.append(("start", path, time.monotonic()))
        if path == "/login":
            time.sleep(0.4)
            with self.lock:
                self.events.append(("end", path, time.monotonic()))
            if self.login_status != 200:
                return Response(status=self.login_status, reason="Unauthorized", body=b"no")
            return Response(headers=[("Content-Type", "application/json"), ("Location", "/users/7")],
                            body=b'{"token":"t-42","user":{"id":7,"name":"Ann"}}')
        if path == "/feed":
            return Response(headers=[("Content-Type", "application/xml")],
                            body=b"<rss><channel><item><title>First</title></item></channel></rss>")
        return Response(headers=[("Content-Type", "application/json")], body=b"{}")

    def started(self, path):
        return next(t for kind, p, t in self.events if kind == "start" and p == path)


def test_a_logins_token_reaches_three_parallel_requests_which_wait_for_it(server, tmp_path, cpus):
    api = Api(server)
    (tmp_path / "api.http").write_text(f"""@api = {server.url}
@token = {{{{login.response.body.$.token}}}}

### login
# @name login
POST {{{{api}}}}/login
Content-Type: application/json

{{"user": "ann"}}

### independent
GET {{{{api}}}}/independent

### one
GET {{{{api}}}}/one
Authorization: Bearer {{{{token}}}}

### two
GET {{{{api}}}}/two?id={{{{login.response.body.$.user.id}}}}
Authorization: Bearer {{{{login.response.body.$.token}}}}

### three
GET {{{{api}}}}{{{{login.response.headers.Location}}}}
X-User: {{{{login.request.body.$.user}}}}
Authorization: Bearer {{{{token}}}}
""")
    result = run(["run", str(tmp_path / "api.http"), "--parallel", "4"], cpus=cpus)
    assert result.code == 0, result
    by_path = {r.target.split("?")[0]: r for r in server.requests}
    for path in ("/one", "/two", "/users/7"):
        assert by_path[path].header("Authorization") == "Bearer t-42", path
    assert by_path["/two"].target == "/two?id=7"
    assert by_path["/users/7"].header("X-User") == "ann"
    login_end = next(t for kind, p, t in api.events if kind == "end")
    # The three that need the token started after the login answered; the one that needs
    # nothing ran meanwhile.
    assert all(api.started(p) >= login_end for p in ("/one", "/two", "/users/7"))
    assert api.started("/independent") < login_end
    assert set(records(result)) == {"login", "independent", "one", "two", "three"}


def test_values_on_run_lines_and_from_an_xml_body(server, tmp_path):
    Api(server)
    lines = (f"# @name feed\nget {server.url}/feed\n"
             f"# @name login\npost {server.url}/login user=ann\n"
             f"get {server.url}/a 'X-Title:{{{{feed.response.body.//item[1]/title}}}}' "
             f"'Authorization:Bearer {{{{login.response.body.$.token}}}}'\n"
             f"# @name echo\nget {server.url}/b?who={{{{login.response.body.$.user.name}}}}\n")
    result = run(["run", "-", "--parallel", "3"], input=lines.encode())
    assert result.code == 0, result
    by_path = {r.target.split("?")[0]: r for r in server.requests}
    assert by_path["/a"].header("X-Title") == "First"
    assert by_path["/a"].header("Authorization") == "Bearer t-42"
    assert by_path["/b"].target == "/b?who=Ann"


def test_a_failed_login_fails_only_the_requests_that_need_it(server, tmp_path):
    Api(server, login_status=401)
    (tmp_path / "api.http").write_text(f"""### login
# @name login
POST {server.url}/login

### needs
GET {server.url}/needs
Authorization: Bearer {{{{login.response.body.$.token}}}}

### other
GET {server.url}/other
""")
    result = run(["run", str(tmp_path / "api.http"), "--keep-going"])
    lines = records(result)
    assert lines["login"]["exit"] == 4 and lines["other"]["exit"] == 0
    assert lines["needs"]["exit"] == 2 and lines["needs"]["status"] is None
    assert "login's response body is not JSON (login's response was HTTP 401)" in lines["needs"]["error"]
    assert "api.http:7" in lines["needs"]["error"]
    assert "/needs" not in [r.target for r in server.requests]
    # The line of a request that was never sent says what it would have sent, as written.
    assert lines["needs"]["method"] == "GET" and lines["needs"]["url"] == f"{server.url}/needs"


def test_a_reference_takes_its_value_from_a_failed_response_too(server, tmp_path):
    def handler(request):
        if request.target == "/job":
            return Response(status=500, reason="Internal Server Error", body=b'{"incident":"inc-9"}')
        return Response()
    server.handler = handler
    (tmp_path / "api.http").write_text(f"""# @name job
POST {server.url}/job

###
POST {server.url}/report?incident={{{{job.response.body.$.incident}}}}
""")
    result = run(["run", str(tmp_path / "api.http"), "--keep-going"])
    assert result.code == 5, result
    assert [r.target for r in server.requests] == ["/job", "/report?incident=inc-9"]


def test_the_line_of_an_unsent_command_line_names_its_method_and_url(server):
    server.handler = lambda request: Response(status=500, reason="Internal Server Error", body=b"[]")
    lines = f"""# @name job
{server.url}/job
post {server.url}/next id={{{{job.response.body.$.id}}}}
{server.url}/query x=={{{{job.response.body.$.id}}}}
"""
    result = run(["run", "-", "--keep-going"], input=lines.encode())
    records = [json.loads(line) for line in result.out.splitlines()]
    assert [(r["method"], r["url"]) for r in records[1:]] == [
        ("POST", f"{server.url}/next"), ("GET", f"{server.url}/query")], records
    assert all("selects nothing" in r["error"] for r in records[1:])
    assert [r.target for r in server.requests] == ["/job"]


def test_a_path_that_selects_nothing_names_the_request_and_the_path(server, tmp_path):
    Api(server)
    (tmp_path / "api.http").write_text(f"""# @name login
POST {server.url}/login

###
GET {server.url}/x?v={{{{login.response.body.$.missing}}}}
""")
    result = run(["run", str(tmp_path / "api.http")])
    assert result.code == 2, result
    assert "$.missing selects nothing in login's response body" in result.err
    assert [r.target for r in server.requests] == ["/login"]


def test_a_reference_to_no_earlier_request_stops_the_file_before_anything_is_sent(server, tmp_path):
    Api(server)
    (tmp_path / "api.http").write_text(f"""GET {server.url}/a?t={{{{login.response.body.$.token}}}}

###
# @name login
POST {server.url}/login
""")
    result = run(["run", str(tmp_path / "api.http")])
    assert result.code == 2 and "api.http:1" in result.err and "no request named login comes before" in result.err
    assert server.requests == []
    bad_line = run(["run", "-"], input=f"get {server.url}/a?t={{{{nobody.response.body.*}}}}\n".encode())
    assert bad_line.code == 2 and "stdin:1" in bad_line.err and server.requests == []


def test_a_request_that_takes_a_value_is_checked_when_its_turn_comes(server, tmp_path):
    # Its URL and headers are read before anything is sent (which request it needs); the rest of
    # it, built with the value, is checked when it is about to go: a mistake of its own fails it
    # alone then, at its line, while the file's other requests are sent.
    Api(server)
    (tmp_path / "api.http").write_text(f"""### login
# @name login
POST {server.url}/login

### needs
GET {server.url}/needs
Authorization: Bearer {{{{login.response.body.$.token}}}}
Bad Name: x

### other
GET {server.url}/other
""")
    result = run(["run", str(tmp_path / "api.http"), "--keep-going"])
    lines = records(result)
    assert lines["login"]["exit"] == 0 and lines["other"]["exit"] == 0
    assert lines["needs"]["exit"] == 2 and lines["needs"]["status"] is None
    assert "api.http:8" in lines["needs"]["error"] and 'invalid header "Bad Name"' in lines["needs"]["error"]
    assert sorted(r.target for r in server.requests) == ["/login", "/other"]
    # The same mistake in a request that takes no value stops the file before anything is sent.
    (tmp_path / "plain.http").write_text(f"""GET {server.url}/a

###
GET {server.url}/b
Bad Name: x
""")
    server.requests.clear()
    stopped = run(["run", str(tmp_path / "plain.http")])
    assert stopped.code == 2 and "plain.http:5" in stopped.err and server.requests == []
