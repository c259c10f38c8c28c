"""--jsonpath: an RFC 9535 query applied to the response body as it streams, against a loopback
server."""

import re
import subprocess

from conftest import BINARY, Response, base_env, run, run_tty

ANSI = re.compile(rb"\x1b\[[0-9;]*m")
ITEMS = b'{"items": [ {"id": 1, "name": "a"}, {"id": 2, "name": "b", "tags": ["x"]}, {"id": 3} ], "n": null}'


def serve(server, body, content_type="application/json"):
    headers = [("Content-Type", content_type)] if content_type else []
    server.handler = lambda r: Response(200, "OK", headers, body)


def test_matches_are_printed_one_compact_value_a_line(server):
    serve(server, ITEMS)
    result = run(["get", f"{server.url}/items", "--jsonpath", "$.items[*].id"])
    assert (result.code, result.stdout, result.stderr) == (0, b"1\n2\n3\n", b"")
    result = run(["get", f"{server.url}/items", "--jsonpath", "$.items[?@.id >= 2]"])
    assert result.stdout == b'{"id":2,"name":"b","tags":["x"]}\n{"id":3}\n'
    assert run(["get", f"{server.url}/items", "--jsonpath", "$..name"]).stdout == b'"a"\n"b"\n'
    # Needs the array's length: the document is held, and the match is the same.
    assert run(["get", f"{server.url}/items", "--jsonpath", "$.items[-1:]"]).stdout == b'{"id":3}\n'
    assert run(["get", f"{server.url}/items", "--jsonpath", "$.missing"]).stdout == b""


def test_a_bad_query_is_exit_2_before_anything_is_sent(server):
    result = run(["get", f"{server.url}/items", "--jsonpath", "$.items[?@.id > ]"])
    assert result.code == 2, result
    assert result.err == (
        'afcli: error: --jsonpath: "$.items[?@.id > ]" is not a JSONPath query: '
        "expected a value, a query or a function at character 17\n")
    assert result.stdout == b""
    assert server.requests == []


def test_a_body_that_is_not_json_is_exit_11(server):
    serve(server, b"<html>hi</html>", "text/html")
    result = run(["get", f"{server.url}/page", "--jsonpath", "$.a"])
    assert result.code == 11, result
    assert result.err == "afcli: error: --jsonpath: the response is text/html, not JSON\n"
    assert result.stdout == b""
    serve(server, b"hello", "text/plain")
    result = run(["get", f"{server.url}/text", "--jsonpath", "$.a"])
    assert result.code == 11, result
    assert "not JSON" in result.err
    # text/plain that is JSON is read as JSON, as the formatter sniffs it.
    serve(server, b'{"a": [1]}', "text/plain")
    assert run(["get", f"{server.url}/text", "--jsonpath", "$.a[0]"]).stdout == b"1\n"


def test_invalid_json_is_exit_11_after_the_matches_before_it(server):
    serve(server, b'[{"id":1},{"id":2},{"id" 3}]')
    result = run(["get", f"{server.url}/bad", "--jsonpath", "$[*].id"])
    assert result.code == 11, result
    assert result.stdout == b"1\n2\n"
    assert result.err == "afcli: error: the body is not valid JSON: expected ':' at offset 25\n"


def test_a_body_nested_past_the_limit_is_exit_12_naming_the_limit_for_every_query(server):
    serve(server, b"[" * 100_000 + b"]" * 100_000)
    for query in ("$..a", "$[0]", "$..*", "$[?@.x]"):
        result = run(["get", f"{server.url}/deep", "--jsonpath", query])
        assert result.code == 12, (query, result)
        assert result.err == ("afcli: error: the body is nested deeper than the limit (512 levels; --max-depth "
                              "raises it) at offset 512\n"), query


def test_each_ndjson_value_is_queried_on_its_own(server):
    serve(server, b'{"id":1,"ok":true}\n{"id":2}\n\n{"id":3,"ok":false}\n', "application/x-ndjson")
    assert run(["get", f"{server.url}/feed", "--jsonpath", "$.id"]).stdout == b"1\n2\n3\n"
    assert run(["get", f"{server.url}/feed", "--jsonpath", "$[?@ == true]"]).stdout == b"true\n"


def test_a_terminal_gets_coloured_matches_and_no_head(server):
    serve(server, ITEMS)
    result = run_tty(["get", f"{server.url}/items", "--jsonpath", "$.items[1]"])
    assert result.code == 0, result
    assert b"\x1b[" in result.stdout
    assert ANSI.sub(b"", result.stdout) == b'{"id":2,"name":"b","tags":["x"]}\n'
    # An explicit --print still shows the head.
    result = run_tty(["get", f"{server.url}/items", "--jsonpath", "$.n", "--print=hb", "--pretty=none"])
    assert result.stdout.startswith(b"HTTP/1.1 200 OK\n")
    assert result.stdout.endswith(b"\n\nnull\n")


def test_jsonpath_is_an_option_of_requests_only(tmp_path):
    result = run(["run", "-", "--jsonpath", "$.a"], input=b"GET http://127.0.0.1:9/\n")
    assert result.code == 2, result
    assert "--jsonpath" in result.err


def big_body(records):
    """A JSON object holding an array of `records` records, generated as it is sent."""
    def chunks():
        yield b'{"meta": {"count": %d}, "items": [' % records
        block = b",".join(b'{"id": %d, "name": "item", "tags": ["a", "b"], "nested": {"x": [1, 2, 3]}}' % i
                          for i in range(1000))
        for start in range(0, records, 1000):
            yield (b"," if start else b"") + block
        yield b"]}"
    return chunks


def test_memory_stays_flat_on_a_large_body(server):
    records = 400_000  # about 30 MB
    body = big_body(records)
    length = sum(len(chunk) for chunk in body())
    headers = [("Content-Type", "application/json"), ("Content-Length", str(length))]
    server.handler = lambda r: Response(200, "OK", headers, body)
    for query, lines in [("$.items[*].id", records), ("$.items[?@.id == 7].nested.x[2]", records // 1000),
                         ("$..x[0]", records)]:
        timed = subprocess.run(
            ["/usr/bin/time", "-f", "%M", str(BINARY), "get", f"{server.url}/big", "--jsonpath", query],
            capture_output=True, env=base_env(), timeout=300)
        assert timed.returncode == 0, timed.stderr[-400:]
        assert timed.stdout.count(b"\n") == lines, query
        peak_kib = int(timed.stderr.decode().strip().splitlines()[-1])
        assert peak_kib < 30 * 1024, f"peak RSS {peak_kib} KiB for {query} on a 30 MB body"
