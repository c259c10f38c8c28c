"""--encrypt-cmd, by how it arrives: typed, in default_options, from the environment's `encrypt`,
on a line of `afcli run -`, and for a `.http` run (no directive: the run's option reaches every
request with a body). Each checks the body the server received."""

import pytest

from arrival import Arrival

ENCRYPT = "tr a-z A-Z"


def bodies(server):
    return {request.target: request.body for request in server.requests}


def test_typed(server, tmp_path):
    result = Arrival(tmp_path).typed(["--encrypt-cmd", ENCRYPT], ["post", f"{server.url}/a", "--raw", "secret"])
    assert result.code == 0, result
    assert bodies(server) == {"/a": b"SECRET"}


def test_in_default_options(server, tmp_path):
    result = Arrival(tmp_path).default_options(["--encrypt-cmd", ENCRYPT],
                                               ["post", f"{server.url}/a", "--raw", "secret"])
    assert result.code == 0, result
    assert bodies(server) == {"/a": b"SECRET"}


def test_from_the_environment_and_no_encrypt_turns_it_off(server, tmp_path):
    arrival = Arrival(tmp_path)
    result = arrival.environment({"encrypt": ENCRYPT}, ["post", f"{server.url}/a", "--raw", "secret"])
    plain = arrival.environment({"encrypt": ENCRYPT}, ["post", f"{server.url}/b", "--raw", "secret"],
                                words=["--no-encrypt"])
    assert result.code == 0 and plain.code == 0, (result, plain)
    assert bodies(server) == {"/a": b"SECRET", "/b": b"secret"}


def test_on_a_run_line_for_that_line_alone(server, tmp_path):
    result = Arrival(tmp_path).run_lines([f"post {server.url}/a --raw secret --encrypt-cmd '{ENCRYPT}'",
                                          f"post {server.url}/b --raw secret"])
    assert result.code == 0, result
    assert bodies(server) == {"/a": b"SECRET", "/b": b"secret"}


def test_a_run_line_that_takes_the_option_back_gets_the_environments(server, tmp_path):
    # The run's --encrypt-cmd beats the environment's; a line's --no-encrypt-cmd takes it back
    # for that line, which then gets the environment's command, as a typed command line would.
    result = Arrival(tmp_path).run_lines(
        [f"post {server.url}/a --raw secret", f"post {server.url}/b --raw secret --no-encrypt-cmd"],
        run_words=["--encrypt-cmd", "rev"], environment={"encrypt": ENCRYPT})
    assert result.code == 0, result
    assert bodies(server) == {"/a": b"terces", "/b": b"SECRET"}


# A .http run's --env names an environment of the file's http-client.env.json, not the config's.
@pytest.mark.parametrize("way", ["option", "default_options"])
def test_for_a_http_run(server, tmp_path, way):
    arrival = Arrival(tmp_path)
    text = f"POST {server.url}/a\nContent-Type: text/plain\n\nsecret\n"
    if way == "option":
        result = arrival.http_file(text, run_words=["--encrypt-cmd", ENCRYPT])
    else:
        result = arrival.http_file(text, default_options=["--encrypt-cmd", ENCRYPT])
    assert result.code == 0, result
    assert bodies(server) == {"/a": b"SECRET"}
