"""afcli run -: what its standard input may be: not a terminal (said so, not "0 requests"), a
UTF-8 file with a byte order mark, and a line whose header holds a NUL (named as one). A .http
source that is a terminal (/dev/stdin on one) is refused in the same way. A line without a URL
that can be sent, or with an item that is none, stops the run before anything is."""

import os
import pty
import subprocess

from conftest import base_env, run, start


def run_on_terminal(source):
    """afcli run SOURCE with a pseudo-terminal on standard input (SOURCE may be a callable given
    the terminal's path); its exit status, output and error output, within 5 seconds."""
    master, slave = pty.openpty()
    try:
        word = source(os.ttyname(slave)) if callable(source) else source
        proc = start(
            ["run", word], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=base_env())
        try:
            out, err = proc.communicate(timeout=5)
        finally:
            proc.kill()
    finally:
        os.close(slave)
        os.close(master)
    return proc.returncode, out, err.decode(), word


def test_a_terminal_on_standard_input_is_refused_with_a_reason(server):
    code, out, err, _ = run_on_terminal("-")
    assert code == 2, (out, err)
    assert err == (
        "afcli: error: afcli run - reads requests from standard input, which is a terminal: pipe or redirect "
        "them in (afcli run - < requests.txt), or name a .http file\n")
    assert out == b"" and server.requests == []


def test_a_source_that_is_a_terminal_is_refused_rather_than_waited_on(server):
    for source in ["/dev/stdin", lambda tty: tty]:
        code, out, err, word = run_on_terminal(source)
        assert code == 2, (word, out, err)
        assert err == (
            f"afcli: error: afcli run {word} reads requests from a terminal: pipe or redirect them in "
            "(afcli run /dev/stdin < api.http), or name a .http file\n")
        assert out == b"" and server.requests == []


def test_a_byte_order_mark_before_the_first_line_is_skipped(server):
    r = run(["run", "-"], input=b"\xef\xbb\xbf" + f"get {server.url}/first\nget {server.url}/second\n".encode())
    assert r.code == 0, r
    assert [x.target for x in server.requests] == ["/first", "/second"]


def test_a_nul_in_a_header_value_is_named_as_a_nul(server):
    r = run(["run", "-"], input=f"get {server.url}/a X-A:a\0b\n".encode())
    assert r.code == 2 and r.out == "", r
    assert r.err.startswith("afcli: error: stdin:1: invalid header ") and r.err.endswith(
        ": the value contains a NUL byte\n"), r.err
    assert server.requests == []


def test_a_line_that_is_no_request_stops_the_run_before_anything_is_sent(server):
    mistakes = {
        "get": "missing URL (see afcli --help)",
        "frob :1/x": '"frob" is not a URL, and METHOD is one of get, head, post, put, patch, delete or options '
        "(did you mean --method FROB?)",
        "get :99999/x": 'invalid URL ":99999/x": the port must be a number from 1 to 65535, not 99999',
        "get http://[::1/x --follow": 'invalid URL "http://[::1/x": the host [::1 is not valid',
        "get :1/x oops": '"oops" is not a request item (expected NAME:VALUE, NAME==VALUE, NAME=VALUE, NAME:=JSON '
        "or NAME@FILE)",
        "get :1/x 'Bad Name:1'": 'invalid header "Bad Name:1": "Bad Name" is not a valid header name',
        "post :1/x f@x;type=bogus": 'invalid file item "f@x;type=bogus": "bogus" is not a media type (type/subtype)',
        "post :1/x @-": "standard input carries the requests, so it cannot also be a request body (@- or field@-)",
        "post :1/x f@-": "standard input carries the requests, so it cannot also be a request body (@- or field@-)",
    }
    for line, message in mistakes.items():
        r = run(["run", "-"], input=f"post {server.url}/first a=1\n{line}\n".encode())
        assert r.code == 2 and r.out == "", (line, r)
        assert r.err == f"afcli: error: stdin:2: {message}\n", (line, r)
    assert server.requests == []
