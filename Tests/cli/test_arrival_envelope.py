"""--envelope, by how it arrives: typed, in default_options, with its keys and status lists from
the config environment's `envelope` (the environment describes the envelope; only the option turns
it on), for a run (`afcli run -` and a `.http` file: the run's option; a line may not give it).
Each checks the result printed or saved, and the exit status of a failure status."""

import pytest

from arrival import Arrival, refused_on_a_line
from loopback import Response


@pytest.fixture
def enveloped(server):
    """/ok answers {"status":0,"result":…}; /env answers in the environment's keys, status "ok";
    /fail answers status 7."""
    def handler(request):
        bodies = {"/ok": b'{"status":0,"result":{"n":1}}', "/env": b'{"code":"ok","data":{"n":2}}',
                  "/fail": b'{"status":7,"message":"no","result":null}'}
        return Response(body=bodies.get(request.target, b"{}"))
    server.handler = handler
    return server


def test_typed(enveloped, tmp_path):
    arrival = Arrival(tmp_path)
    assert arrival.typed(["--envelope"], ["get", f"{enveloped.url}/ok"]).out == '{"n":1}'
    failed = arrival.typed(["--envelope"], ["get", f"{enveloped.url}/fail"])
    assert (failed.code, failed.out) == (13, "") and "no" in failed.err, failed


def test_in_default_options(enveloped, tmp_path):
    arrival = Arrival(tmp_path)
    result = arrival.default_options(["--envelope"], ["get", f"{enveloped.url}/ok"])
    assert (result.code, result.out) == (0, '{"n":1}'), result
    undone = arrival.default_options(["--envelope"], ["get", f"{enveloped.url}/ok", "--no-envelope"])
    assert (undone.code, undone.out) == (0, '{"status":0,"result":{"n":1}}'), undone


def test_from_the_environment_and_typed_lists_beat_it(enveloped, tmp_path):
    arrival = Arrival(tmp_path)
    keys = {"envelope": {"status": "code", "result": "data", "success": ["ok"]}}
    result = arrival.environment(keys, ["get", f"{enveloped.url}/env"], words=["--envelope"])
    assert (result.code, result.out) == (0, '{"n":2}'), result
    # Without --envelope the environment's description does nothing.
    plain = arrival.environment(keys, ["get", f"{enveloped.url}/env"])
    assert plain.out == '{"code":"ok","data":{"n":2}}', plain
    # A typed success list beats the environment's: "ok" is then a failure.
    typed = arrival.environment(keys, ["get", f"{enveloped.url}/env"], words=["--envelope", "--envelope-success", "0"])
    assert (typed.code, typed.out) == (13, ""), typed


def test_on_a_run_line_it_is_refused(enveloped, tmp_path):
    result = Arrival(tmp_path).run_lines([f"get {enveloped.url}/ok --envelope"])
    assert refused_on_a_line(result, "--envelope"), result
    assert enveloped.requests == []


@pytest.mark.parametrize("way", ["option", "default_options", "environment"])
def test_for_a_run_of_lines(enveloped, tmp_path, way):
    arrival = Arrival(tmp_path)
    if way == "option":
        result = arrival.run_lines([f"get {enveloped.url}/ok"], run_words=["--envelope"])
        expected = b'{"n":1}'
    elif way == "default_options":
        result = arrival.run_lines([f"get {enveloped.url}/ok"], default_options=["--envelope"])
        expected = b'{"n":1}'
    else:
        keys = {"envelope": {"status": "code", "result": "data", "success": ["ok"]}}
        result = arrival.run_lines([f"get {enveloped.url}/env"], run_words=["--envelope"], environment=keys)
        expected = b'{"n":2}'
    assert result.code == 0 and result.bodies == {"line-1": expected}, result


@pytest.mark.parametrize("way", ["option", "default_options"])
def test_for_a_http_run(enveloped, tmp_path, way):
    arrival = Arrival(tmp_path)
    text = f"GET {enveloped.url}/ok\n"
    if way == "option":
        result = arrival.http_file(text, run_words=["--envelope"])
    else:
        result = arrival.http_file(text, default_options=["--envelope"])
    assert result.code == 0 and list(result.bodies.values()) == [b'{"n":1}'], result
