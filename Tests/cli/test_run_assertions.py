"""afcli run FILE.http with httpyac's `??` assertions: each request's checks are made on its
response, a failed one fails the request with exit status 16 and lists every check with its
actual value in the NDJSON line; `?? js` needs JavaScript and refuses its request alone; a `??`
line is never sent as part of a body."""

import json
import threading

from conftest import run
from loopback import Response


def records(result):
    return [json.loads(line) for line in result.out.splitlines()]


def api(request):
    path = request.target.split("?")[0]
    if path == "/items":
        return Response(headers=[("Content-Type", "application/json"), ("X-Count", "2")],
                        body=b'{"items":[{"id":7,"name":"a","tags":["x"]},{"id":8,"name":"b"}],"ok":true,"n":null}')
    if path == "/slides":
        return Response(headers=[("Content-Type", "application/xml")],
                        body=b'<?xml version="1.0"?><slideshow title="Sample Slide Show"><slide/></slideshow>')
    if path == "/echo":
        return Response(headers=[("Content-Type", "text/plain")], body=request.body)
    return Response(status=404, reason="Not Found", body=b"no such thing")


def write(tmp_path, text):
    path = tmp_path / "api.http"
    path.write_text(text)
    return str(path)


def test_assertions_that_hold_pass_and_are_listed(server, tmp_path):
    server.handler = api
    path = write(tmp_path, f"""### items
GET {server.url}/items

?? status == 200
?? status >= 200
?? header content-type includes json
?? header x-count == 2
?? header x-missing isFalse
?? body includes items
?? body $.items exists
?? body ok isTrue
?? body items isArray
?? jsonpath $.items[0].id == 7
?? jsonpath $.items[*].name == "a"
?? jsonpath $.items[1].name != a
?? jsonpath $.items[0].tags isArray
?? jsonpath $.n exists
?? duration < 60000
?? body matches ^\\{{"items
?? status matches ^\\d+$
""")
    result = run(["run", path])
    assert result.code == 0, result
    (record,) = records(result)
    assert record["exit"] == 0 and record["error"] is None
    assert [a["passed"] for a in record["assertions"]] == [True] * 17, record["assertions"]
    first = record["assertions"][0]
    assert first == {"line": 4, "assert": "status == 200", "passed": True, "actual": "200"}


def test_a_failed_assertion_fails_the_request_with_16_and_shows_the_actual_value(server, tmp_path):
    server.handler = api
    path = write(tmp_path, f"""### items
GET {server.url}/items
?? status == 200
?? jsonpath $.items[0].name == b
?? header content-type startsWith text/

### other
GET {server.url}/items
?? status == 200
""")
    result = run(["run", path, "--keep-going"])
    assert result.code == 16, result
    failed, passed = records(result)
    assert failed["exit"] == 16 and passed["exit"] == 0
    assert [a["passed"] for a in failed["assertions"]] == [True, False, False]
    assert failed["assertions"][1]["actual"] == "a"
    assert failed["error"] == ("2 assertions failed: jsonpath $.items[0].name == b (actual a); "
                               "header content-type startsWith text/ (actual application/json)")
    assert "items (" in result.err and "2 assertions failed" in result.err


def test_an_assertion_on_the_status_replaces_the_status_check(server, tmp_path):
    server.handler = api
    path = write(tmp_path, f"GET {server.url}/missing\n?? status == 404\n?? body == no such thing\n")
    result = run(["run", path])
    assert result.code == 0 and records(result)[0]["status"] == 404, result
    unchecked = write(tmp_path, f"GET {server.url}/missing\n?? body includes such\n")
    assert run(["run", unchecked]).code == 4


def test_xpath_assertions_read_an_xml_body(server, tmp_path):
    server.handler = api
    path = write(tmp_path, f"""GET {server.url}/slides

?? xpath /slideshow/@title == Sample Slide Show
?? xpath count(//slide) == 1
?? xpath /slideshow/missing exists
""")
    result = run(["run", path, "--keep-going"])
    (record,) = records(result)
    assert [a["passed"] for a in record["assertions"]] == [True, True, False], record


def test_assertion_lines_are_not_part_of_the_body(server, tmp_path):
    server.handler = api
    path = write(tmp_path, f"""POST {server.url}/echo
Content-Type: text/plain

line one
line two

?? status == 200
?? body startsWith line one
?? body endsWith two
""")
    result = run(["run", path])
    assert server.requests[0].body == b"line one\nline two", server.requests[0].body
    assert result.code == 0, result


def test_a_js_assertion_refuses_its_request_alone_and_nothing_of_it_is_sent(server, tmp_path):
    server.handler = api
    path = write(tmp_path, f"""### scripted
GET {server.url}/items?scripted
?? js response.parsedBody.ok == true

### plain
GET {server.url}/items?plain
?? status == 200
""")
    result = run(["run", path, "--keep-going"])
    scripted, plain = records(result)
    assert result.code == 2, result
    assert scripted["exit"] == 2 and "api.http:3" in scripted["error"] and "needs JavaScript" in scripted["error"]
    assert plain["exit"] == 0
    assert [r.target for r in server.requests] == ["/items?plain"]


def test_a_malformed_assertion_stops_the_file_before_anything_is_sent(server, tmp_path):
    server.handler = api
    for line, reason in (("?? status", "names no condition"), ("?? colour == red", "no field afcli checks"),
                         ("?? status ==", "needs a value"), ("?? header == x", "one header name"),
                         ("?? duration sometime < 3", "the phase is one of")):
        path = write(tmp_path, f"GET {server.url}/items\n{line}\n\nGET {server.url}/items\n")
        result = run(["run", path])
        assert result.code == 2 and "api.http:2" in result.err and reason in result.err, (line, result)
    assert server.requests == []


def test_a_jsonpath_query_with_spaces_is_read_whole(server, tmp_path):
    server.handler = lambda request: Response(
        headers=[("Content-Type", "application/json")],
        body=b'{"items":[{"age":17,"name":"Bo"},{"age":30,"name":"Ann Lee"}]}')
    path = write(tmp_path, f"""GET {server.url}/people
?? jsonpath $.items[?@.age > 18].name == Ann Lee
?? body items[? @.age < 18].name == Bo
?? jsonpath $.items[?@.age > 40].name exists
""")
    result = run(["run", path])
    (record,) = records(result)
    assert [(a["assert"], a["passed"]) for a in record["assertions"]] == [
        ("jsonpath $.items[?@.age > 18].name == Ann Lee", True),
        ("body items[? @.age < 18].name == Bo", True),
        ("jsonpath $.items[?@.age > 40].name exists", False)], record
    assert result.code == 16, result


def test_a_bad_jsonpath_query_stops_the_file_before_anything_is_sent(server, tmp_path):
    server.handler = api
    for line, reason in (("?? jsonpath $.items[?@.age > ] exists", "not a JSONPath query"),
                         ("?? jsonpath $.items[0 exists", "not a JSONPath query"),
                         ("?? body $.items.* . exists", "not a JSONPath query"),
                         ("?? jsonpath $.a b exists", "names no condition after the query $.a")):
        path = write(tmp_path, f"GET {server.url}/items\n\n###\nGET {server.url}/items\n{line}\n")
        result = run(["run", path])
        assert result.code == 2 and "api.http:5" in result.err and reason in result.err, (line, result)
        assert result.err.count("\n") == 1, result.err
    assert server.requests == []


def test_a_body_too_large_to_check_fails_the_assertions_that_read_it(server, tmp_path):
    big = b"x" * (17 << 20)
    server.handler = lambda request: Response(headers=[("Content-Type", "text/plain")], body=big)
    path = write(tmp_path, f"GET {server.url}/big\n?? status == 200\n?? body includes y\n")
    result = run(["run", path])
    (record,) = records(result)
    assert result.code == 16 and record["bytes"] == len(big)
    assert record["assertions"][0]["passed"] and not record["assertions"][1]["passed"]
    assert "larger than 16 MiB" in record["assertions"][1]["problem"]


def test_a_script_block_refuses_its_request_alone_and_is_never_sent(server, tmp_path):
    server.handler = api
    path = write(tmp_path, f"""{{{{
  exports.token = "computed";
}}}}
GET {server.url}/items?scripted

###
POST {server.url}/echo
Content-Type: text/plain

body text

{{{{
  console.log(response.body);
}}}}

###
GET {server.url}/items?plain
""")
    result = run(["run", path, "--keep-going"])
    first, second, plain = records(result)
    assert first["exit"] == 2 and "api.http:1" in first["error"] and "needs JavaScript" in first["error"]
    assert second["exit"] == 2 and "api.http:12" in second["error"]
    assert plain["exit"] == 0
    assert [r.target for r in server.requests] == ["/items?plain"]
    unclosed = write(tmp_path, f"GET {server.url}/items\n\n{{{{\n  x = 1\n")
    refused = run(["run", unclosed])
    assert refused.code == 2 and "api.http:3" in refused.err and "never closed" in refused.err
    assert len(server.requests) == 1


def test_retry_sends_a_request_again_until_its_assertions_hold(server, tmp_path):
    state = {"calls": 0}

    def job(request):
        state["calls"] += 1
        done = state["calls"] >= 3
        return Response(headers=[("Content-Type", "application/json")],
                        body=b'{"state":"%s"}' % (b"done" if done else b"running"))
    server.handler = job
    path = write(tmp_path, f"""# @retry 5
GET {server.url}/job
?? jsonpath $.state == done
""")
    result = run(["run", path, "--retry-interval", "50ms"])
    (record,) = records(result)
    assert result.code == 0 and record["assertion_tries"] == 3 and state["calls"] == 3, result
    assert record["assertions"][0]["actual"] == "done"

    state["calls"] = -10
    never = run(["run", write(tmp_path, f"# @retry 2\nGET {server.url}/job\n?? jsonpath $.state == done\n"),
                 "--retry-interval", "0.05"])
    (record,) = records(never)
    assert never.code == 16 and record["assertion_tries"] == 3 and record["assertions"][0]["actual"] == "running"
    bad = run(["run", path, "--retry-interval", "soon"])
    assert bad.code == 2 and "--retry-interval" in bad.err


def test_a_request_waiting_to_be_sent_again_gives_its_slot_under_parallel(server, tmp_path):
    # Under --parallel 2, /job fails its assertion and waits 3 s before its next try; /hold
    # answers only once /other has arrived. /other can start only in the slot /job gave up:
    # were /job keeping it, /hold would give up after 2 s with 504.
    arrived = threading.Event()
    calls = {"job": 0}

    def handler(request):
        path = request.target.split("?")[0]
        if path == "/job":
            calls["job"] += 1
            return Response(body=b"done" if calls["job"] >= 2 else b"running")
        if path == "/hold":
            return Response() if arrived.wait(2) else Response(status=504, reason="Gateway Timeout")
        arrived.set()
        return Response()
    server.handler = handler
    path = write(tmp_path, f"""# @retry 1
GET {server.url}/job
?? body == done
###
GET {server.url}/hold
###
GET {server.url}/other
""")
    result = run(["run", path, "--parallel", "2", "--retry-interval", "3s"])
    by_path = {record["url"].rsplit("/", 1)[1]: record for record in records(result)}
    job, hold, other = by_path["job"], by_path["hold"], by_path["other"]
    assert result.code == 0, result
    assert job["assertion_tries"] == 2 and hold["status"] == 200 and other["status"] == 200
    # One after the other, a request keeps its turn while it waits: the next starts after it.
    calls["job"] = 0
    arrived.clear()
    server.requests.clear()
    path = write(tmp_path, f"# @retry 1\nGET {server.url}/job\n?? body == done\n###\nGET {server.url}/other\n")
    result = run(["run", path, "--retry-interval", "50ms"])
    assert result.code == 0, result
    assert [r.target for r in server.requests] == ["/job", "/job", "/other"]
