"""Metrics for every request: the --print=m table, --meta=json with AFNetworking's names, and
curl's --write-out, compared byte for byte with curl's own output for the same request."""

import json
import re
import shlex
import shutil
import socket
import subprocess

import pytest

from conftest import run, Response, free_port
from nginx import NginxServer, TLSConfig

CURL = shutil.which("curl")

# Every --write-out variable whose value does not depend on timing or on the client's port,
# with curl's quirks: escapes, %%, a lone %, %header{...} and a %{ without its brace.
STABLE = (
    "code=%{http_code} rc=%{response_code} dl=%{size_download} ul=%{size_upload} "
    "hdr=%{size_header} req=%{size_request} ip=%{remote_ip} port=%{remote_port} lip=%{local_ip} "
    "conn=%{num_connects} redirs=%{num_redirects} nh=%{num_headers} eff=%{url_effective} "
    "url=%{url} ct=%{content_type} v=%{http_version} scheme=%{scheme} m=%{method} "
    "exit=%{exitcode} err=%{errormsg} ru=%{redirect_url} HTTP_CODE=%{HTTP_CODE} "
    "h=%header{x-test} hh=%header{X-TEST} none=%header{nope}\\t%%100 \\x %q \\\\ end\\n%{unclosed"
)


def curl_for(args):
    """curl's command line for the same request, as `afcli --curl` spells it."""
    line = run(["--curl", *args])
    assert line.code == 0, line
    return shlex.split(line.out.strip())


def curl_write_out(args, fmt, extra=()):
    command = curl_for(args) + ["-s", "-o", "/dev/null", *extra, "-w", fmt]
    return subprocess.run(command, capture_output=True, timeout=30).stdout


def phase_times(text):
    """The `At` column of the phase table, in order (skipping phases that did not happen)."""
    times = []
    for name in ("DNS lookup", "TCP connect", "TLS handshake", "request sent", "first byte", "body received"):
        line = re.search(rf"^  {name} +(\S+)(?: ms)? +(\S+)", text, re.M)
        assert line, (name, text)
        if line.group(2) != "-":
            times.append(float(line.group(2)))
    return times


def handler_with_redirect(request):
    if request.target == "/a":
        return Response(302, "Found", [("Location", "/b"), ("Content-Type", "text/plain")], b"moved\n")
    return Response(200, "OK", [("Content-Type", "text/plain"), ("X-Test", "yes")], b"hello\n")


@pytest.fixture
def redirecting(server):
    server.handler = handler_with_redirect
    return server


def test_print_m_shows_the_phase_table_in_order(redirecting):
    result = run(["--print=m", "get", f"{redirecting.url}/b"])
    assert result.code == 0, result
    out = result.out
    assert re.match(r"Elapsed time: \d+\.\d{6}s\nProtocol: HTTP/1\.1\n\n  Phase +Duration +At\n", out), out
    times = phase_times(out)
    assert len(times) == 5 and times == sorted(times), out
    assert re.search(r"^  TLS handshake +- +-$", out, re.M), out
    assert f"Connection: new, to 127.0.0.1:{redirecting.port} from 127.0.0.1:" in out
    assert "Received: " in out and " bytes of head, 6 of body" in out


def test_verbose_prints_the_metrics_after_the_exchange(redirecting):
    out = run(["-v", "get", f"{redirecting.url}/b"]).out
    assert out.startswith("GET /b HTTP/1.1\n")
    body_end = out.index("hello\n")
    assert out.index("Elapsed time: ") > body_end and "  first byte " in out[body_end:]


def test_verbose_follow_shows_one_block_per_hop_and_the_reused_connection(redirecting):
    out = run(["-v", "--follow", "get", f"{redirecting.url}/a"]).out
    first = out.index(f"Hop 1 of 2: GET {redirecting.url}/a → 302 (http/1.1)")
    second = out.index(f"Hop 2 of 2: GET {redirecting.url}/b → 200 (http/1.1)")
    assert "Redirects: 1" in out and first < second
    assert "Connection: new," in out[first:second]
    assert "Connection: reused," in out[second:]


def test_print_m_without_verbose_shows_the_final_hop_only(redirecting):
    out = run(["--print=m", "--follow", "get", f"{redirecting.url}/a"]).out
    assert "Redirects: 1" in out and "Hop " not in out and out.count("  Phase ") == 1


TRANSACTION_KEYS = {
    "request", "response", "fetchStartDate", "domainLookupStartDate", "domainLookupEndDate",
    "connectStartDate", "connectEndDate", "secureConnectionStartDate", "secureConnectionEndDate",
    "requestStartDate", "requestEndDate", "responseStartDate", "responseEndDate", "networkProtocolName",
    "isProxyConnection", "isReusedConnection", "resourceFetchType", "remoteAddress", "remotePort",
    "localAddress", "localPort", "countOfRequestHeaderBytesSent", "countOfRequestBodyBytesSent",
    "countOfResponseHeaderBytesReceived", "countOfResponseBodyBytesReceived", "queueDuration",
}


def assert_dates_in_order(t, tls):
    order = ["fetchStartDate", "domainLookupStartDate", "domainLookupEndDate", "connectStartDate"]
    if tls:
        order += ["secureConnectionStartDate", "secureConnectionEndDate"]
    order += ["connectEndDate", "requestStartDate", "requestEndDate", "responseStartDate", "responseEndDate"]
    values = [t[name] for name in order]
    assert all(isinstance(v, float) for v in values), t
    assert values == sorted(values), t


def test_meta_json_goes_to_stderr_with_af_names(redirecting):
    result = run(["--meta=json", "get", f"{redirecting.url}/b"])
    assert result.code == 0 and result.stdout == b"hello\n", result
    metrics = json.loads(result.err)
    assert list(metrics) == ["taskInterval", "redirectCount", "transactionMetrics"]
    assert metrics["redirectCount"] == 0 and metrics["taskInterval"]["duration"] >= 0
    [t] = metrics["transactionMetrics"]
    assert set(t) == TRANSACTION_KEYS
    assert t["resourceFetchType"] == "networkLoad" and t["networkProtocolName"] == "http/1.1"
    assert t["isReusedConnection"] is False and t["secureConnectionStartDate"] is None
    assert t["remoteAddress"] == "127.0.0.1" and t["remotePort"] == redirecting.port
    assert t["countOfResponseBodyBytesReceived"] == 6 and t["response"] == {"statusCode": 200}
    assert t["request"] == {"HTTPMethod": "GET", "URL": f"{redirecting.url}/b"}
    assert abs(metrics["taskInterval"]["start"] - t["fetchStartDate"]) < 1e-5
    assert_dates_in_order(t, tls=False)


def test_meta_json_with_redirects_has_one_transaction_per_hop(redirecting):
    result = run(["--meta=json", "--follow", "get", f"{redirecting.url}/a"])
    metrics = json.loads(result.err)
    assert metrics["redirectCount"] == 1
    first, second = metrics["transactionMetrics"]
    assert first["response"]["statusCode"] == 302 and second["response"]["statusCode"] == 200
    assert first["isReusedConnection"] is False and second["isReusedConnection"] is True
    # AF leaves the lookup and connect dates nil on a reused connection.
    assert second["domainLookupStartDate"] is None and second["connectEndDate"] is None
    assert first["responseEndDate"] <= second["fetchStartDate"]


def test_print_m_with_meta_json_prints_only_the_json_on_stdout(redirecting):
    result = run(["--print=m", "--meta=json", "get", f"{redirecting.url}/b"])
    metrics = json.loads(result.out)
    assert metrics["transactionMetrics"][0]["countOfResponseBodyBytesReceived"] == 6
    assert result.stderr == b""


def test_meta_rejects_other_formats(server):
    result = run(["--meta=xml", "get", f"{server.url}/b"])
    assert result.code == 2 and result.err.startswith("afcli: error: --meta") and server.requests == []


@pytest.mark.skipif(CURL is None, reason="curl is not installed")
@pytest.mark.parametrize("request_args", [["get", "/b", "q==1"], ["post", "/b", "a=1"], ["head", "/b"]])
def test_write_out_matches_curl_byte_for_byte(redirecting, request_args):
    method, path, *items = request_args
    args = [method, f"{redirecting.url}{path}", *items]
    ours = run(["-q", "-w", STABLE, *args])
    assert ours.code == 0, ours
    theirs = curl_write_out(args, STABLE)
    assert b"lip=127.0.0.1 " in theirs
    # A small body goes to libcurl whole, as curl --data-binary hands it over, so libcurl counts
    # it in size_request for both: the head and the body.
    sent = len(redirecting.requests[0].raw_head) + len(redirecting.requests[0].body)
    assert f" req={sent} ".encode() in ours.stdout, (sent, ours.stdout)
    assert ours.stdout == theirs, (ours.stdout, theirs)


@pytest.mark.skipif(CURL is None, reason="curl is not installed")
def test_write_out_after_redirects_matches_curl_location(redirecting):
    args = ["get", f"{redirecting.url}/a"]
    ours = run(["-q", "--follow", "-w", STABLE, *args])
    theirs = curl_write_out(args, STABLE, extra=["-L"])
    assert b"redirs=1" in ours.stdout and b"conn=1" in ours.stdout
    assert ours.stdout == theirs, (ours.stdout, theirs)


@pytest.mark.skipif(CURL is None, reason="curl is not installed")
def test_write_out_json_has_curl_keys_and_values(redirecting):
    args = ["get", f"{redirecting.url}/b"]
    ours = json.loads(run(["-q", "-w", "%{json}", *args]).stdout)
    theirs = json.loads(curl_write_out(args, "%{json}"))
    assert set(ours) <= set(theirs) and len(ours) == 31
    assert list(ours) == sorted(ours)
    for key, value in ours.items():
        if key.startswith("time_"):
            assert isinstance(value, float) and isinstance(theirs[key], float), key
        elif key.startswith("speed_") or key == "local_port":
            assert isinstance(value, int) and value >= 0, key
        else:
            assert value == theirs[key], (key, value, theirs[key])


def test_write_out_times_are_in_curls_format_and_order(redirecting):
    fmt = "%{time_namelookup} %{time_connect} %{time_appconnect} %{time_pretransfer} " \
          "%{time_starttransfer} %{time_total} %{time_redirect}"
    out = run(["-q", "-w", fmt, "get", f"{redirecting.url}/b"]).out
    assert re.fullmatch(r"(\d+\.\d{6} ?){7}", out), out
    lookup, connect, appconnect, pretransfer, start, total, redirect = map(float, out.split())
    assert appconnect == 0 and redirect == 0
    assert lookup <= connect <= pretransfer <= start <= total


def test_write_out_time_redirect_counts_the_earlier_hops(redirecting):
    out = run(["-q", "--follow", "-w", "%{time_redirect} %{time_namelookup} %{time_total}",
               "get", f"{redirecting.url}/a"]).out
    redirect, lookup, total = map(float, out.split())
    assert 0 < redirect <= lookup <= total


def test_write_out_unknown_variable_warns_as_curl(redirecting):
    result = run(["-w", "[%{nope}%{http_code}]", "get", f"{redirecting.url}/b"])
    assert result.stdout == b"hello\n[200]"
    assert result.err == "afcli: warning: unknown --write-out variable: 'nope'\n"


def test_write_out_stderr_switch(redirecting):
    result = run(["-q", "-w", "a%{stderr}b%{http_code}%{stdout}c", "get", f"{redirecting.url}/b"])
    assert result.stdout == b"ac" and result.stderr == b"b200"


def test_write_out_from_a_file_and_from_stdin(redirecting, tmp_path):
    fmt = tmp_path / "fmt"
    fmt.write_bytes(b"%{http_code} %{content_type}\n")
    assert run(["-q", "-w", f"@{fmt}", "get", f"{redirecting.url}/b"]).stdout == b"200 text/plain\n"
    result = run(["-q", "-w", "@-", f"{redirecting.url}/b"], input=b"%{method} %{num_redirects}")
    assert result.stdout == b"GET 0" and redirecting.requests[-1].method == "GET"


def test_write_out_file_that_cannot_be_read_is_refused_before_sending(server, tmp_path):
    result = run(["-w", f"@{tmp_path}/missing", "get", f"{server.url}/b"])
    assert result.code == 2 and result.stdout == b"", result
    assert result.err.count("\n") == 1 and result.err.startswith("afcli: error: --write-out")
    assert server.requests == []


def test_write_out_longer_than_the_limit_is_refused(server, tmp_path):
    fmt = tmp_path / "fmt"
    fmt.write_bytes(b"x" * (64 * 1024 + 1))
    result = run(["-w", f"@{fmt}", "get", f"{server.url}/b"])
    assert result.code == 2 and "longer than 65536 bytes" in result.err and server.requests == []


def test_write_out_after_a_failed_transfer(tmp_path):
    port = free_port()
    result = run(["-w", "%{http_code} %{exitcode} %{num_connects} [%{errormsg}]", "get", f"127.0.0.1:{port}/"])
    assert result.code == 8, result
    code, exit_code, connects, message = re.fullmatch(r"(\d+) (\d+) (\d+) \[(.*)\]", result.out).groups()
    assert (code, int(exit_code), connects) == ("000", result.code, "0")
    assert result.err == f"afcli: error: {message}\n"


def test_write_out_onerror_prints_the_rest_only_for_a_failed_transfer(redirecting, tmp_path):
    fmt = "%{http_code}%{onerror} failed: %{exitcode}\\n"
    done = run(["-w", fmt, "get", f"{redirecting.url}/b", "-o", str(tmp_path / "body")])
    assert (done.code, done.stdout) == (0, b"200")
    assert curl_write_out([f"{redirecting.url}/b"], fmt) == b"200"
    failed = run(["-w", "%{onError}[%{errormsg}]", "get", f"127.0.0.1:{free_port()}/"])
    assert failed.code == 8 and failed.out.startswith("[failed to connect"), failed
    assert "unknown --write-out variable" not in failed.err


def test_write_out_size_download_counts_a_local_answer(tmp_path):
    mocks = tmp_path / "mocks"
    mocks.mkdir()
    (mocks / "x.json").write_bytes(b'{"cards":[1]}')
    (tmp_path / "config.json").write_text(json.dumps(
        {"environments": {"dev": {"base_url": "http://127.0.0.1:1/", "local_dir": "./mocks"}}}))
    result = run(["--env", "dev", "--local", "get", "/x", "-o", str(tmp_path / "out"), "-w", "%{size_download}"],
                 env={"AFCLI_CONFIG_DIR": str(tmp_path)})
    assert (result.code, result.stdout) == (0, b"13"), result


def test_write_out_size_download_counts_a_cache_hit(server, tmp_path):
    server.handler = lambda request: Response(
        headers=[("Content-Type", "application/json"), ("Cache-Control", "max-age=60")], body=b'{"n":12345}')
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    args = ["--cache", f"{server.url}/x", "-o", str(tmp_path / "out"), "-w", "%{size_download}"]
    assert run(args, env=env).stdout == b"11"
    hit = run(args, env=env)
    assert (hit.code, hit.stdout, len(server.requests)) == (0, b"11", 1), hit


def test_write_out_after_a_timeout_has_the_times_up_to_the_failure():
    # A server that accepts the connection and never answers: as curl does, -w reports the
    # connect time, the time spent until --max-time gave up, and the address reached.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        result = run(["-w", "%{http_code} %{time_connect} %{time_total} %{remote_ip} %{remote_port}",
                      "--max-time", "0.5", "get", f"127.0.0.1:{port}/"])
    assert result.code == 7, result
    code, connect, total, address, remote_port = result.out.split(" ")
    assert (code, address, remote_port) == ("000", "127.0.0.1", str(port))
    assert 0 < float(connect) <= float(total)
    assert 0.4 <= float(total) < 30


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory):
    directory = tmp_path_factory.mktemp("metrics-tls")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=localhost"],
        cwd=directory, check=True, capture_output=True)
    www = directory / "www"
    www.mkdir()
    (www / "f.txt").write_bytes(b"over tls\n")
    with NginxServer(www, tls=TLSConfig(directory / "cert.pem", directory / "key.pem"), http2=True) as srv:
        yield srv


def test_tls_metrics_are_present_and_ordered(tls_server):
    fmt = "%{time_namelookup} %{time_connect} %{time_appconnect} %{time_pretransfer} " \
          "%{time_starttransfer} %{time_total} %{http_version} %{scheme}"
    result = run(["-k", "--meta=json", "-w", fmt, "get", f"{tls_server.url}/f.txt"])
    assert result.code == 0, result
    body, _, written = result.out.partition("over tls\n")
    *times, version, scheme = written.split()
    times = list(map(float, times))
    assert times == sorted(times) and times[2] > 0, times
    assert (version, scheme) == ("2", "HTTPS")
    [t] = json.loads(result.err)["transactionMetrics"]
    assert t["networkProtocolName"] == "h2"
    assert_dates_in_order(t, tls=True)


def test_tls_phase_table_shows_the_handshake(tls_server):
    out = run(["-k", "--print=m", "get", f"{tls_server.url}/f.txt"]).out
    assert "Protocol: HTTP/2" in out
    times = phase_times(out)
    assert len(times) == 6 and times == sorted(times), out


@pytest.mark.skipif(CURL is None, reason="curl is not installed")
def test_tls_write_out_matches_curl(tls_server):
    fmt = "%{http_code} %{size_download} %{size_header} %{num_connects} %{http_version} %{scheme} " \
          "%{remote_ip} %{remote_port} %{content_type} %{url_effective} %{num_headers}"
    args = ["-k", "get", f"{tls_server.url}/f.txt"]
    ours = run(["-q", "-w", fmt, *args]).stdout
    assert ours == curl_write_out(args, fmt)


def test_metrics_table_is_coloured_on_a_terminal_only(redirecting):
    from conftest import run_tty
    shown = run_tty(["--print=m", "get", f"{redirecting.url}/b"]).stdout
    assert b"\x1b[" in shown and b"first byte" in shown
    assert b"\x1b[" not in run(["--print=m", "get", f"{redirecting.url}/b"]).stdout


@pytest.mark.skipif(CURL is None, reason="curl is not installed")
def test_curl_command_carries_the_write_out_format(redirecting):
    line = run(["--curl", "-w", "%{http_code} %header{x-test}\\n", "get", f"{redirecting.url}/b"])
    assert line.code == 0 and line.out.rstrip().endswith("--write-out '%{http_code} %header{x-test}\\n'"), line
    assert redirecting.requests == []
    command = shlex.split(line.out) + ["-s", "-o", "/dev/null"]
    assert subprocess.run(command, capture_output=True, timeout=30).stdout == b"200 yes\n"


@pytest.mark.parametrize("option", [["-w", "%{http_code}"], ["--meta=json"]])
def test_downloads_refuse_the_metrics_options(server, tmp_path, option):
    result = run(["download", *option, f"{server.url}/f"], cwd=tmp_path)
    name = "--meta" if option[0].startswith("--meta") else "--write-out"
    assert result.code == 2 and f"{name} does not apply to afcli download" in result.err, result
    assert server.requests == [] and list(tmp_path.iterdir()) == []


def test_print_m_reads_the_whole_body_that_is_not_printed(server):
    server.handler = lambda request: Response(200, "OK", [("Content-Type", "text/plain")], b"x" * 100000)
    out = run(["--print=hm", "get", f"{server.url}/big"]).out
    assert " bytes of head, 100000 of body" in out, out
    written = run(["-h", "-w", "%{size_download}", "get", f"{server.url}/big"]).out
    assert written.endswith("\n\n100000"), written


def test_write_out_shows_server_controls_escaped_on_a_terminal(server):
    from conftest import run_tty
    server.handler = lambda request: Response(200, "OK", [("X-Test", "a\x1b]0;owned\x07b")], b"")
    fmt = "[%header{x-test}]\\t%{http_code}"
    shown = run_tty(["-b", "-w", fmt, "get", f"{server.url}/x"]).stdout
    assert shown.endswith(b"[a\\x1b]0;owned\\x07b]\t200"), shown
    piped = run(["-q", "-w", fmt, "get", f"{server.url}/x"]).stdout
    assert piped == b"[a\x1b]0;owned\x07b]\t200"


def test_ctrl_c_while_the_write_out_format_is_read_from_standard_input_is_an_interrupt(server):
    """`--write-out @-` with standard input still open: Ctrl-C exits 130, not 2 for an
    unreadable format, and nothing is sent."""
    from conftest import run_interrupted

    result = run_interrupted(["get", server.url + "/x", "--write-out", "@-"], pending=b"%{http_code}")
    assert (result.code, result.stdout, result.stderr) == (130, b"", b"afcli: error: interrupted\n")
    assert server.requests == []
