"""The request pipeline as a whole: an environment from the config file feeding the serializer,
the encryption hook, the response cache, decryption and the envelope in one request. Each stage
has its own tests; these check that they compose in DESIGN's order (the cache stores what came
over the wire and decryption runs again on every use)."""

import json

import pytest

from conftest import run
from loopback import Response

NOW = 1_700_000_000
# Stand-ins for real ciphers: reversible, so what the server saw can be checked by eye.
ENCRYPT = "tr a-z A-Z"
DECRYPT = "tr A-Z a-z"


@pytest.fixture
def config(tmp_path):
    """Writes a config with the environment `dev` pointing at the loopback server."""

    def write(server, **fields):
        environment = {"base_url": server.url + "/api/", "params": {"appversion": "1200"}}
        environment.update(fields)
        directory = tmp_path / "config"
        directory.mkdir(exist_ok=True)
        (directory / "config.json").write_text(json.dumps({"environments": {"dev": environment}}))
        (directory / "config.json").chmod(0o600)
        return {
            "AFCLI_CONFIG_DIR": str(directory),
            "HOME": str(tmp_path),
            "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "AFCLI_TEST_NOW": str(NOW),
        }

    return write


def test_environment_encryption_cache_decryption_and_envelope_compose(server, config):
    # The server answers "encrypted" (upper-case) envelopes; lower-case is the plain text.
    server.handler = lambda request: Response(
        headers=[("Content-Type", "text/plain"), ("Cache-Control", "max-age=60")],
        body=b'{"STATUS":"OK","MESSAGE":"","RESULT":{"NAME":"ANN"}}')
    env = config(
        server, encrypt=ENCRYPT, decrypt=DECRYPT, cache="http",
        envelope={"status": "status", "message": "message", "result": "result", "success": ["ok"]})
    first = run(["--env", "dev", "--envelope", "post", "/users", "name=ann"], env=env)
    assert first.code == 0, first
    assert first.stdout == b'{"name":"ann"}'
    sent = server.requests[0]
    assert sent.target == "/api/users"
    assert sent.body == b'{"APPVERSION":"1200","NAME":"ANN"}'
    assert sent.header("Content-Type") == "text/plain"


def test_a_cached_ciphertext_is_decrypted_again_on_every_use(server, config):
    server.handler = lambda request: Response(
        headers=[("Content-Type", "text/plain"), ("Cache-Control", "max-age=60")], body=b'{"N":"ONE"}')
    env = config(server, decrypt=DECRYPT, cache="http")
    first = run(["--env", "dev", "get", "/item", "--print=bm"], env=env)
    assert first.code == 0 and '{"n":"one"}' in first.out and "cache: miss, stored" in first.out, first
    hit = run(["--env", "dev", "get", "/item", "--print=bm"], env=env)
    assert hit.code == 0 and '{"n":"one"}' in hit.out and "cache: hit" in hit.out, hit
    assert len(server.requests) == 1
    # What is stored is what came over the wire: without the decrypt command, the ciphertext.
    raw = run(["--env", "dev", "--no-encrypt", "get", "/item"], env=env)
    assert raw.code == 0 and raw.stdout.strip() == b'{"N":"ONE"}', raw
    assert len(server.requests) == 1


def test_the_environment_s_cj_strategy_lifetime_and_namespace(server, config):
    server.handler = lambda request: Response(headers=[("Content-Type", "application/json")], body=b'{"n":1}')
    env = config(server, cache="cj-first", cache_ttl="10m", cache_namespace="1200")
    assert run(["--env", "dev", "get", "/a"], env=env).code == 0
    assert run(["--env", "dev", "get", "/a"], env=env).code == 0
    assert len(server.requests) == 1
    later = dict(env, AFCLI_TEST_NOW=str(NOW + 601))
    assert run(["--env", "dev", "get", "/a"], env=later).code == 0
    assert len(server.requests) == 2
    # Another namespace (another app version) does not see the entry.
    other = run(["--env", "dev", "--cache-namespace", "1300", "get", "/a"], env=env)
    assert other.code == 0 and len(server.requests) == 3


@pytest.mark.parametrize(
    "fields, message",
    [({"cache": "cj-first", "cache_ttl": "soon"}, b"cache_ttl"), ({"cache": "always"}, b'cache "always"')])
def test_a_bad_cache_setting_in_the_environment_is_refused_before_sending(server, config, fields, message):
    result = run(["--env", "dev", "get", "/a"], env=config(server, **fields))
    assert result.code == 2 and message in result.stderr, result
    assert server.requests == []


def test_offline_prints_the_request_after_every_stage(server, config):
    env = config(server, encrypt=ENCRYPT, headers={"X-Client": "afcli"})
    result = run(["--env", "dev", "--offline", "post", "/login", "user=ann"], env=env)
    assert result.code == 0, result
    head, _, body = result.stdout.partition(b"\n\n")
    assert head.startswith(b"POST /api/login HTTP/1.1\n")
    assert b"X-Client: afcli" in head and b"Content-Type: text/plain" in head
    assert body.strip() == b'{"APPVERSION":"1200","USER":"ANN"}'
    assert server.requests == []


def test_command_lines_of_a_run_get_the_config_environment(server, config, tmp_path):
    env = config(server, headers={"X-Client": "afcli"})
    lines = "get /users page==2\npost /login user=ann\n"
    result = run(["--env", "dev", "run", "-"], input=lines.encode(), env=env)
    assert result.code == 0, result
    targets = sorted(request.target for request in server.requests)
    assert targets == ["/api/login", "/api/users?appversion=1200&page=2"]
    assert all(request.header("X-Client") == "afcli" for request in server.requests)
    login = next(request for request in server.requests if request.method == "POST")
    assert json.loads(login.body) == {"appversion": "1200", "user": "ann"}


def test_a_http_file_s_env_names_its_own_environment_not_the_config_s(server, config, tmp_path):
    env = config(server)
    (tmp_path / "api.http").write_text("GET {{host}}/x\n")
    (tmp_path / "http-client.env.json").write_text(json.dumps({"local": {"host": server.url}}))
    result = run(["run", str(tmp_path / "api.http"), "--env", "local"], env=env)
    assert result.code == 0, result
    assert [request.target for request in server.requests] == ["/x"]
