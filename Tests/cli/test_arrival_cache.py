"""--cache, --cache-ttl and --cache-namespace, by how they arrive: typed, in default_options, from
the environment's `cache`, `cache_ttl` and `cache_namespace`, for a run (`afcli run -` and a
`.http` file: the run's options; a line may not give them), checked by what reaches the server:
a second request within the lifetime is answered from the cache, another namespace is not."""

import pytest

from arrival import Arrival, refused_on_a_line
from loopback import Response

WORDS = ["--cache=cj-first", "--cache-ttl", "1h"]
ENVIRONMENT = {"cache": "cj-first", "cache_ttl": "1h"}


@pytest.fixture
def counted(server):
    def handler(request):
        return Response(headers=[("Content-Type", "text/plain")], body=b"answer %d" % len(server.requests))
    server.handler = handler
    return server


def test_typed(counted, tmp_path):
    arrival = Arrival(tmp_path)
    outs = [arrival.typed([*WORDS, "--cache-namespace", space], ["get", f"{counted.url}/a"]).out
            for space in ["one", "two", "one"]]
    assert outs == ["answer 1", "answer 2", "answer 1"]
    assert len(counted.requests) == 2


def test_in_default_options(counted, tmp_path):
    arrival = Arrival(tmp_path)
    outs = [arrival.default_options([*WORDS, "--cache-namespace", space], ["get", f"{counted.url}/a"]).out
            for space in ["one", "two", "one"]]
    assert outs == ["answer 1", "answer 2", "answer 1"]
    assert len(counted.requests) == 2


def test_from_the_environment_and_typed_options_beat_it(counted, tmp_path):
    arrival = Arrival(tmp_path)
    outs = [arrival.environment({**ENVIRONMENT, "cache_namespace": space}, ["get", f"{counted.url}/a"]).out
            for space in ["one", "two", "one"]]
    assert outs == ["answer 1", "answer 2", "answer 1"]
    # --no-cache beats the environment's policy: the network answers.
    fresh = arrival.environment({**ENVIRONMENT, "cache_namespace": "one"}, ["get", f"{counted.url}/a"],
                                words=["--no-cache"])
    assert fresh.out == "answer 3", fresh


@pytest.mark.parametrize("words", [["--cache=cj-first"], ["--cache-ttl", "1h"], ["--cache-namespace", "one"]])
def test_on_a_run_line_it_is_refused(counted, tmp_path, words):
    line = " ".join(words)
    result = Arrival(tmp_path).run_lines([f"get {counted.url}/a {line}"])
    option = words[0].split("=")[0]
    assert refused_on_a_line(result, option), result
    assert counted.requests == []


@pytest.mark.parametrize("way", ["option", "default_options", "environment"])
def test_for_a_run_of_lines(counted, tmp_path, way):
    arrival = Arrival(tmp_path)
    lines = [f"get {counted.url}/a"]
    for _ in range(2):
        if way == "option":
            result = arrival.run_lines(lines, run_words=WORDS)
        elif way == "default_options":
            result = arrival.run_lines(lines, default_options=WORDS)
        else:
            result = arrival.run_lines(lines, environment=ENVIRONMENT)
        assert result.code == 0 and result.bodies == {"line-1": b"answer 1"}, result
    assert len(counted.requests) == 1


@pytest.mark.parametrize("way", ["option", "default_options"])
def test_for_a_http_run(counted, tmp_path, way):
    arrival = Arrival(tmp_path)
    for _ in range(2):
        if way == "option":
            result = arrival.http_file(f"GET {counted.url}/a\n", run_words=WORDS)
        else:
            result = arrival.http_file(f"GET {counted.url}/a\n", default_options=WORDS)
        assert result.code == 0 and list(result.bodies.values()) == [b"answer 1"], result
    assert len(counted.requests) == 1


@pytest.mark.parametrize("way", ["default_options", "environment"])
def test_cj_then_network_not_typed_is_passed_over_by_a_run(counted, tmp_path, way):
    # Typed, a run refuses it (two answers to one request); from the defaults it does not apply
    # to a run, which then goes to the network as without it.
    arrival = Arrival(tmp_path)
    words = ["--cache=cj-then-network", "--cache-ttl", "1h"]
    for _ in range(2):
        if way == "default_options":
            result = arrival.run_lines([f"get {counted.url}/a"], default_options=words)
        else:
            result = arrival.run_lines([f"get {counted.url}/a"], environment={**ENVIRONMENT, "cache": "cj-then-network"})
        assert result.code == 0 and "cache" not in result.records[0], result
    assert len(counted.requests) == 2
    typed = arrival.run_lines([f"get {counted.url}/a"], run_words=words, environment=ENVIRONMENT)
    assert typed.code == 2 and typed.err.startswith(
        "afcli: error: --cache=cj-then-network does not apply to afcli run ("), typed
    assert len(counted.requests) == 2


@pytest.mark.parametrize("way", ["option", "default_options", "environment"])
def test_a_download_has_no_cache(counted, tmp_path, way):
    # The cache's options are not in a download's scope: typed they are refused, from
    # default_options or the environment they are passed over, and every download is sent.
    arrival = Arrival(tmp_path)
    args = ["download", "-o", "-", f"{counted.url}/a"]
    if way == "option":
        typed = arrival.typed(WORDS, args)
        assert typed.code == 2 and typed.err.startswith(
            "afcli: error: --cache does not apply to afcli download (the response cache serves requests and runs)"), typed
        assert counted.requests == []
        return
    outs = [(arrival.default_options(WORDS, args) if way == "default_options"
             else arrival.environment(ENVIRONMENT, args)).stdout for _ in range(2)]
    assert outs == [b"answer 1", b"answer 2"]
    assert len(counted.requests) == 2
