"""The base URL relative request URLs are joined to, by how it arrives: `--base-url` typed, in
default_options, the config environment's `base_url`, on a line of `afcli run -`, and the run's
own for a `.http` file (which has no directive for it); `--simulate` over every one of them.
Each checks the target that reached the server."""

from arrival import Arrival
from conftest import run


def targets(server):
    return [request.target for request in server.requests]


def test_typed(server, tmp_path):
    result = Arrival(tmp_path).typed(["--base-url", f"{server.url}/typed/"], ["get", "users"])
    assert result.code == 0, result
    assert targets(server) == ["/typed/users"]


def test_typed_beats_default_options(server, tmp_path):
    arrival = Arrival(tmp_path)
    env = arrival.env(default_options=["--base-url", "http://127.0.0.1:1/unused/"])
    result = run(["--base-url", f"{server.url}/typed/", "get", "users"], env=env, cwd=tmp_path)
    assert result.code == 0, result
    assert targets(server) == ["/typed/users"]


def test_in_default_options_beats_the_environment(server, tmp_path):
    arrival = Arrival(tmp_path)
    env = arrival.env(default_options=["--base-url", f"{server.url}/default/"],
                      environment={"base_url": "http://127.0.0.1:1/unused/"})
    result = run(["--env", "dev", "get", "users"], env=env, cwd=tmp_path)
    assert result.code == 0, result
    assert targets(server) == ["/default/users"]


def test_from_the_environment(server, tmp_path):
    result = Arrival(tmp_path).environment({"base_url": f"{server.url}/env/"}, ["get", "users"])
    assert result.code == 0, result
    assert targets(server) == ["/env/users"]


def test_on_a_run_line_for_that_line_alone(server, tmp_path):
    result = Arrival(tmp_path).run_lines(
        ["get users", f"get users --base-url {server.url}/line/", "get users/2"],
        environment={"base_url": f"{server.url}/env/"})
    assert result.code == 0, result
    assert sorted(targets(server)) == ["/env/users", "/env/users/2", "/line/users"]


def test_the_runs_own_for_a_http_file(server, tmp_path):
    result = Arrival(tmp_path).http_file("GET users\n", run_words=["--base-url", f"{server.url}/run/"])
    assert result.code == 0, result
    assert targets(server) == ["/run/users"]


def test_simulate_beats_the_typed_base_and_the_environments(server, tmp_path):
    arrival = Arrival(tmp_path)
    result = arrival.environment(
        {"base_url": "http://127.0.0.1:1/unused/", "simulate_domain": f"{server.url}/sim/"},
        ["--simulate", "--base-url", "http://127.0.0.1:1/typed/", "get", "users"])
    assert result.code == 0, result
    assert targets(server) == ["/sim/users"]
