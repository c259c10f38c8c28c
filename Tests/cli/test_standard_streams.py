"""Closed standard streams and `-o -`: nothing afcli opens lands on descriptors 0-2, a body for a
closed stdout is a write error, and `-o -` is standard output for requests and downloads."""

import subprocess

from conftest import BINARY, Response, base_env, exited, run

BODY = b"the-body-bytes\n"


def text(request):
    return Response(headers=[("Content-Type", "text/plain")], body=BODY)


def run_redirected(args, redirections, cwd):
    """Runs afcli through sh so that `redirections` (`>&-`, `2>&-`, `<&-`) apply to it alone;
    stdout and stderr are pipes unless a redirection closes them."""
    proc = subprocess.run(
        ["sh", "-c", f'exec "$0" "$@" {redirections}', str(BINARY), *args],
        capture_output=True, env=base_env(), cwd=cwd, timeout=30,
    )
    return exited(proc.returncode, through_shell=True), proc.stdout, proc.stderr.decode()


def test_a_closed_stdout_is_a_write_error_and_the_log_file_keeps_only_the_log(server, tmp_path):
    server.handler = text
    log = tmp_path / "cj.log"
    code, _, err = run_redirected([f"{server.url}/x", "--log-file", str(log)], ">&-", tmp_path)
    assert code == 1
    assert err == "afcli: error: cannot write to standard output: it was closed when afcli started\n"
    written = log.read_bytes()
    assert BODY not in written and "网络请求Start".encode() in written


def test_a_closed_stdout_without_other_files_is_a_write_error(server, tmp_path):
    server.handler = text
    code, _, err = run_redirected([f"{server.url}/x", "-w", "%{http_code}\n"], ">&-", tmp_path)
    assert (code, err.count("\n")) == (1, 1) and "standard output" in err, err


def test_a_closed_stderr_does_not_send_messages_into_the_log_file(server, tmp_path):
    server.handler = lambda r: Response(404, "Not Found", [("Content-Type", "text/plain")], b"gone\n")
    log = tmp_path / "cj.log"
    code, out, _ = run_redirected([f"{server.url}/x", "--log-file", str(log)], "2>&-", tmp_path)
    # The warning about the 404 goes to the closed stderr (now /dev/null), not into the log.
    assert (code, out) == (4, b"gone\n")
    assert b"warning" not in log.read_bytes()


def test_a_closed_stdin_is_no_body(server, tmp_path):
    server.handler = text
    code, out, err = run_redirected([f"{server.url}/x", "--log-file", str(tmp_path / "cj.log")], "<&-", tmp_path)
    assert (code, out, err) == (0, BODY, "")
    assert server.requests[0].method == "GET" and server.requests[0].body == b""


def test_output_dash_is_standard_output_for_a_request(server, tmp_path):
    server.handler = text
    for extra in ([], ["--quiet"]):
        result = run([f"{server.url}/x", "-o", "-", *extra], cwd=tmp_path)
        # The body as an output file gets it, even under --quiet; no file named "-".
        assert (result.code, result.stdout, result.err) == (0, BODY, ""), (extra, result)
    assert list(tmp_path.iterdir()) == []


def test_output_dash_is_standard_output_for_a_download(server, tmp_path):
    server.handler = text
    result = run(["download", f"{server.url}/file.txt", "-o", "-"], cwd=tmp_path)
    assert (result.code, result.stdout) == (0, BODY), result
    assert list(tmp_path.iterdir()) == []
    refused = run(["download", "--resume", f"{server.url}/file.txt", "-o", "-"], cwd=tmp_path)
    assert refused.code == 2 and len(server.requests) == 1, refused


def test_a_closed_stdout_is_named_as_closed_for_a_download(server, tmp_path):
    server.handler = text
    code, _, err = run_redirected(["download", f"{server.url}/file.txt", "-o", "-"], ">&-", tmp_path)
    # The words a request gives, not the errno text of the /dev/null put in its place.
    assert (code, err) == (1, "afcli: error: cannot write to standard output: it was closed when afcli started\n")
    assert list(tmp_path.iterdir()) == []


def test_log_file_dash_is_standard_output_when_the_response_goes_elsewhere(server, tmp_path):
    server.handler = text
    for extra in (["-o", str(tmp_path / "body.txt")], ["--quiet"]):
        result = run([f"{server.url}/x", "--log-file", "-", *extra], cwd=tmp_path)
        assert result.code == 0 and result.err == "", (extra, result)
        assert result.out.count("网络请求Start") == 1 and "结果：the-body-bytes" in result.out, (extra, result)
    assert (tmp_path / "body.txt").read_bytes() == BODY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["body.txt"]


def test_log_file_dash_is_refused_where_standard_output_carries_something_else(server, tmp_path):
    server.handler = text
    source = tmp_path / "a.http"
    source.write_text(f"GET {server.url}/x\n")
    for args, carrying in (
        ([f"{server.url}/x"], "the response"),
        ([f"{server.url}/x", "-o", "-", "--quiet"], "the response"),
        (["run", str(source)], "the run's JSON lines"),
    ):
        result = run([*args, "--log-file", "-"], cwd=tmp_path)
        assert result.code == 2 and result.out == "", (args, result)
        assert result.err.startswith(f'afcli: error: --log-file: "-" is standard output, which carries {carrying}')
        assert result.err.count("\n") == 1, result
    assert server.requests == [] and sorted(p.name for p in tmp_path.iterdir()) == ["a.http"]
    # --log=none asks for no log, so there is nothing to mix.
    quiet_log = run([f"{server.url}/x", "--log-file", "-", "--log=none"], cwd=tmp_path)
    assert (quiet_log.code, quiet_log.stdout) == (0, BODY), quiet_log


def test_log_file_dash_with_a_closed_stdout_is_refused_before_sending(server, tmp_path):
    server.handler = text
    code, _, err = run_redirected([f"{server.url}/x", "--log-file", "-", "--quiet"], ">&-", tmp_path)
    assert (code, err) == (1, "afcli: error: cannot write to standard output: it was closed when afcli started\n")
    assert server.requests == [] and list(tmp_path.iterdir()) == []
