"""afcli run -: what its standard input may be: not a terminal (said so, not "0 requests"), a
UTF-8 file with a byte order mark, and a line whose header holds a NUL (named as one)."""

import os
import pty
import json
import subprocess

from conftest import BINARY, base_env, run


def test_a_terminal_on_standard_input_is_refused_with_a_reason(server):
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            [str(BINARY), "run", "-"], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=base_env())
        try:
            out, err = proc.communicate(timeout=5)
        finally:
            proc.kill()
    finally:
        os.close(slave)
        os.close(master)
    assert proc.returncode == 2, (out, err)
    assert err.decode() == (
        "afcli: error: afcli run - reads requests from standard input, which is a terminal: pipe or redirect "
        "them in (afcli run - < requests.txt), or name a .http file\n")
    assert out == b"" and server.requests == []


def test_a_byte_order_mark_before_the_first_line_is_skipped(server):
    r = run(["run", "-"], input=b"\xef\xbb\xbf" + f"get {server.url}/first\nget {server.url}/second\n".encode())
    assert r.code == 0, r
    assert [x.target for x in server.requests] == ["/first", "/second"]


def test_a_nul_in_a_header_value_is_named_as_a_nul(server):
    r = run(["run", "-"], input=f"get {server.url}/a X-A:a\0b\n".encode())
    assert r.code == 2, r
    assert r.err.startswith("afcli: error: line-1: stdin:1: invalid header ") and r.err.endswith(
        ": the value contains a NUL byte\n"), r.err
    assert server.requests == [] and records(r)[0]["error"].endswith("the value contains a NUL byte")


def records(result):
    return [json.loads(line) for line in result.out.splitlines()]
