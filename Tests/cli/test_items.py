"""Request items at their edges: empty names, escapes, array indexes, repeated keys, file
values, and a first positional that is a method afcli does not know."""

import json
import time

import pytest

from conftest import run, run_on_new_terminal, run_process


def only(server):
    assert len(server.requests) == 1, server.requests
    return server.requests[0]


def test_empty_field_name_is_the_empty_key(server, tmp_path):
    text = tmp_path / "v.txt"
    text.write_text("vm")
    cases = [
        (["=value"], b'{"":"value"}', b"=value"),
        ([":=1"], b'{"":1}', b"=1"),
        ([f"={'@'}{text}"], b'{"":"vm"}', b"=vm"),
    ]
    for items, json_body, form_body in cases:
        result = run(["post", f"{server.url}/j", *items])
        assert result.code == 0, result
        assert server.requests[-1].body == json_body
        result = run(["post", "--form", f"{server.url}/f", *items])
        assert result.code == 0, result
        assert server.requests[-1].body == form_body


def test_backslash_before_an_ordinary_character_stays_in_the_key(server):
    assert run(["post", f"{server.url}/x", "a\\b=c", "d\\=e=f", "g\\[0\\]=h"]).code == 0
    assert json.loads(only(server).body) == {"a\\b": "c", "d=e": "f", "g[0]": "h"}


def test_key_starting_with_a_bracket_needs_an_index(server):
    result = run(["post", f"{server.url}/x", "[b]=1"])
    assert result.code == 2, result
    assert result.err == (
        "afcli: error: invalid nested key \"[b]\": expected a number or ']' after a '[' that starts a key\n"
        "  [b]\n"
        "   ^\n"
    )
    assert server.requests == []


def test_array_index_is_capped(server):
    start = time.monotonic()
    for key in ["a[99999999]", "a[30000000]", "[10001]"]:
        result = run(["post", f"{server.url}/x", f"{key}=x"])
        assert result.code == 2, result
        assert "is larger than 10000" in result.err
        assert result.err.count("afcli: error:") == 1
    assert time.monotonic() - start < 20
    assert server.requests == []
    assert run(["post", f"{server.url}/x", "a[3]=x"]).code == 0
    assert only(server).body == b'{"a":[null,null,null,"x"]}'


def test_repeated_keys_last_wins_in_json_and_plist_and_repeat_in_a_form(server):
    items = ["a=1", "b=x", "a=2", "o[k]=1", "o[k]=2", "c[]=1", "c[]=2"]
    assert run(["post", f"{server.url}/j", *items]).code == 0
    assert run(["post", "--form", f"{server.url}/f", *items]).code == 0
    assert run(["post", "--plist", f"{server.url}/p", "a=1", "a=2"]).code == 0
    assert run(["get", f"{server.url}/q", "a=1", "a=2"]).code == 0
    json_request, form_request, plist_request, get_request = server.requests
    assert json_request.body == b'{"a":"2","b":"x","o":{"k":"2"},"c":["1","2"]}'
    assert form_request.body == b"a=1&a=2&b=x&c%5B%5D=1&c%5B%5D=2&o%5Bk%5D=1&o%5Bk%5D=2"
    assert b"<string>2</string>" in plist_request.body and b"<string>1</string>" not in plist_request.body
    assert get_request.target == "/q?a=1&a=2"


def test_file_values_must_be_utf8_text(server, tmp_path):
    binary = tmp_path / "bin.dat"
    binary.write_bytes(b"ok\xff\xfe\x00")
    for item in [f"a=@{binary}", f"q==@{binary}", f"X-A:@{binary}", f"j:=@{binary}"]:
        result = run(["post", f"{server.url}/x", item])
        assert result.code == 2, (item, result)
        assert result.err == f'afcli: error: "{binary}" is not a UTF-8 text file (in "{item}"); ' \
            "send bytes with NAME@FILE or @FILE\n"
    assert server.requests == []
    # The ways to send bytes still send them exactly.
    assert run(["post", f"{server.url}/raw", f"@{binary}"]).code == 0
    assert only(server).body == b"ok\xff\xfe\x00"


def test_unknown_method_word_before_a_url_is_refused():
    result = run(["--offline", "PURGE", "http://127.0.0.1:9/u/1"])
    assert result.code == 2, result
    assert result.stdout == b""
    assert result.err.startswith('afcli: error: "PURGE" is not a URL')
    assert result.err.endswith("(did you mean --method PURGE?)\n")
    assert result.err.count("\n") == 1
    shorthand = run(["--offline", "purge", ":9/u/1", "a=1"])
    assert shorthand.code == 2, shorthand
    assert shorthand.err.endswith("(did you mean --method PURGE?)\n")
    # A host name alone is still a URL, and items may hold URLs.
    assert run(["--offline", "localhost:9", "u==http://x.test/"]).code == 0
    assert run(["--offline", "--method", "PURGE", "http://127.0.0.1:9/u/1"]).code == 0


def test_file_body_content_type_comes_from_its_extension(server, tmp_path):
    png = tmp_path / "pixel.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n")
    unknown = tmp_path / "blob.afcliunknown"
    unknown.write_bytes(b"\x00\x01")
    data = tmp_path / "d.json"
    data.write_text('{"a":1}')
    for args in [[f"@{png}"], [f"@{unknown}"], [f"@{data}"], [f"@{png}", "Content-Type:image/x-mine"],
                 [f"@{png};type=text/plain"]]:
        assert run(["post", f"{server.url}/x", *args]).code == 0
    types = [r.header("Content-Type") for r in server.requests]
    assert types == ["image/png", "application/octet-stream", "application/json", "image/x-mine", "text/plain"]
    assert [r.header("Accept") for r in server.requests][:3] == ["*/*", "*/*", "application/json, */*;q=0.5"]


def test_bodies_small_and_large_arrive_whole_with_the_type_they_were_given(server, tmp_path):
    # Under 64 KiB a body of known length goes to libcurl whole (CURLOPT_POSTFIELDS), which would
    # add its own form Content-Type to a body without one; larger bodies stream.
    small = tmp_path / "small.txt"
    small.write_bytes(b"s" * 65_535)
    large = tmp_path / "large.txt"
    large.write_bytes(b"l" * 65_536)
    for method, args in [("post", ["--raw", "hello", "Content-Type:"]), ("put", [f"@{small}"]),
                         ("patch", [f"@{large}"]), ("delete", ["--raw", "x"]), ("post", [])]:
        assert run([method, f"{server.url}/x", *args]).code == 0
    got = [(r.method, r.header("Content-Type"), r.header("Content-Length"), r.body) for r in server.requests]
    assert got == [
        ("POST", None, "5", b"hello"),
        ("PUT", "text/plain", "65535", b"s" * 65_535),
        ("PATCH", "text/plain", "65536", b"l" * 65_536),
        ("DELETE", "application/json", "1", b"x"),
        ("POST", None, "0", b""),
    ]
    assert all(r.header("Expect") is None for r in server.requests)


def test_auth_without_password_asks_on_the_terminal():
    args = ["--offline", "--print=H", "get", "http://127.0.0.1:9/x", "-a", "ann"]
    result, shown = run_on_new_terminal(args, [(b"password", b"s3cret\n")])
    assert result.code == 0, result
    assert b"afcli: password for ann: " in shown
    assert b"s3cret" not in shown  # typed with echo off
    assert "Authorization: Basic YW5uOnMzY3JldA==\n" in result.out  # ann:s3cret


def test_auth_without_password_and_without_a_terminal_sends_an_empty_one():
    import subprocess

    from conftest import base_env

    proc = run_process(
        ["--offline", "--print=H", "get", "http://127.0.0.1:9/x", "-a", "ann"],
        stdin=subprocess.DEVNULL, capture_output=True, env=base_env(), start_new_session=True, timeout=20,
    )
    assert proc.returncode == 0, proc
    assert b"Authorization: Basic YW5uOg==\n" in proc.stdout  # ann:


@pytest.mark.parametrize("item,opened", [("a=@", True), ("f@", False), ("@", False)])
def test_interrupt_stops_reading_an_item_file(tmp_path, item, opened):
    import os

    from conftest import run_interrupted

    fifo = tmp_path / "never"
    os.mkfifo(fifo)
    # With a writer that never writes, a read blocks; without one, opening the pipe blocks.
    writer = os.open(fifo, os.O_RDWR) if opened else None
    try:
        result = run_interrupted(["--offline", "post", "http://127.0.0.1:9/x", f"{item}{fifo}"])
    finally:
        if writer is not None:
            os.close(writer)
    assert (result.code, result.stdout, result.stderr) == (130, b"", b"afcli: error: interrupted\n")
