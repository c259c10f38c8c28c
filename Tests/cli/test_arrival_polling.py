"""--retry and --retry-interval sending a request again while its assertions fail (polling a job
until it is done), by how they arrive: typed on the run, in default_options, and as a `.http`
file's `# @retry N` directive (a line of `afcli run -` cannot give them: they belong to the run;
the config environment has no key for them). Each checks how often the server was asked."""

import pytest

from arrival import Arrival, refused_on_a_line
from loopback import Response

JOB = "GET {url}/job\n?? jsonpath $.state == done\n"


@pytest.fixture
def job(server):
    """A job that is done from its third poll on."""
    calls = {"n": 0}

    def handler(request):
        calls["n"] += 1
        state = b"done" if calls["n"] >= 3 else b"running"
        return Response(headers=[("Content-Type", "application/json")], body=b'{"state":"%s"}' % state)
    server.handler = handler
    server.calls = calls
    return server


def test_typed(job, tmp_path):
    result = Arrival(tmp_path).http_file(JOB.format(url=job.url), run_words=["--retry", "4", "--retry-interval", "50ms"])
    assert result.code == 0 and result.records[0]["assertion_tries"] == 3 and job.calls["n"] == 3, result


def test_default_options(job, tmp_path):
    result = Arrival(tmp_path).http_file(
        JOB.format(url=job.url), default_options=["--retry", "4", "--retry-interval", "0.05"])
    assert result.code == 0 and result.records[0]["assertion_tries"] == 3 and job.calls["n"] == 3, result


def test_http_file_directive_beats_the_run(job, tmp_path):
    # The run says no retry; the request's own directive sends it again.
    result = Arrival(tmp_path).http_file(
        "# @retry 2\n" + JOB.format(url=job.url), run_words=["--retry-interval", "50ms"])
    assert result.code == 0 and result.records[0]["assertion_tries"] == 3 and job.calls["n"] == 3, result
    job.calls["n"] = 0
    too_few = Arrival(tmp_path).http_file(
        "# @retry 1\n" + JOB.format(url=job.url), run_words=["--retry", "5", "--retry-interval", "50ms"])
    assert too_few.code == 16 and too_few.records[0]["assertion_tries"] == 2 and job.calls["n"] == 2, too_few


def test_not_on_a_run_line(job, tmp_path):
    result = Arrival(tmp_path).run_lines([f"get {job.url}/job --retry-interval 1"])
    assert refused_on_a_line(result, "--retry-interval") and job.calls["n"] == 0, result
