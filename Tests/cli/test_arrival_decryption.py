"""--decrypt-cmd, by how it arrives: typed, in default_options, from the environment's `decrypt`,
on a line of `afcli run -`, and for a `.http` run (which has no directive for it: the run's option
reaches every request). Each checks the body shown or saved. With --cache=cj-then-network the
stored answer goes through the same decryption (and envelope) as the network's."""

import pytest

from arrival import Arrival
from loopback import Response

DECRYPT = "tr A-Z a-z"


@pytest.fixture
def secret(server):
    server.handler = lambda request: Response(headers=[("Content-Type", "text/plain")],
                                              body=b"SECRET " + request.target.encode())
    return server


def test_typed(secret, tmp_path):
    result = Arrival(tmp_path).typed(["--decrypt-cmd", DECRYPT], ["get", f"{secret.url}/a"])
    assert (result.code, result.out) == (0, "secret /a"), result


def test_in_default_options(secret, tmp_path):
    result = Arrival(tmp_path).default_options(["--decrypt-cmd", DECRYPT], ["get", f"{secret.url}/a"])
    assert (result.code, result.out) == (0, "secret /a"), result


def test_from_the_environment_and_no_encrypt_turns_it_off(secret, tmp_path):
    arrival = Arrival(tmp_path)
    result = arrival.environment({"decrypt": DECRYPT}, ["get", f"{secret.url}/a"])
    assert (result.code, result.out) == (0, "secret /a"), result
    plain = arrival.environment({"decrypt": DECRYPT}, ["get", f"{secret.url}/b"], words=["--no-encrypt"])
    assert (plain.code, plain.out) == (0, "SECRET /b"), plain


def test_on_a_run_line_for_that_line_alone(secret, tmp_path):
    result = Arrival(tmp_path).run_lines([f"get {secret.url}/a --decrypt-cmd '{DECRYPT}'", f"get {secret.url}/b"])
    assert result.code == 0, result
    assert result.bodies == {"line-1": b"secret /a", "line-2": b"SECRET /b"}


@pytest.mark.parametrize("way", ["option", "default_options"])
def test_for_a_http_run(secret, tmp_path, way):
    arrival = Arrival(tmp_path)
    if way == "option":
        result = arrival.http_file(f"GET {secret.url}/a\n", run_words=["--decrypt-cmd", DECRYPT])
    else:
        result = arrival.http_file(f"GET {secret.url}/a\n", default_options=["--decrypt-cmd", DECRYPT])
    assert result.code == 0, result
    assert list(result.bodies.values()) == [b"secret /a"]


def test_for_a_run_from_the_environment(secret, tmp_path):
    result = Arrival(tmp_path).run_lines([f"get {secret.url}/a"], environment={"decrypt": DECRYPT})
    assert result.code == 0 and result.bodies == {"line-1": b"secret /a"}, result


@pytest.mark.parametrize("way", ["typed", "default_options", "environment"])
def test_the_stored_answer_of_cj_then_network_is_decrypted(server, tmp_path, way):
    count = []

    def handler(request):
        count.append(1)
        return Response(headers=[("Content-Type", "text/plain")], body=f"ANSWER {len(count)}".encode())
    server.handler = handler
    arrival = Arrival(tmp_path)
    transition = tmp_path / "stored.txt"
    args = ["--cache=cj-then-network", "--cache-ttl", "1h", "--cache-transition-output", str(transition),
            "get", f"{server.url}/t"]
    words = ["--decrypt-cmd", DECRYPT]

    def go():
        if way == "typed":
            return arrival.typed(words, args)
        if way == "default_options":
            return arrival.default_options(words, args)
        return arrival.environment({"decrypt": DECRYPT}, args)
    first = go()
    assert (first.code, first.out) == (0, "answer 1"), first
    second = go()
    assert (second.code, second.out) == (0, "answer 2"), second
    # The stored answer, as the network's was shown: decrypted.
    assert transition.read_bytes() == b"answer 1"
    # And so in the request log's block for it.
    args[:0] = ["--log=cj"]
    third = go()
    blocks = third.err.split("网络请求Start")
    assert len(blocks) == 3 and "结果：answer 2" in blocks[1] and "结果：answer 3" in blocks[2], third


@pytest.mark.parametrize("way", ["typed", "default_options"])
def test_the_stored_answer_of_cj_then_network_goes_through_the_envelope(server, tmp_path, way):
    count = []

    def handler(request):
        count.append(1)
        return Response(body=b'{"status":0,"result":{"n":%d}}' % len(count))
    server.handler = handler
    arrival = Arrival(tmp_path)
    transition = tmp_path / "stored.json"
    words = ["--envelope"]
    args = ["--cache=cj-then-network", "--cache-ttl", "1h", "--cache-transition-output",
            str(transition), "get", f"{server.url}/t"]
    go = arrival.typed if way == "typed" else arrival.default_options
    assert go(words, args).out == '{"n":1}'
    second = go(words, args)
    assert (second.code, second.out) == (0, '{"n":2}'), second
    assert transition.read_bytes() == b'{"n":1}'
