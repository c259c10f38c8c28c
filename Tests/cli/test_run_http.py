"""afcli run FILE.http and afcli run -: the requests the batch readers build, as a loopback
server receives them (variables, environment files, streamed `< ./file` bodies, directives,
skipped handlers), and the mistakes that stop a run before anything is sent."""

import json
import os
import signal
import subprocess
import time

from conftest import BINARY, base_env, run, run_interrupted, start, run_process
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


def test_afcli_env_picks_the_environment_when_no_env_is_typed(server, tmp_path):
    (tmp_path / "http-client.env.json").write_text(json.dumps({"dev": {"who": "dev"}, "prod": {"who": "prod"}}))
    (tmp_path / "a.http").write_text(f"GET {server.url}/{{{{who}}}}\n")
    env = {**base_env(), "AFCLI_ENV": "prod"}
    assert run(["run", str(tmp_path / "a.http")], env=env).code == 0
    assert run(["run", str(tmp_path / "a.http"), "--env", "dev"], env=env).code == 0
    assert [x.target for x in server.requests] == ["/prod", "/dev"]
    r = run(["run", str(tmp_path / "a.http")], env={**env, "AFCLI_ENV": "qa"})
    assert r.code == 2, r
    assert r.err == "afcli: error: $AFCLI_ENV qa: no such environment in the environment files (known: dev, prod)\n"
    # Without environment files beside the file, the shell's variable names nothing here.
    other = tmp_path / "other"
    other.mkdir()
    (other / "b.http").write_text(f"GET {server.url}/plain\n")
    assert run(["run", str(other / "b.http")], env=env).code == 0
    assert server.requests[-1].target == "/plain" and len(server.requests) == 3


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


# MARK: - Options of the run act on every request of the file, or are refused

def test_encrypt_cmd_encrypts_every_body_of_a_http_file_and_never_sends_plain_text(server, tmp_path):
    (tmp_path / "doc.txt").write_text("streamed secret\n")
    (tmp_path / "api.http").write_text(
        f"POST {server.url}/json\n"
        "Content-Type: application/json\n"
        "\n"
        '{"secret": "plain"}\n'
        "\n"
        "###\n"
        f"PUT {server.url}/file\n"
        "\n"
        "< ./doc.txt\n"
        "\n"
        "###\n"
        f"GET {server.url}/no-body\n")
    r = run(["run", str(tmp_path / "api.http"), "--encrypt-cmd", "tr a-z A-Z", "--encrypted-type", "x/secret"])
    assert r.code == 0, r
    post, put, get = server.requests
    assert post.body == b'{"SECRET": "PLAIN"}' and post.header("Content-Type") == "x/secret"
    assert put.body == b"STREAMED SECRET\n" and put.header("Content-Type") == "x/secret"
    assert get.body == b"" and get.header("Content-Type") is None
    for request in server.requests:
        assert b"secret" not in request.body and b"plain" not in request.body


def test_a_failing_encrypt_cmd_sends_nothing_of_that_request(server, tmp_path):
    (tmp_path / "api.http").write_text(f"POST {server.url}/a\n\nplain text\n")
    r = run(["run", str(tmp_path / "api.http"), "--encrypt-cmd", "cat >/dev/null; exit 3"])
    assert r.code == 2 and server.requests == [], r
    assert "encrypt" in r.err


def test_item_body_options_are_refused_for_a_http_file_before_anything_is_sent(server, tmp_path):
    path = tmp_path / "api.http"
    path.write_text(f"POST {server.url}/a\nContent-Type: text/plain\n\nbody\n")
    for option in (["--form"], ["--json"], ["--multipart"], ["--raw", "x"], ["--boundary", "b"], ["-X", "PUT"]):
        r = run(["run", str(path), *option])
        assert r.code == 2, (option, r)
        assert r.err.startswith(f"afcli: error: --{option[0].lstrip('-').replace('X', 'method')} does not apply to "
                                "afcli run with a .http file (the file writes each request's method"), r.err
    r = run(["run", str(path), "--simulate"])
    assert r.code == 2, r
    assert r.err == ("afcli: error: --simulate does not apply to afcli run with a .http file (its URLs are its "
                     "own; --base-url joins the paths it writes)\n")
    assert server.requests == []
    # A line of `run -` is built from items: there they still apply.
    r = run(["run", "-", "--form"], input=f"post {server.url}/f a=b\n".encode())
    assert r.code == 0, r
    assert server.requests[0].body == b"a=b"


# MARK: - The whole file is checked before the first request

def test_a_mistake_in_a_later_request_sends_nothing_at_all(server, tmp_path):
    (tmp_path / "body.json").write_text("{}")
    cases = {
        "undefined variable": ("GET {url}/c/{{{{nope}}}}\n", 10, "variable {{nope}} is not defined"),
        # A header that cannot be sent is named at its own line.
        "bad header name": ("GET {url}/c\nBad Name: x\n", 11, 'invalid header "Bad Name"'),
        "NUL in a header": ("GET {url}/c\nX-A: a\0b\n", 11, "the value contains a NUL byte"),
        "missing body file": ("POST {url}/c\n\n< ./missing.json\n", 12, "missing.json"),
        "bad dynamic variable": ("GET {url}/c?n={{{{$randomInt 9 1}}}}\n", 10, "the minimum 9 is not less than"),
    }
    for name, (third, line, message) in cases.items():
        path = tmp_path / "api.http"
        path.write_text(
            f"POST {server.url}/a\nContent-Type: application/json\n\n< ./body.json\n\n###\n"
            f"DELETE {server.url}/b\n\n###\n" + third.format(url=server.url))
        r = run(["run", str(path), "--parallel", "4"])
        assert r.code == 2, (name, r)
        assert r.err.startswith(f"afcli: error: {path}:{line}: ") and message in r.err, (name, r.err)
        assert r.out == "" and server.requests == [], name


# MARK: - The JetBrains format

def test_spaces_inside_braces_on_the_request_line(server, tmp_path):
    (tmp_path / "api.http").write_text(
        f"@host = {server.url}\n@id = 42\n\nGET {{{{ host }}}}/users/{{{{ id }}}}?n={{{{$randomInt 1 2}}}}\n")
    r = run(["run", str(tmp_path / "api.http")])
    assert r.code == 0, r
    assert server.requests[0].target == "/users/42?n=1"


def test_in_place_body_is_trimmed_and_response_references_are_not_body(server, tmp_path):
    (tmp_path / "api.http").write_text(
        f"POST {server.url}/a\n"
        "Content-Type: text/plain\n"
        "\n"
        "\n"
        "message-body\n"
        "\n"
        "<> 2024-01-01T000000.200.json\n"
        "\n"
        "###\n"
        f"POST {server.url}/b\n"
        "\n"
        "second\n"
        "> {% client.global.set('x', 1) %}\n"
        "<> previous-response.200.json\n"
        "<> older-response.200.json\n")
    r = run(["run", str(tmp_path / "api.http")])
    assert r.code == 0, r
    assert [x.body for x in server.requests] == [b"message-body", b"second"]
    assert "<>" not in r.err


def test_options_asterisk_is_sent_as_asterisk(server, tmp_path):
    host = server.url.split("://")[1]
    (tmp_path / "api.http").write_text(
        f"OPTIONS * HTTP/1.1\nHost: {host}\n\n###\nOPTIONS *\nHost: {server.url}\n\n###\nGET *\nHost: {host}\n")
    r = run(["run", str(tmp_path / "api.http")])
    assert r.code == 2 and server.requests == [], r
    assert r.err == f"afcli: error: {tmp_path / 'api.http'}:9: * (the server itself) is a request target of OPTIONS only\n"
    path = tmp_path / "ok.http"
    path.write_text(f"OPTIONS * HTTP/1.1\nHost: {host}\n\n###\nOPTIONS *\nHost: {server.url}\n")
    r = run(["run", str(path)])
    assert r.code == 0, r
    assert [(x.method, x.target, x.header("Host")) for x in server.requests] == [("OPTIONS", "*", host)] * 2
    # Reported as the server's origin with no path (RFC 9110's target URI for `*`), unlike the
    # path `/` (`…/`) or the path `/*` (`…/*`).
    assert [json.loads(x)["url"] for x in r.out.splitlines()] == [server.url] * 2


# MARK: - Sources that are not regular files

def test_a_pipe_or_dev_stdin_is_a_source(server, tmp_path):
    text = f"GET {server.url}/piped\n".encode()
    r = run(["run", "/dev/stdin"], input=text)
    assert r.code == 0, r
    proc = subprocess.run(
        ["bash", "-c", f'"{BINARY}" run <(printf "GET {server.url}/substituted\\n")'],
        capture_output=True, env=base_env(), timeout=30)
    assert proc.returncode == 0, proc
    assert [x.target for x in server.requests] == ["/piped", "/substituted"]


def test_ctrl_c_while_a_pipe_is_read_is_an_interruption(server):
    read_end, write_end = os.pipe()
    try:
        proc = start(
            ["run", "/dev/stdin"], stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=base_env())
        # Waits until afcli has opened /dev/stdin: two of its descriptors on the pipe, so it reads it.
        pipe = os.readlink(f"/proc/self/fd/{read_end}")
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                links = [os.readlink(f"/proc/{proc.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{proc.pid}/fd")]
            except OSError:
                links = []
            if links.count(pipe) >= 2:
                break
            time.sleep(0.02)
        time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert proc.returncode == 130, (out, err)
    assert err.decode() == "afcli: error: /dev/stdin: interrupted\n" and out == b""
    assert server.requests == []


def test_parallel_beyond_the_open_file_limit_is_cut_to_it_with_a_warning(server, tmp_path):
    import resource

    (tmp_path / "body.bin").write_bytes(b"x" * 1000)
    (tmp_path / "api.http").write_text(
        "".join(f"### r{i}\nPOST {server.url}/r{i}\n\n< ./body.bin\n\n" for i in range(150)))
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    proc = run_process(
        ["run", str(tmp_path / "api.http"), "--parallel", "300", "--keep-going"],
        capture_output=True, env=base_env(), timeout=60,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (128, hard)))
    # Without the cut, every request past the limit failed ("couldn't connect", "too many open files").
    assert proc.returncode == 0, proc.stderr.decode()[-500:]
    assert proc.stderr.decode() == (
        "afcli: warning: --parallel 300 needs more files open at once than the limit of 128 (ulimit -n) allows: "
        "sending up to 32 at once\n")
    assert sorted(x.body for x in server.requests) == [b"x" * 1000] * 150


def test_ignore_stdin_refuses_a_body_read_from_standard_input(server, tmp_path):
    path = tmp_path / "api.http"
    path.write_text(f"POST {server.url}/first\n\nplain\n\n###\nPOST {server.url}/piped\n\n< /dev/stdin\n")
    r = run(["run", str(path), "--ignore-stdin"], input=b"from-stdin")
    assert r.code == 2 and r.out == "" and server.requests == [], r
    assert r.err == f"afcli: error: {path}:8: < /dev/stdin reads standard input, which --ignore-stdin leaves unread\n"
    r = run(["run", str(path)], input=b"from-stdin")
    assert r.code == 0, r
    assert [x.body for x in server.requests] == [b"plain", b"from-stdin"]


def test_a_device_without_end_is_bounded(tmp_path):
    r = run(["run", "/dev/zero"])
    assert r.code == 2, r
    assert r.err == "afcli: error: cannot read /dev/zero: it is larger than 16 MiB, the most a .http file may be\n"


def test_ctrl_c_while_a_piped_http_file_is_read_is_an_interrupt(server, tmp_path):
    """A source that is a pipe still being written (`<(cmd)`): Ctrl-C exits 130, not 2 for an
    unreadable file, and nothing is sent."""
    fifo = tmp_path / "api.http"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # a writer that has not finished
    os.write(writer, f"GET {server.url}/x\n".encode())
    try:
        result = run_interrupted(["run", str(fifo)])
    finally:
        os.close(writer)
    assert (result.code, result.stdout, result.stderr) == (130, b"", f"afcli: error: {fifo}: interrupted\n".encode())
    assert server.requests == []
