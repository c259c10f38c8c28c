"""afcli run as a test runner: --test prints a PASS/FAIL line per request and a summary, a run
on a terminal shows the same readable lines (NDJSON stays the format of pipes and files), and
--report writes JUnit (read back by junitparser), TAP (accepted by prove), JSON and HAR 1.2 (read
back by haralyzer) reports, several at once."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import base_env, run, run_tty, start, run_process
from loopback import Response
import xml_schema

# The rules of Jenkins' xUnit plugin's junit-10.xsd for what afcli writes.
JUNIT_10 = (Path(__file__).parent / "junit-10-subset.xsd").read_bytes()


def api(request):
    path = request.target.split("?")[0]
    if path == "/ok":
        return Response(headers=[("Content-Type", "application/json")], body=b'{"id":7}')
    return Response(status=404, reason="Not Found", headers=[("Content-Type", "text/plain")], body=b"none")


def suite(tmp_path, server):
    path = tmp_path / "api.http"
    path.write_text(f"""### good
GET {server.url}/ok
?? status == 200
?? jsonpath $.id == 7

### wrong id
GET {server.url}/ok
?? jsonpath $.id == 8

### missing
GET {server.url}/missing

### unreachable
GET http://127.0.0.1:1/down
""")
    return str(path)


def test_test_mode_prints_a_line_per_request_and_a_summary_and_runs_everything(server, tmp_path):
    server.handler = api
    result = run(["run", suite(tmp_path, server), "--test"])
    assert result.code == 16, result
    lines = result.out.splitlines()
    assert lines[0].startswith("PASS  good  GET " + server.url + "/ok  200  8 B  ")
    assert lines[1].startswith("FAIL  wrong id  GET ") and "  200  " in lines[1]
    assert lines[2] == "      ✗ jsonpath $.id == 8 (actual 7)"
    assert lines[3].startswith("FAIL  missing  GET ") and "  404  " in lines[3]
    assert lines[4] == "      HTTP 404 Not Found"
    assert lines[5].startswith("FAIL  unreachable  GET http://127.0.0.1:1/down")
    assert "connect" in lines[6]
    assert lines[7].startswith("1 passed, 3 failed (4 requests) in ")
    assert "\x1b[" not in result.out and "{" not in result.out


def test_a_run_on_a_terminal_shows_readable_coloured_lines(server, tmp_path):
    server.handler = api
    result = run_tty(["run", suite(tmp_path, server), "--keep-going"])
    text = result.out if isinstance(result.out, str) else result.out.decode()
    assert "\x1b[1;32mPASS\x1b[0m  good" in text and "\x1b[1;31mFAIL\x1b[0m  missing" in text, text
    assert '"name":' not in text
    assert "1 passed, \x1b[1;31m3 failed\x1b[0m (4 requests)" in text
    piped = run(["run", suite(tmp_path, server), "--keep-going"])
    assert [json.loads(line)["name"] for line in piped.out.splitlines()] == ["good", "wrong id", "missing", "unreachable"]


def test_junit_tap_json_and_har_reports_at_once(server, tmp_path):
    junitparser = pytest.importorskip("junitparser")
    haralyzer = pytest.importorskip("haralyzer")
    server.handler = api
    reports = {kind: tmp_path / f"report.{kind}" for kind in ("junit", "tap", "json", "har")}
    args = ["run", suite(tmp_path, server), "--keep-going"]
    for kind, path in reports.items():
        args += ["--report", f"{kind}={path}"]
    result = run(args)
    assert result.code == 16, result
    assert len(result.out.splitlines()) == 4

    xml = junitparser.JUnitXml.fromfile(str(reports["junit"]))
    (testsuite,) = list(xml)
    assert testsuite.tests == 4 and testsuite.failures == 2 and testsuite.errors == 1 and testsuite.name.endswith("/api.http")
    cases = {case.name: case for case in testsuite}
    assert cases["good"].is_passed
    (failure,) = cases["wrong id"].result
    assert isinstance(failure, junitparser.Failure) and failure.type == "assertion"
    assert "jsonpath $.id == 8 (actual 7)" in failure.message
    assert "curl " in failure.text and server.url + "/ok" in failure.text and "first byte" in failure.text
    (error,) = cases["unreachable"].result
    assert isinstance(error, junitparser.Error)

    prove = subprocess.run(["prove", "-e", "cat", str(reports["tap"])], capture_output=True, text=True)
    assert prove.returncode != 0 and "Tests=4" in prove.stdout and "Failed: 3" in prove.stdout, prove.stdout
    tap = reports["tap"].read_text()
    assert tap.startswith("TAP version 13\nok 1 - good\nnot ok 2 - wrong id\n") and tap.endswith("1..4\n")

    document = json.loads(reports["json"].read_text())
    assert [r["name"] for r in document["requests"]] == ["good", "wrong id", "missing", "unreachable"]
    assert document["summary"]["passed"] == 1 and document["summary"]["failed"] == 3
    assert document["requests"][1]["assertions"][0]["actual"] == "7"

    har = haralyzer.HarParser(json.loads(reports["har"].read_text()))
    entries = har.har_data["entries"]
    assert len(entries) == 3 and {e["response"]["status"] for e in entries} == {200, 404}
    first = haralyzer.HarEntry(entries[0])
    assert first.request.method == "GET" and first.url.startswith(server.url)
    assert entries[0]["timings"]["wait"] >= 0 and entries[0]["time"] > 0
    assert any(h["name"] == "Content-Type" for h in entries[0]["response"]["headers"])
    assert oct(os.stat(reports["har"]).st_mode & 0o777) == "0o600"


def test_a_report_that_cannot_be_written_stops_the_run_before_anything_is_sent(server, tmp_path):
    server.handler = api
    missing = tmp_path / "no" / "such" / "report.xml"
    result = run(["run", suite(tmp_path, server), "--report", f"junit={missing}"])
    assert result.code == 2 and "--report" in result.err and server.requests == [], result
    bad = run(["run", suite(tmp_path, server), "--report", "excel=x"])
    assert bad.code == 2 and "junit, tap, json, har" in bad.err
    (tmp_path / "target").write_text("keep")
    os.symlink(tmp_path / "target", tmp_path / "link.tap")
    linked = run(["run", suite(tmp_path, server), "--report", f"tap={tmp_path / 'link.tap'}"])
    assert linked.code == 2 and (tmp_path / "target").read_text() == "keep" and server.requests == []


def test_junit_reports_are_valid_against_jenkins_xunit_schema_and_read_by_junitparser(server, tmp_path):
    junitparser = pytest.importorskip("junitparser")
    server.handler = api
    # With --keep-going: a pass, failures and an error; without it the run stops at the first
    # failure and the rest are skipped.
    everything, stopped = tmp_path / "all.xml", tmp_path / "stopped.xml"
    run(["run", suite(tmp_path, server), "--keep-going", "--report", f"junit={everything}"])
    run(["run", suite(tmp_path, server), "--report", f"junit={stopped}"])
    for report in (everything, stopped):
        assert xml_schema.problems(JUNIT_10, report.read_bytes()) == [], report.read_text()
    (testsuite,) = list(junitparser.JUnitXml.fromfile(str(stopped)))
    assert testsuite.tests == 4 and testsuite.skipped == 2 and testsuite.failures == 1
    skipped = [case for case in testsuite if case.result and isinstance(case.result[0], junitparser.Skipped)]
    assert len(skipped) == 2


def test_a_report_onto_the_source_or_onto_another_report_is_refused_before_anything_is_sent(server, tmp_path):
    server.handler = api
    source = suite(tmp_path, server)
    original = Path(source).read_text()
    os.link(source, tmp_path / "hard.http")
    (tmp_path / "sub").mkdir()
    for spelling in (source, str(tmp_path / "sub" / ".." / "api.http"), str(tmp_path / "hard.http")):
        result = run(["run", source, "--report", f"junit={spelling}"])
        assert result.code == 2, result
        assert result.err == (f'afcli: error: --report: "junit={spelling}" is the source being run ({source}), '
                              "which the report would overwrite\n")
    assert Path(source).read_text() == original
    # Two spellings of one file not made yet, then of one that exists.
    first, second = tmp_path / "r.tap", tmp_path / "sub" / ".." / "r.tap"
    result = run(["run", source, "--report", f"tap={first}", "--report", f"json={second}"])
    assert result.code == 2 and result.err == (
        f'afcli: error: --report: "json={second}" is the file of --report tap={first} too: each report needs a '
        "file of its own\n"), result
    assert not first.exists()
    first.write_text("keep")
    result = run(["run", source, "--report", f"tap={first}", "--report", f"junit={tmp_path / 'sub' / '..' / 'r.tap'}"])
    assert result.code == 2 and first.read_text() == "keep"
    lines = tmp_path / "lines.txt"
    lines.write_text(f"{server.url}/ok\n")
    with open(lines, "rb") as stdin:
        proc = run_process(["run", "-", "--report", f"tap={lines}"], stdin=stdin,
                           capture_output=True, env=base_env())
    assert proc.returncode == 2 and b"is the file standard input reads" in proc.stderr
    assert lines.read_text() == f"{server.url}/ok\n"
    log = tmp_path / "run.log"
    result = run(["run", source, "--log-file", str(log), "--report", f"tap={log}"])
    assert result.code == 2 and "is the --log-file" in result.err
    assert server.requests == []


def test_standard_output_carries_the_run_lines_so_a_report_there_is_refused(server, tmp_path):
    server.handler = api
    source = suite(tmp_path, server)
    for target in ("-", "/dev/stdout", "/dev/fd/1"):
        result = run(["run", source, "--report", f"tap={target}"], cwd=tmp_path)
        assert result.code == 2, result
        assert result.err == (
            f'afcli: error: --report: "tap={target}" is standard output, which carries the run\'s lines (NDJSON, '
            "or PASS/FAIL lines and a summary): write the report to a file, /dev/stderr or /dev/fd/N\n")
    assert not (tmp_path / "-").exists()
    # Standard output sent to the report's file is refused the same, before the file is written.
    out = tmp_path / "out.tap"
    with open(out, "wb") as stdout:
        proc = run_process(["run", source, "--report", f"tap={out}"], stdout=stdout,
                           stderr=subprocess.PIPE, env=base_env())
    assert proc.returncode == 2 and b"is where standard output goes" in proc.stderr
    assert out.read_bytes() == b"" and server.requests == []


def test_a_report_goes_to_standard_error_or_an_inherited_descriptor(server, tmp_path):
    server.handler = api
    source = suite(tmp_path, server)
    result = run(["run", source, "--keep-going", "--report", "tap=/dev/stderr"])
    assert result.code == 16, result
    tap = result.err[result.err.index("TAP version 13\n"):]
    assert tap.startswith("TAP version 13\nok 1 - good\nnot ok 2 - wrong id\n") and tap.endswith("1..4\n")
    assert len(result.out.splitlines()) == 4
    read, write = os.pipe()
    proc = start(["run", source, "--keep-going", "--report", f"junit=/dev/fd/{write}"],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=(write,), env=base_env())
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        report = pipe.read()
    proc.communicate(timeout=30)
    assert proc.returncode == 16
    assert report.startswith(b'<?xml version="1.0"') and report.count(b"<testcase ") == 4
    # A descriptor that is not open is refused before anything is sent.
    server.requests.clear()
    closed = run(["run", source, "--report", "tap=/dev/fd/9"])
    assert closed.code == 2 and "names descriptor 9, which is not open for writing" in closed.err
    assert server.requests == []
