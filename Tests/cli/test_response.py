"""The response side: formatting (JSON, XML, property lists, images), colours, terminal versus
pipe, AFNetworking validation and the CJNetwork request log, against a loopback server."""

import os
import plistlib
import re
import struct
import tempfile
import time

from conftest import Response, free_port, run, run_tty

ANSI = re.compile(rb"\x1b\[[0-9;]*m")
JSON_BODY = b'{"b":1,"a":[true,null,{"x":"caf\\u00e9 \\/"}],"n":12345678901234567890,"f":1.50,"e":{}}'
JSON_FORMATTED = (
    b'{\n    "b": 1,\n    "a": [\n        true,\n        null,\n        {\n            "x": "caf\\u00e9 \\/"\n'
    b'        }\n    ],\n    "n": 12345678901234567890,\n    "f": 1.50,\n    "e": {}\n}\n'
)


def serve(server, body, content_type="application/json", status=200, reason="OK"):
    headers = [("Content-Type", content_type)] if content_type else []
    server.handler = lambda r: Response(status, reason, headers, body)


# Terminal versus pipe


def test_terminal_gets_indented_coloured_json_in_key_order(server):
    serve(server, JSON_BODY)
    result = run_tty(["get", f"{server.url}/json"])
    assert result.code == 0, result
    assert b'\x1b[1;34m"b"\x1b[0m: \x1b[36m1\x1b[0m' in result.stdout
    plain = ANSI.sub(b"", result.stdout)
    assert plain.startswith(b"HTTP/1.1 200 OK\n")
    assert plain.endswith(b"\n\n" + JSON_FORMATTED)
    assert result.stderr == b""


def test_pipe_gets_the_exact_bytes(server):
    serve(server, JSON_BODY)
    result = run(["get", f"{server.url}/json"])
    assert result.stdout == JSON_BODY
    assert result.stderr == b""


def test_pretty_format_into_a_pipe_and_all_into_a_file(server):
    serve(server, JSON_BODY)
    assert run(["get", "--pretty=format", f"{server.url}/json"]).stdout == JSON_FORMATTED
    assert run(["get", "--pretty=format", "--indent=2", f"{server.url}/json"]).stdout.startswith(b'{\n  "b": 1,\n  "a": [\n    true')
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "out.json")
        assert run(["get", "--pretty=all", "-o", path, f"{server.url}/json"]).code == 0
        data = open(path, "rb").read()
        assert b"\x1b[" in data
        assert ANSI.sub(b"", data) == JSON_FORMATTED


def test_pretty_colors_keeps_the_layout(server):
    serve(server, b'{"a": [1,2]}\n')
    out = run(["get", "--pretty=colors", f"{server.url}/json"]).stdout
    assert ANSI.sub(b"", out) == b'{"a": [1,2]}\n'
    assert b"\x1b[36m1\x1b[0m" in out
    serve(server, b'<r>\n  <a x="1">t</a>\n</r>\n', "text/xml")
    out = run(["get", "--pretty=colors", f"{server.url}/xml"]).stdout
    assert ANSI.sub(b"", out) == b'<r>\n  <a x="1">t</a>\n</r>\n'
    assert b'\x1b[34m<a\x1b[0m \x1b[36mx\x1b[0m=\x1b[32m"1"\x1b[0m' in out


def test_pretty_none_on_a_terminal_and_no_color(server):
    serve(server, JSON_BODY)
    assert run_tty(["get", "--pretty=none", "-b", f"{server.url}/json"]).stdout == JSON_BODY + b"\n"
    for env in ({"NO_COLOR": "1"}, {"TERM": "dumb"}):
        result = run_tty(["get", "-b", f"{server.url}/json"], env=env)
        assert b"\x1b[" not in result.stdout, env
        assert result.stdout == JSON_FORMATTED


def test_styles(server):
    serve(server, b'{"a":1}')
    mono = run(["get", "--pretty=all", "--style=mono", f"{server.url}/json"]).stdout
    assert mono == b'{\n    \x1b[1m"a"\x1b[0m: 1\n}\n'
    monokai = run(["get", "--pretty=all", "-s", "monokai", f"{server.url}/json"]).stdout
    assert b"\x1b[38;5;197m" in monokai
    sent = len(server.requests)
    bad = run(["get", "--style=neon", f"{server.url}/json"])
    assert bad.code == 2 and b"neon" in bad.stderr and len(server.requests) == sent


def test_sorted_and_drop_nulls(server):
    serve(server, b'{"b":null,"a":[1,null,{"d":null,"c":2}],"A":{}}')
    out = run(["get", "--pretty=format", "--sorted", "--drop-nulls", f"{server.url}/json"]).stdout
    assert out == b'{\n    "A": {},\n    "a": [\n        1,\n        {\n            "c": 2\n        }\n    ]\n}\n'


def test_json_is_sniffed_in_text_plain_and_untyped_bodies(server):
    serve(server, b'  [1,{"a":2}]', content_type="text/plain")
    assert run(["get", "--pretty=format", f"{server.url}/t"]).stdout == b'[\n    1,\n    {\n        "a": 2\n    }\n]\n'
    serve(server, b"[INFO] not json", content_type="text/plain")
    result = run(["get", "--pretty=format", f"{server.url}/t"])
    assert result.stdout == b"[INFO] not json" and result.stderr == b""
    serve(server, b'{"x":1}', content_type=None)
    assert run(["get", "--pretty=format", f"{server.url}/t"]).stdout == b'{\n    "x": 1\n}\n'


def test_invalid_json_is_printed_as_received_with_a_warning(server):
    serve(server, b'{"a": [1, 2}')
    result = run(["get", "--pretty=format", f"{server.url}/json"])
    assert result.code == 0
    assert result.stdout == b'{"a": [1, 2}'
    assert result.stderr == b"afcli: warning: invalid JSON at byte 11: expected ']'; the rest is shown as received\n"


def test_empty_body_and_single_space_are_no_object(server):
    for body in (b"", b" "):
        serve(server, body)
        result = run(["get", "--pretty=format", f"{server.url}/json"])
        assert result.stdout == body and result.stderr == b""


# XML, property lists, images, charsets


def test_xml_is_indented_by_two(server):
    serve(server, b'<?xml version="1.0"?><r a="1"><b>t &amp; u</b><c/><!--n--></r>', "application/xml")
    out = run(["get", "--pretty=format", f"{server.url}/xml"]).stdout
    assert out == b'<?xml version="1.0"?>\n<r a="1">\n  <b>t &amp; u</b>\n  <c/>\n  <!--n-->\n</r>\n'
    plain = ANSI.sub(b"", run_tty(["get", "-b", f"{server.url}/xml"]).stdout)
    assert plain == out


def test_malformed_xml_is_printed_as_received_with_a_warning(server):
    serve(server, b"<a><b></a>", "text/xml")
    result = run(["get", "--pretty=format", f"{server.url}/xml"])
    assert result.stdout == b"<a><b></a>"
    assert result.stderr.startswith(b"afcli: warning: malformed XML (line 1, column ")
    assert result.stderr.endswith(b"); the rest is shown as received\n")


def test_binary_plist_as_xml_and_json(server):
    body = plistlib.dumps({"name": "玩具车", "n": 3, "ok": True}, fmt=plistlib.FMT_BINARY, sort_keys=False)
    serve(server, body, "application/x-plist")
    xml = run(["get", "--pretty=format", f"{server.url}/x.plist"]).stdout.decode()
    assert xml == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
        '<plist version="1.0">\n  <dict>\n    <key>name</key>\n    <string>玩具车</string>\n    <key>n</key>\n'
        "    <integer>3</integer>\n    <key>ok</key>\n    <true/>\n  </dict>\n</plist>\n"
    )
    as_json = run(["get", "--pretty=format", "--plist-as=json", f"{server.url}/x.plist"]).stdout.decode()
    assert as_json == '{\n    "name": "玩具车",\n    "n": 3,\n    "ok": true\n}\n'
    assert run(["get", f"{server.url}/x.plist"]).stdout == body


def test_xml_plist_as_json(server):
    body = plistlib.dumps({"a": [1, "x"]}, fmt=plistlib.FMT_XML)
    serve(server, body, "application/x-plist")
    assert run(["get", "--pretty=format", "--plist-as=json", f"{server.url}/p"]).stdout == (
        b'{\n    "a": [\n        1,\n        "x"\n    ]\n}\n'
    )


def png(width, height):
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I4sII", 13, b"IHDR", width, height) + b"\x08\x06\x00\x00\x00" + b"\0" * 100


def test_image_summary_on_a_terminal_and_exact_bytes_in_a_pipe(server):
    body = png(640, 480)
    serve(server, body, "image/png")
    assert run_tty(["get", "-b", f"{server.url}/image/png"]).stdout == b"\x1b[1mPNG image, 640 \xc3\x97 480, 129 bytes\x1b[0m\n"
    assert run_tty(["get", "-b", f"{server.url}/image/png"], env={"NO_COLOR": "1"}).stdout == (
        "PNG image, 640 × 480, 129 bytes\n".encode()
    )
    assert run(["get", f"{server.url}/image/png"]).stdout == body


def test_binary_text_on_a_terminal_gets_the_notice(server):
    serve(server, b"abc\x00def", "text/plain")
    out = run_tty(["get", "-b", f"{server.url}/bin"]).stdout
    assert b"binary data not shown" in out and b"abc" not in out
    assert run(["get", f"{server.url}/bin"]).stdout == b"abc\x00def"


def test_charset_is_converted_for_a_terminal_only(server):
    serve(server, "中文 café".encode("gbk"), "text/plain; charset=GBK")
    assert run_tty(["get", "-b", f"{server.url}/gbk"]).stdout == "中文 café\n".encode()
    assert run(["get", f"{server.url}/gbk"]).stdout == "中文 café".encode("gbk")


def test_stream_formats_each_line(server):
    lines = b'{"id":0}\n{"id":1}\n'

    def body():
        for line in lines.splitlines(keepends=True):
            yield line
            time.sleep(0.05)

    server.handler = lambda r: Response(200, "OK", [("Content-Type", "application/json"), ("Content-Length", str(len(lines)))], body)
    expected = b'{\n    "id": 0\n}\n{\n    "id": 1\n}\n'
    assert run(["get", "--stream", "--pretty=format", f"{server.url}/stream/2"]).stdout == expected
    serve(server, lines, "application/x-ndjson")
    assert run(["get", "--pretty=format", f"{server.url}/nd"]).stdout == expected
    assert run(["get", f"{server.url}/nd"]).stdout == lines


# AFNetworking validation


def test_accept_status_and_type_report_afnetworking_messages(server):
    serve(server, b"<h1>missing</h1>", "text/html", 404, "Not Found")
    result = run(["get", "--accept-status", "200-299,304", "--accept-type", "application/json", f"{server.url}/x"])
    assert result.code == 4
    assert result.stdout == b"<h1>missing</h1>"
    # A status refused by the codes given is named with them; the content type's is AF's message.
    assert result.stderr == (
        b"afcli: error: Request failed: status 404 (not found) is not one of --accept-status 200-299,304\n"
        b"  Request failed: unacceptable content-type: text/html\n"
    )
    result = run(["get", "--accept-type", "application/json", f"{server.url}/x"])
    assert result.stderr == (
        b"afcli: error: Request failed: not found (404)\n  Request failed: unacceptable content-type: text/html\n")
    serve(server, b"<p>ok</p>", "text/html")
    result = run(["get", "--accept-type", "json", f"{server.url}/x"])
    assert result.code == 11
    assert result.stderr == b"afcli: error: Request failed: unacceptable content-type: text/html\n"
    serve(server, b"", None, 304, "Not Modified")
    assert run(["get", "--accept-status", "200-299,304", f"{server.url}/x"]).code == 0
    serve(server, b"", "text/html", 201, "Created")
    result = run(["get", "--accept-status", "200", "--accept-type", "json", f"{server.url}/x"])
    assert result.code == 11
    assert result.stderr == b"afcli: error: Request failed: status 201 is not one of --accept-status 200\n"
    serve(server, b"{}", "application/json", 200, "OK")
    result = run(["get", "--accept-status", "201", f"{server.url}/x"])
    assert result.code == 11
    assert result.stderr == b"afcli: error: Request failed: status 200 is not one of --accept-status 201\n"
    serve(server, b"", "text/plain", 404, "Not Found")
    result = run(["get", "--accept-status", "200-299,304", f"{server.url}/x"])
    assert result.code == 4
    assert result.stderr == (
        b"afcli: error: Request failed: status 404 (not found) is not one of --accept-status 200-299,304\n")


def test_bad_validation_options_send_nothing(server):
    for option in ("--accept-status=2xx", "--accept-status=600", "--accept-type=html", "--indent=17", "--pretty=some"):
        result = run(["get", option, f"{server.url}/x"])
        assert result.code == 2, option
        assert result.stderr.startswith(b"afcli: error: "), option
    assert server.requests == []


# The CJNetwork log


def block(address, original, final, result):
    return (
        "\n\n  >>>>>>>>>>>>  网络请求Start  >>>>>>>>>>>>  \n"
        f"地址：{address} \n原始参数：{original} \n最终参数：{final} \n结果：{result} \n"
        "\n  <<<<<<<<<<<<<  网络请求End  <<<<<<<<<<<<<  \n\n\n"
    ).encode()


FALLBACK = "未获取到，请以原始参数为准..."


def test_log_for_a_json_post(server):
    serve(server, b'{ "ok" : true }')
    result = run(["post", "--log=cj", f"{server.url}/post", "q=玩具车", "n:=1"])
    assert result.code == 0
    assert result.stdout == b'{ "ok" : true }'
    assert result.stderr == block(f"{server.url}/post", '{"q":"玩具车","n":1}', '{"q":"玩具车","n":1}', '{"ok":true}')


def test_log_for_a_get_with_parameters(server):
    serve(server, '{"result":[["玩具车","1024"]]}'.encode())
    result = run(["get", "--log=cj", f"{server.url}/sug", "code==utf-8", "q==玩具车"])
    assert result.stderr == block(f"{server.url}/sug", '{"code":"utf-8","q":"玩具车"}', FALLBACK, '{"result":[["玩具车","1024"]]}')
    assert server.requests[0].target == "/sug?code=utf-8&q=%E7%8E%A9%E5%85%B7%E8%BD%A6"


def test_log_for_a_404(server):
    serve(server, b"nope", "text/plain", 404, "Not Found")
    result = run(["get", "--log=cj", f"{server.url}/missing"])
    assert result.code == 4
    assert result.stderr == block(f"{server.url}/missing", "(null)", FALLBACK, "找不到请求的页面") + b"afcli: warning: HTTP 404 Not Found\n"


def test_log_when_the_connection_is_refused():
    port = free_port()
    result = run(["get", "--log=cj", f"http://127.0.0.1:{port}/x", "a=1"])
    assert result.code == 8
    expected = block(f"http://127.0.0.1:{port}/x", '{"a":"1"}', FALLBACK, "无法连接服务器")
    assert result.stderr.startswith(expected)
    assert result.stderr[len(expected):].startswith(b"afcli: error: ")


def test_log_file_appends(server):
    serve(server, b'{"ok":true}')
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cj.log")
        for _ in range(2):
            result = run(["get", f"--log-file={path}", f"{server.url}/a"])
            assert result.code == 0 and result.stderr == b""
        one = block(f"{server.url}/a", "(null)", FALLBACK, '{"ok":true}')
        assert open(path, "rb").read() == one + one
        bad = run(["get", f"--log-file={tmp}/no/such/dir/x.log", f"{server.url}/a"])
        assert bad.code == 2 and b"cannot open the log file" in bad.stderr
    assert len(server.requests) == 2


def test_log_file_is_private_and_never_a_link(server):
    serve(server, b'{"ok":true}')
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cj.log")
        assert run(["get", f"--log-file={path}", f"{server.url}/a"]).code == 0
        assert os.stat(path).st_mode & 0o777 == 0o600
        victim = os.path.join(tmp, "victim")
        with open(victim, "w") as f:
            f.write("precious\n")
        os.symlink(victim, os.path.join(tmp, "link.log"))
        bad = run(["get", f"--log-file={tmp}/link.log", f"{server.url}/a"])
        assert bad.code == 2, bad
        assert bad.stderr == (f'afcli: error: cannot open the log file "{tmp}/link.log": it is a symbolic link, '
                              "which afcli does not follow\n").encode()
        assert open(victim).read() == "precious\n"
    assert len(server.requests) == 1


def test_log_hides_the_urls_credentials(server):
    serve(server, b'{"ok":true}')
    url = server.url.replace("http://", "http://ann:s3cret@")
    result = run(["get", "--log=cj", f"{url}/a"])
    assert result.code == 0, result
    assert result.stderr == block(server.url.replace("http://", "http://ann:***@") + "/a", "(null)", FALLBACK,
                                  '{"ok":true}')
    assert server.requests[0].header("Authorization") == "Basic YW5uOnMzY3JldA=="
