"""-a/--auth and -A/--auth-type, by how they arrive: typed, in default_options, beside the config
environment's `headers` (its only way to give credentials), on a line of `afcli run -`, and for a
`.http` run (no directive: the file writes its own Authorization header, or takes the run's -a).
Each checks the Authorization header the server received."""

import pytest

from arrival import Arrival

BASIC = "Basic dXNlcjpwdw=="  # user:pw


def authorizations(server):
    return [request.header_all("Authorization") for request in server.requests]


@pytest.mark.parametrize("words, expected", [
    (["-a", "user:pw"], BASIC), (["-A", "bearer", "-a", "tok"], "Bearer tok")], ids=["basic", "bearer"])
def test_typed(server, tmp_path, words, expected):
    result = Arrival(tmp_path).typed(words, ["get", f"{server.url}/a"])
    assert result.code == 0, result
    assert authorizations(server) == [[expected]]


@pytest.mark.parametrize("words, expected", [
    (["-a", "user:pw"], BASIC), (["-A", "bearer", "-a", "tok"], "Bearer tok")], ids=["basic", "bearer"])
def test_in_default_options(server, tmp_path, words, expected):
    result = Arrival(tmp_path).default_options(words, ["get", f"{server.url}/a"])
    assert result.code == 0, result
    assert authorizations(server) == [[expected]]


def test_the_environment_header_and_typed_auth_beats_it(server, tmp_path):
    arrival = Arrival(tmp_path)
    keys = {"headers": {"Authorization": "Bearer env"}}
    assert arrival.environment(keys, ["get", f"{server.url}/a"]).code == 0
    assert arrival.environment(keys, ["get", f"{server.url}/b"], words=["-a", "user:pw"]).code == 0
    assert authorizations(server) == [["Bearer env"], [BASIC]]


def test_on_a_run_line_for_that_line_alone(server, tmp_path):
    result = Arrival(tmp_path).run_lines(
        [f"get {server.url}/a -a user:pw", f"get {server.url}/b -A bearer -a tok", f"get {server.url}/c"])
    assert result.code == 0, result
    by_target = {request.target: request.header_all("Authorization") for request in server.requests}
    assert by_target == {"/a": [BASIC], "/b": ["Bearer tok"], "/c": []}


def test_for_a_run_of_lines_and_a_http_run(server, tmp_path):
    arrival = Arrival(tmp_path)
    lines = arrival.run_lines([f"get {server.url}/a"], run_words=["-a", "user:pw"])
    http = arrival.http_file(f"GET {server.url}/b\n", run_words=["-A", "bearer", "-a", "tok"])
    assert lines.code == 0 and http.code == 0, (lines, http)
    by_target = {request.target: request.header_all("Authorization") for request in server.requests}
    assert by_target == {"/a": [BASIC], "/b": ["Bearer tok"]}


@pytest.mark.parametrize("way", ["typed", "default_options"])
def test_for_a_download(server, tmp_path, way):
    arrival = Arrival(tmp_path)
    call = arrival.typed if way == "typed" else arrival.default_options
    result = call(["-a", "user:pw"], ["download", "-o", str(tmp_path / "saved"), f"{server.url}/a"])
    assert result.code == 0 and (tmp_path / "saved").exists(), result
    assert authorizations(server) == [[BASIC]]
