"""--follow and --max-redirects, by how they arrive: typed, in default_options, on a line of
`afcli run -`, and in a `.http` run, whose `# @no-redirect` turns following off for one request.
(The config environment has no key for them.) Each checks what reached the server and the answer."""

import pytest

from arrival import Arrival
from loopback import Response


@pytest.fixture
def redirecting(server):
    """/r redirects to /new; /c1 to /c2 to /new."""
    def handler(request):
        hops = {"/r": "/new", "/c1": "/c2", "/c2": "/new"}
        if request.target in hops:
            return Response(status=302, reason="Found", headers=[("Location", hops[request.target])], body=b"")
        return Response(headers=[("Content-Type", "text/plain")], body=b"new")
    server.handler = handler
    return server


def targets(server):
    return [request.target for request in server.requests]


def test_typed(redirecting, tmp_path):
    arrival = Arrival(tmp_path)
    followed = arrival.typed(["--follow"], ["get", f"{redirecting.url}/r"])
    assert (followed.code, followed.out) == (0, "new"), followed
    limited = arrival.typed(["--follow", "--max-redirects", "1"], ["get", f"{redirecting.url}/c1"])
    assert limited.code == 6 and "redirect" in limited.err, limited
    assert targets(redirecting) == ["/r", "/new", "/c1", "/c2"]


def test_in_default_options(redirecting, tmp_path):
    arrival = Arrival(tmp_path)
    followed = arrival.default_options(["--follow"], ["get", f"{redirecting.url}/r"])
    assert (followed.code, followed.out) == (0, "new"), followed
    limited = arrival.default_options(["--follow", "--max-redirects", "1"], ["get", f"{redirecting.url}/c1"])
    assert limited.code == 6 and "redirect" in limited.err, limited
    assert targets(redirecting) == ["/r", "/new", "/c1", "/c2"]


def test_on_a_run_line_for_that_line_alone(redirecting, tmp_path):
    result = Arrival(tmp_path).run_lines(
        [f"get {redirecting.url}/r --follow", f"get {redirecting.url}/r",
         f"get {redirecting.url}/c1 --follow --max-redirects 1"], run_words=["--keep-going"])
    statuses = [(record["name"], record.get("status"), record["exit"]) for record in result.records]
    # A run judges each answer as --check-status does: a 3xx not followed is exit status 3.
    assert statuses[:2] == [("line-1", 200, 0), ("line-2", 302, 3)], result
    assert statuses[2][0] == "line-3" and statuses[2][2] == 6, result
    assert result.bodies["line-1"] == b"new"


def test_in_default_options_for_a_run(redirecting, tmp_path):
    result = Arrival(tmp_path).run_lines([f"get {redirecting.url}/r"], default_options=["--follow"])
    assert result.code == 0 and result.bodies == {"line-1": b"new"}, result


def test_no_redirect_directive_in_a_http_run(redirecting, tmp_path):
    text = (f"# @name kept\n# @no-redirect\nGET {redirecting.url}/r\n\n###\n"
            f"# @name followed\nGET {redirecting.url}/r\n")
    result = Arrival(tmp_path).http_file(text, run_words=["--follow", "--keep-going"])
    assert result.code == 3, result
    assert {record["name"]: record["status"] for record in result.records} == {"kept": 302, "followed": 200}
    assert result.bodies["followed"] == b"new"


def test_no_redirect_directive_beats_follow_from_default_options(redirecting, tmp_path):
    result = Arrival(tmp_path).http_file(f"# @no-redirect\nGET {redirecting.url}/r\n", default_options=["--follow"])
    assert [record["status"] for record in result.records] == [302], result
    assert targets(redirecting) == ["/r"]


@pytest.mark.parametrize("way", ["typed", "default_options"])
def test_for_a_download(redirecting, tmp_path, way):
    arrival = Arrival(tmp_path)
    call = arrival.typed if way == "typed" else arrival.default_options
    result = call(["--follow"], ["download", "-o", str(tmp_path / "saved"), f"{redirecting.url}/r"])
    assert result.code == 0 and (tmp_path / "saved").read_bytes() == b"new", result
    assert targets(redirecting) == ["/r", "/new"]
