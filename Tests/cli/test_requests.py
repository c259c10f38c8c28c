"""The exact requests afcli sends: items, bodies, methods, query strings (loopback server)."""

import json
import os

from conftest import Response, run


def only(server):
    assert len(server.requests) == 1, server.requests
    return server.requests[0]


def test_get_with_query_items_and_header(server):
    result = run(["get", f"{server.url}/get", "page==2", "q==hello world", "X-Trace:abc"])
    assert result.code == 0, result
    req = only(server)
    assert req.method == "GET"
    assert req.target == "/get?page=2&q=hello%20world"
    assert req.header("X-Trace") == "abc"
    assert req.header("User-Agent").startswith("afcli/")
    assert req.header("Accept") == "*/*"
    assert req.body == b""


def test_json_body_order_as_typed_and_nested_keys(server):
    args = ["post", f"{server.url}/users", "name=José", "age:=41", "tags[]=a", "tags[]=b", "address[city]=Oslo"]
    result = run(args)
    assert result.code == 0, result
    req = only(server)
    assert req.method == "POST"
    assert req.body == '{"name":"José","age":41,"tags":["a","b"],"address":{"city":"Oslo"}}'.encode()
    assert req.header("Content-Type") == "application/json"
    assert req.header("Accept") == "application/json, */*;q=0.5"
    assert req.header("Content-Length") == str(len(req.body))
    assert req.header("Expect") is None


def test_form_flattens_structured_values_af_style(server):
    result = run(["post", "--form", f"{server.url}/post", "user=ann", 'meta:={"a":[1,2]}'])
    assert result.code == 0, result
    req = only(server)
    assert req.body == b"meta%5Ba%5D%5B%5D=1&meta%5Ba%5D%5B%5D=2&user=ann"
    assert req.header("Content-Type") == "application/x-www-form-urlencoded"


def test_form_post_without_parameters_is_empty_body_with_type(server):
    result = run(["post", "--form", f"{server.url}/post"])
    assert result.code == 0, result
    req = only(server)
    assert req.body == b""
    assert req.header("Content-Length") == "0"
    assert req.header("Content-Type") == "application/x-www-form-urlencoded"


def test_plist_body_is_byte_exact(server):
    result = run(["put", "--plist", f"{server.url}/put", "key=value"])
    assert result.code == 0, result
    req = only(server)
    assert req.method == "PUT"
    assert req.header("Content-Type") == "application/x-plist"
    assert req.body == (
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
        b'<plist version="1.0">\n<dict>\n\t<key>key</key>\n\t<string>value</string>\n</dict>\n</plist>\n'
    )


def test_delete_data_goes_to_query(server):
    result = run(["delete", f"{server.url}/delete", "id=7"])
    assert result.code == 0, result
    req = only(server)
    assert req.method == "DELETE"
    assert req.target == "/delete?id=7"
    assert req.body == b""
    assert req.header("Content-Type") is None


def test_get_data_fields_are_af_sorted_after_query_items(server):
    run(["get", f"{server.url}/p?a=1#frag", "z==last", "b=2", "a[x]=y"])
    assert only(server).target == "/p?a=1&z=last&a%5Bx%5D=y&b=2"


def test_method_inference_post_when_data(server):
    run([f"{server.url}/x", "a=1"])
    assert only(server).method == "POST"


def test_method_inference_get_with_dev_null_stdin(server):
    with open(os.devnull, "rb") as devnull:
        run([f"{server.url}/x"], stdin=devnull)
    assert only(server).method == "GET"


def test_stdin_body_is_sent_and_infers_post(server):
    result = run([f"{server.url}/anything"], input=b'{"a":1}\n')
    assert result.code == 0, result
    req = only(server)
    assert req.method == "POST"
    assert req.body == b'{"a":1}\n'


def test_empty_stdin_pipe_stays_get(server):
    run([f"{server.url}/x"], input=b"")
    assert only(server).method == "GET"


def test_ignore_stdin(server):
    run(["--ignore-stdin", f"{server.url}/x"], input=b"data")
    req = only(server)
    assert req.method == "GET" and req.body == b""


def test_ignore_stdin_refuses_items_that_read_standard_input(server):
    for items, named in [(["@-"], '"@-"'), (["@-;type=text/plain"], '"@-;type=text/plain"'),
                         (["name=x", "doc@-"], '"doc@-"')]:
        result = run(["-I", "post", f"{server.url}/post", *items], input=b"data")
        assert result.code == 2, result
        assert result.err == f"afcli: error: {named} reads standard input, which --ignore-stdin leaves unread\n"
    assert server.requests == []


def test_raw_body_from_file(server, tmp_path):
    path = tmp_path / "body.json"
    path.write_bytes(b'{"from":"file"}')
    result = run(["post", f"{server.url}/post", f"@{path}"])
    assert result.code == 0, result
    req = only(server)
    assert req.body == b'{"from":"file"}'
    assert req.header("Content-Length") == "15"


def test_raw_option(server):
    run(["post", f"{server.url}/post", "--raw", "text body"])
    assert only(server).body == b"text body"


def test_every_separator(server, tmp_path):
    (tmp_path / "h.txt").write_text("from-file\n")
    (tmp_path / "q.txt").write_text("qv")
    (tmp_path / "f.txt").write_text("field text")
    (tmp_path / "j.json").write_text('{"k":[true,null]}')
    args = [
        "post", f"{server.url}/all",
        "X-A:1", "X-Empty;", f"X-File:@{tmp_path / 'h.txt'}",
        "q==1", f"qf==@{tmp_path / 'q.txt'}",
        "s=str", "n:=1.50", f"sf=@{tmp_path / 'f.txt'}", f"jf:=@{tmp_path / 'j.json'}",
    ]
    result = run(args)
    assert result.code == 0, result
    req = only(server)
    assert req.header("X-A") == "1"
    assert req.header("X-Empty") == ""
    assert req.header("X-File") == "from-file"
    assert req.target == "/all?q=1&qf=qv"
    assert req.body == b'{"s":"str","n":1.50,"sf":"field text","jf":{"k":[true,null]}}'


def test_escaped_separators(server):
    run(["post", f"{server.url}/e", r"a\=b=c", r"x\:y:=1", r"h\==v"])
    req = only(server)
    assert json.loads(req.body) == {"a=b": "c", "x:y": 1, "h=": "v"}


def test_unset_default_header(server):
    run(["get", f"{server.url}/x", "User-Agent:", "Accept:"])
    req = only(server)
    assert req.header("User-Agent") is None
    assert req.header("Accept") is None


def test_user_header_replaces_default_and_repeats(server):
    run(["get", f"{server.url}/x", "User-Agent:mine", "X-R:1", "X-R:2"])
    req = only(server)
    assert req.header_all("User-Agent") == ["mine"]
    assert req.header_all("X-R") == ["1", "2"]


def test_top_level_array_and_indexes(server):
    run(["post", f"{server.url}/x", "[0]=a", "[2]:=3"])
    assert only(server).body == b'["a",null,3]'


def test_repeated_plain_key_last_value_wins_in_json(server):
    # HTTPie and xh send the last value, as an NSDictionary would; a form repeats the pair.
    run(["post", f"{server.url}/x", "a=1", "a=2"])
    run(["post", "--form", f"{server.url}/x", "a=1", "a=2"])
    assert [r.body for r in server.requests] == [b'{"a":"2"}', b"a=1&a=2"]


def test_methods_in_any_case_and_custom_method(server):
    run(["PaTcH", f"{server.url}/x", "a=1"])
    run(["--method", "PURGE", f"{server.url}/y"])
    run(["options", f"{server.url}/z"])
    run(["head", f"{server.url}/h"])
    assert [r.method for r in server.requests] == ["PATCH", "PURGE", "OPTIONS", "HEAD"]


def test_url_credentials_become_basic_auth(server):
    url = server.url.replace("http://", "http://user:password@")
    run(["get", f"{url}/x"])
    assert only(server).header("Authorization") == "Basic dXNlcjpwYXNzd29yZA=="


def test_auth_option_basic_and_bearer(server):
    run(["get", f"{server.url}/a", "-a", "user:password"])
    run(["get", f"{server.url}/b", "-A", "bearer", "-a", "tok123"])
    assert server.requests[0].header("Authorization") == "Basic dXNlcjpwYXNzd29yZA=="
    assert server.requests[1].header("Authorization") == "Bearer tok123"


def test_accept_language_from_environment(server):
    run(["get", f"{server.url}/x"], env={"LANGUAGE": "fr_FR:de", "LANG": "en_US.UTF-8"})
    assert only(server).header("Accept-Language") == "fr-FR;q=1, de;q=0.9"


def test_base_url_resolution(server):
    run(["get", "--base-url", f"{server.url}/v1", "foo", "a==1"])
    assert only(server).target == "/v1/foo?a=1"


def test_localhost_shorthand(server):
    result = run(["get", f":{server.port}/short"])
    assert result.code == 0, result
    req = only(server)
    assert req.target == "/short"
    assert req.header("Host") == f"localhost:{server.port}"


def test_redirect_not_followed_by_default(server):
    server.handler = lambda r: Response(302, "Found", [("Location", "/next")], b"")
    result = run(["get", f"{server.url}/start"])
    assert result.code == 3, result
    assert len(server.requests) == 1


def test_follow_307_resends_method_and_body(server):
    def handler(req):
        if req.target == "/start":
            return Response(307, "Temporary Redirect", [("Location", "/next")], b"")
        return Response(200, "OK", [("Content-Type", "text/plain")], b"done")
    server.handler = handler
    result = run(["post", "--follow", f"{server.url}/start", "a=1"])
    assert result.code == 0, result
    assert result.stdout == b"done"
    assert [(r.method, r.target, r.body) for r in server.requests] == [
        ("POST", "/start", b'{"a":"1"}'), ("POST", "/next", b'{"a":"1"}')]


def test_follow_302_turns_post_into_get(server):
    def handler(req):
        if req.target == "/start":
            return Response(302, "Found", [("Location", "/next")], b"")
        return Response()
    server.handler = handler
    run(["post", "-F", f"{server.url}/start", "a=1"])
    assert [(r.method, r.body) for r in server.requests] == [("POST", b'{"a":"1"}'), ("GET", b"")]


def test_too_many_redirects(server):
    server.handler = lambda r: Response(302, "Found", [("Location", "/again")], b"")
    result = run(["get", "--follow", "--max-redirects", "3", f"{server.url}/loop"])
    assert result.code == 6, result
    assert "redirect" in result.err
    assert len(server.requests) == 4


def test_proxy_option_sends_absolute_form_to_proxy(server):
    # The loopback server plays the proxy: the target host is never resolved or contacted.
    result = run(["get", "--proxy", server.url, "http://example.invalid/through?x=1"])
    assert result.code == 0, result
    req = only(server)
    assert req.target == "http://example.invalid/through?x=1"
    assert req.header("Host") == "example.invalid"


def test_proxy_environment_variable(server):
    result = run(["get", "http://example.invalid/env"], env={"http_proxy": server.url})
    assert result.code == 0, result
    assert only(server).target == "http://example.invalid/env"


def test_no_proxy_form_resets_option(server):
    result = run(["get", "--proxy", "http://127.0.0.1:9", "--no-proxy", f"{server.url}/direct"])
    assert result.code == 0, result
    assert only(server).target == "/direct"
