"""The config file and environments, black box: base URL joins, common params and headers,
default_options, AFCLI_ENV, --simulate, --local, afcli env / config path, malformed configs.

Every test writes its own config into a temporary AFCLI_CONFIG_DIR and points HOME there too.
"""

import json
import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import BINARY, Response, run, run_process
from loopback import LoopbackServer


@pytest.fixture
def cfg(tmp_path):
    """Writes config.json (a dict or raw text) and returns the env for run()."""
    directory = tmp_path / "cfg"
    directory.mkdir()
    home = tmp_path / "home"
    home.mkdir()

    class Config:
        path = directory / "config.json"
        env = {"AFCLI_CONFIG_DIR": str(directory), "HOME": str(home)}

        def write(self, document, mode=0o600):
            text = document if isinstance(document, str) else json.dumps(document)
            self.path.write_text(text)
            os.chmod(self.path, mode)
            return self.env

    return Config()


def dev(server, **extra):
    environment = {
        "base_url": f"{server.url}/api/",
        "params": {"appVersion": "1200", "imei": "x"},
        "headers": {"X-Client": "afcli"},
    }
    environment.update(extra)
    return {"environments": {"dev": environment, "prod": {"base_url": "https://api.example.com/v2/"}}}


def only(server):
    assert len(server.requests) == 1, server.requests
    return server.requests[0]


# --- the environment stage --------------------------------------------------------------------


def test_get_joins_base_and_merges_params_and_headers(server, cfg):
    env = cfg.write(dev(server))
    result = run(["--env", "dev", "get", "/users", "page==2"], env=env)
    assert result.code == 0, result
    request = only(server)
    assert request.target == "/api/users?appVersion=1200&imei=x&page=2"
    assert request.header("X-Client") == "afcli"


def test_afcli_env_variable_selects_the_environment(server, cfg):
    env = cfg.write(dev(server))
    assert run(["get", "users"], env={**env, "AFCLI_ENV": "dev"}).code == 0
    assert only(server).target == "/api/users?appVersion=1200&imei=x"


def test_env_option_beats_the_variable(server, cfg):
    env = cfg.write(dev(server))
    result = run(["--env", "dev", "get", "/users"], env={**env, "AFCLI_ENV": "prod"})
    assert result.code == 0, result
    assert only(server).target.startswith("/api/users")


def test_post_merges_params_into_the_body_request_wins(server, cfg):
    env = cfg.write(dev(server, headers={"X-Client": "afcli", "X-Other": "o"}))
    result = run(["--env", "dev", "post", "/login", "user=ann", "imei=mine", "X-Client:me"], env=env)
    assert result.code == 0, result
    request = only(server)
    assert request.target == "/api/login"
    assert request.body == b'{"appVersion":"1200","user":"ann","imei":"mine"}'
    assert request.header_all("X-Client") == ["me"]
    assert request.header("X-Other") == "o"


def test_absolute_url_ignores_the_base_but_keeps_params(server, cfg):
    env = cfg.write(dev(server, base_url="http://127.0.0.1:1/unused/"))
    assert run(["--env", "dev", "get", f"{server.url}/abs"], env=env).code == 0
    assert only(server).target == "/abs?appVersion=1200&imei=x"


def test_encoded_and_dot_paths_join_once(server, cfg):
    env = cfg.write(dev(server, params={}))
    assert run(["--env", "dev", "get", "/a%20b/../c d"], env=env).code == 0
    assert only(server).target == "/api/c%20d"


def test_multipart_upload_gets_params_as_fields(server, cfg, tmp_path):
    env = cfg.write(dev(server))
    upload = tmp_path / "photo.txt"
    upload.write_text("pixels")
    result = run(["--env", "dev", "post", "/photos", "title=Beach", f"file@{upload}"], env=env)
    assert result.code == 0, result
    body = only(server).body
    for field, value in [("appVersion", b"1200"), ("imei", b"x"), ("title", b"Beach")]:
        assert f'name="{field}"\r\n\r\n'.encode() + value in body
    assert body.index(b'name="appVersion"') < body.index(b'name="title"') < body.index(b"pixels")


def test_download_uses_base_url_and_headers(server, cfg, tmp_path):
    server.handler = lambda request: Response(headers=[("Content-Type", "text/plain")], body=b"file")
    env = cfg.write(dev(server))
    result = run(["--env", "dev", "download", "/files/a.txt", "-o", str(tmp_path / "a.txt")], env=env)
    assert result.code == 0, result
    request = only(server)
    assert request.target == "/api/files/a.txt"
    assert request.header("X-Client") == "afcli"
    assert (tmp_path / "a.txt").read_bytes() == b"file"


def test_offline_prints_the_request_after_the_environment_stage(server, cfg):
    env = cfg.write(dev(server))
    result = run(["--env", "dev", "--offline", "post", "/login", "user=ann"], env=env)
    assert result.code == 0, result
    assert result.out.startswith("POST /api/login HTTP/1.1\n")
    assert "X-Client: afcli\n" in result.out
    assert result.out.endswith('{"appVersion":"1200","imei":"x","user":"ann"}')
    assert server.requests == []


def test_base_url_option_replaces_the_environments_base(server, cfg):
    env = cfg.write(dev(server, base_url="http://127.0.0.1:1/unused/"))
    assert run(["--env", "dev", "--base-url", f"{server.url}/v3/", "get", "users"], env=env).code == 0
    assert only(server).target == "/v3/users?appVersion=1200&imei=x"


# --- selection errors -------------------------------------------------------------------------


def test_unknown_environment_lists_the_known_ones(server, cfg):
    env = cfg.write(dev(server))
    result = run(["--env", "stage", "get", "/x"], env=env)
    assert result.code == 2
    assert result.err == f"afcli: error: no environment named stage in {cfg.path} (known: dev, prod)\n"
    assert server.requests == []


def test_env_without_a_config_file_is_an_error(cfg):
    result = run(["--env", "dev", "get", "/x"], env=cfg.env)
    assert result.code == 2
    assert result.err == f"afcli: error: the environment dev needs a config file, and there is none at {cfg.path}\n"


def test_no_config_skips_default_options_and_environments(server, cfg):
    env = cfg.write({"default_options": ["--env", "dev"], **dev(server)})
    result = run(["get", f"{server.url}/plain", "--no-config"], env={**env, "AFCLI_ENV": "dev"})
    assert result.code == 0, result
    assert only(server).target == "/plain"
    refused = run(["--env", "dev", "--no-config", "get", "/x"], env=env)
    assert refused.code == 2
    assert "which --no-config skips" in refused.err


# --- default_options --------------------------------------------------------------------------


def redirecting(request):
    if request.target.startswith("/api/old"):
        return Response(status=302, reason="Found", headers=[("Location", "/api/new")], body=b"")
    return Response()


def test_default_options_apply_and_no_x_undoes_them(server, cfg):
    server.handler = redirecting
    env = cfg.write({"default_options": ["--follow", "--env", "dev"], **dev(server)})
    followed = run(["get", "/old"], env=env)
    assert followed.code == 0, followed
    assert [r.target.split("?")[0] for r in server.requests] == ["/api/old", "/api/new"]
    server.requests.clear()
    stopped = run(["get", "/old", "--no-follow", "--no-check-status"], env=env)
    assert stopped.code == 0, stopped
    assert [r.target.split("?")[0] for r in server.requests] == ["/api/old"]


def test_no_env_undoes_a_default_env(server, cfg):
    env = cfg.write({"default_options": ["--env", "dev"], **dev(server)})
    assert run(["--no-env", "get", f"{server.url}/x"], env=env).code == 0
    assert only(server).target == "/x"


@pytest.mark.parametrize(
    "options, message",
    [
        (["--folow"], 'unknown option --folow (did you mean --follow?)'),
        (["--timeout"], "--timeout requires a value (SECONDS)"),
        (["get"], 'holds options only, not "get"'),
        (["--"], "-- cannot be a default option"),
    ],
)
def test_invalid_default_option_names_the_config_file(server, cfg, options, message):
    env = cfg.write({"default_options": options, **dev(server)})
    result = run(["get", f"{server.url}/x"], env=env)
    assert result.code == 2, result
    assert result.err.startswith(f"afcli: error: {cfg.path}: default_options: ")
    assert message.split(" (")[0] in result.err
    assert server.requests == []


# --- malformed configs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"environments": {\n  "dev": {"base_url": "x",}}}', ":2:27: the config file is not valid JSON: expected a string key"),
        ('{"environments": {"dev": "http://x"}}', ": environments.dev must be an object"),
        ('{"environments": {"dev": {"params": []}}}', ": environments.dev.params must be an object"),
        ('{"default_options": [1]}', ": default_options must be a list of strings"),
    ],
)
def test_malformed_config_is_an_error_and_nothing_is_sent(server, cfg, text, message):
    env = cfg.write(text)
    result = run(["get", f"{server.url}/x"], env=env)
    assert result.code == 2, result
    assert result.err == f"afcli: error: {cfg.path}{message}\n"
    assert server.requests == []


def test_too_large_config_is_refused(server, cfg):
    env = cfg.write("{" + " " * (1 << 20) + "}")
    result = run(["get", f"{server.url}/x"], env=env)
    assert result.code == 2
    assert result.err == f"afcli: error: the config file {cfg.path} is larger than 1024 KiB\n"


def test_help_version_and_config_path_work_with_a_broken_config(cfg):
    env = cfg.write("{broken")
    assert run(["--help"], env=env).code == 0
    assert run(["--version"], env=env).code == 0
    path = run(["config", "path"], env=env)
    assert path.code == 0 and path.out == f"{cfg.path}\n"
    assert path.err == f"afcli: note: it cannot be used: {cfg.path}:1:2: the config file is not valid JSON: expected a string key\n"
    assert run(["env"], env=env).code == 2


def test_unknown_keys_warn(server, cfg):
    env = cfg.write({"colour": 1, "environments": {"dev": {"base_url": f"{server.url}/", "basse_url": "x"}}})
    result = run(["--env", "dev", "get", "/x"], env=env)
    assert result.code == 0, result
    assert result.err == (
        f"afcli: warning: {cfg.path}: unknown key colour (ignored)\n"
        f"afcli: warning: {cfg.path}: unknown key environments.dev.basse_url (ignored)\n"
    )


def test_secrets_in_a_config_others_can_read_warn_once(server, cfg):
    document = dev(server, headers={"Authorization": "Bearer t"}, encrypt="openssl enc -pass pass:x")
    env = cfg.write(document, mode=0o644)
    result = run(["--env", "dev", "get", "/x"], env=env)
    assert result.code == 0, result
    assert result.err.count("afcli: warning:") == 1
    assert f"{cfg.path} holds secrets" in result.err and f"chmod 600 {cfg.path}" in result.err
    cfg.write(document, mode=0o600)
    assert run(["--env", "dev", "get", "/x"], env=env).err == ""


# --- --simulate -------------------------------------------------------------------------------


@pytest.fixture
def mock_server():
    srv = LoopbackServer()
    yield srv
    srv.stop()


def test_simulate_sends_to_the_simulate_domain(server, mock_server, cfg):
    env = cfg.write(dev(server, simulate_domain=f"{mock_server.url}/mock/"))
    result = run(["--env", "dev", "--simulate", "get", "/card/list"], env=env)
    assert result.code == 0, result
    assert server.requests == []
    request = only(mock_server)
    assert request.target == "/mock/card/list?appVersion=1200&imei=x"
    assert request.header("X-Client") == "afcli"


def test_simulate_url_and_absolute_urls(server, mock_server, cfg):
    env = cfg.write(dev(server))
    assert run(["--env", "dev", f"--simulate={mock_server.url}/m", "get", "x"], env=env).code == 0
    assert only(mock_server).target == "/m/x?appVersion=1200&imei=x"
    refused = run(["--env", "dev", "--simulate", "get", f"{server.url}/x"], env=env)
    assert refused.code == 2
    assert "--simulate needs a URL relative to the environment's base" in refused.err
    assert server.requests == []
    assert run(["--env", "dev", "--simulate", "--local", "get", "/x"], env=env).code == 2


# --- --local ----------------------------------------------------------------------------------


@pytest.fixture
def mocks(cfg, tmp_path):
    directory = tmp_path / "cfg" / "mocks"
    directory.mkdir()
    return directory


def test_local_answers_from_files_without_network(cfg, mocks):
    (mocks / "api:card:list.json").write_text('{"cards":[1]}')
    (mocks / "api:card:list:nested").write_text("plain")
    env = cfg.write({"environments": {"dev": {"base_url": "http://127.0.0.1:1/api/", "local_dir": "./mocks"}}})
    found = run(["--env", "dev", "--local", "get", "/api/card/list"], env=env)
    assert found.code == 0, found
    assert found.stdout == b'{"cards":[1]}'
    assert found.err == ""
    nested = run(["--env", "dev", "--local", "-h", "get", "api/card/list/nested"], env=env)
    assert nested.code == 0, nested
    assert "HTTP/1.1 200 OK\nContent-Type: text/plain; charset=utf-8\nContent-Length: 5\n" in nested.out


def test_local_missing_file_answers_cjs_message(cfg, mocks):
    env = cfg.write({"environments": {"dev": {"base_url": "http://127.0.0.1:1/", "local_dir": str(mocks)}}})
    result = run(["--env", "dev", "--local", "post", "/api/none", "a=1"], env=env)
    assert result.code == 0, result
    assert json.loads(result.stdout) == {"status": "0", "message": "本地请求模拟：却未实现模拟的请求文件api/none", "result": ""}
    assert result.err.startswith("afcli: warning: no local answer for /api/none in ")


def test_local_refuses_dot_segments_and_links(cfg, mocks, tmp_path):
    (tmp_path / "secret").write_text("secret")
    os.symlink(tmp_path / "secret", mocks / "leak")
    env = cfg.write({"environments": {"dev": {"base_url": "http://127.0.0.1:1/", "local_dir": "mocks"}}})
    for path in ["/..", "/a/../secret", "../secret"]:
        result = run(["--env", "dev", "--local", "get", path], env=env)
        assert result.code == 2, (path, result)
        assert "--local refuses the path" in result.err
        assert result.stdout == b""
    link = run(["--env", "dev", "--local", "get", "/leak"], env=env)
    assert link.code == 2
    assert "is a symbolic link" in link.err and b"secret" not in link.stdout


def test_local_refuses_sessions_and_cookie_jars(cfg, mocks, tmp_path):
    env = cfg.write({"environments": {"dev": {"base_url": "http://127.0.0.1:1/", "local_dir": "mocks"}}})
    jar = tmp_path / "jar.txt"
    jar.write_text("# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc\n")
    result = run(["--env", "dev", "--local", "--cookie-jar", str(jar), "get", "/x"], env=env)
    assert result.code == 2
    assert result.err == "afcli: error: --local and --cookie-jar cannot be combined: a local answer sets no cookies to keep\n"
    assert "sid" in jar.read_text()


def test_local_needs_a_local_dir(server, cfg):
    env = cfg.write(dev(server))
    result = run(["--env", "dev", "--local", "get", "/x"], env=env)
    assert result.code == 2
    assert result.err == "afcli: error: --local needs local_dir in the environment dev\n"
    assert server.requests == []


# --- afcli env / config path ------------------------------------------------------------------


def test_env_lists_names_and_base_urls(server, cfg):
    env = cfg.write(dev(server))
    result = run(["env"], env=env)
    assert result.code == 0, result
    assert result.out == f"dev   {server.url}/api/\nprod  https://api.example.com/v2/\n"


def test_env_show_redacts_secrets(server, cfg):
    env = cfg.write(
        dev(
            server,
            headers={"Authorization": "Bearer abc", "X-Token": "t", "X-Client": "afcli"},
            encrypt="openssl enc -aes-256-cbc -pass pass:hunter2 -base64 -A",
            envelope={"status": "code", "success": [0]},
        )
    )
    result = run(["env", "show", "dev"], env=env)
    assert result.code == 0, result
    assert result.out == (
        "name: dev\n"
        f"base_url: {server.url}/api/\n"
        "params:\n  appVersion: 1200\n  imei: x\n"
        "headers:\n  Authorization: <redacted>\n  X-Token: <redacted>\n  X-Client: afcli\n"
        "envelope:\n  status: code\n  message: message\n  result: result\n  success: 0\n"
        "encrypt: openssl enc -aes-256-cbc -pass pass:<redacted> -base64 -A\n"
    )
    shown = run(["env", "show", "dev", "--show-secrets"], env=env)
    assert "Authorization: Bearer abc" in shown.out and "pass:hunter2" in shown.out
    unknown = run(["env", "show", "qa"], env=env)
    assert unknown.code == 2 and "known: dev, prod" in unknown.err
    assert run(["env", "list"], env=env).code == 2


def test_env_show_without_a_name_asks_for_one_and_lists_the_known(server, cfg):
    env = cfg.write(dev(server))
    result = run(["env", "show"], env=env)
    assert result.code == 2, result
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("afcli: error: "), result.err
    assert "show needs an environment NAME" in lines[0] and "known: dev, prod" in lines[0]


def test_env_and_env_show_redact_credentials_in_urls_and_secret_parameters(cfg):
    env = cfg.write({"environments": {"dev": {
        "base_url": "https://ann:hunter2@api.example.com/v2/",
        "simulate_domain": "http://TOKEN123@10.0.0.5:8080",
        "params": {"user": "ann", "password": "hunter2", "api_token": "t0k"},
    }}})
    listed = run(["env"], env=env)
    assert (listed.code, listed.out) == (0, "dev  https://ann:***@api.example.com/v2/\n")
    shown = run(["env", "show", "dev"], env=env)
    assert shown.code == 0, shown
    assert shown.out == (
        "name: dev\n"
        "base_url: https://ann:***@api.example.com/v2/\n"
        "params:\n  user: ann\n  password: <redacted>\n  api_token: <redacted>\n"
        "simulate_domain: http://***@10.0.0.5:8080\n"
    )
    assert "hunter2" not in shown.out + listed.out and "TOKEN123" not in shown.out
    revealed = run(["env", "show", "dev", "--show-secrets"], env=env)
    assert "ann:hunter2@" in revealed.out and "password: hunter2" in revealed.out and "TOKEN123@" in revealed.out
    assert "ann:hunter2@" in run(["env", "--show-secrets"], env=env).out


@pytest.mark.parametrize("environment", [
    {"base_url": "https://ann:hunter2@api.example.com/"},
    {"base_url": "https://api.example.com/", "simulate_domain": "http://ann:pw@10.0.0.5"},
    {"base_url": "https://api.example.com/", "params": {"password": "hunter2"}},
    {"base_url": "https://api.example.com/", "params": {"token": "t"}},
])
def test_credentials_in_a_config_others_can_read_warn(cfg, environment):
    env = cfg.write({"environments": {"dev": environment}}, mode=0o644)
    result = run(["env"], env=env)
    assert result.code == 0
    assert result.err == (
        f"afcli: warning: {cfg.path} holds secrets (an Authorization header, a password or token, a URL with "
        f"a password, or an encryption command) and other users can read it: chmod 600 {cfg.path}\n")
    cfg.write({"environments": {"dev": environment}}, mode=0o600)
    assert run(["env"], env=env).err == ""


def test_env_without_a_config_warns_and_lists_nothing(cfg):
    result = run(["env"], env=cfg.env)
    assert result.code == 0
    assert result.out == ""
    assert result.err == f"afcli: warning: there is no config file at {cfg.path}\n"
    cfg.write({"environments": {"bare": {}}})
    assert run(["env"], env=cfg.env).out == "bare  -\n"


def test_config_path_follows_the_lookup_order(cfg, tmp_path):
    result = run(["config", "path"], env=cfg.env)
    assert result.code == 0
    assert result.out == f"{cfg.path}\n"
    assert result.err == "afcli: note: it does not exist\n"
    xdg = run(["config", "path"], env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "x")})
    assert xdg.out == f"{tmp_path}/x/afcli/config.json\n"
    home = run(["config", "path"], env={"HOME": str(tmp_path)})
    assert home.out == f"{tmp_path}/.config/afcli/config.json\n"


def run_without_home(args, cwd, extra=None):
    """Runs afcli with HOME unset (as `env -i`, some systemd units and containers do)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", **(extra or {})}
    proc = run_process(args, cwd=cwd, env=env, capture_output=True, timeout=30)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def plant_config(directory, server):
    """A config in `directory`/.config/afcli whose default options would be obeyed if read."""
    planted = directory / ".config" / "afcli"
    planted.mkdir(parents=True)
    (planted / "config.json").write_text(json.dumps({"default_options": ["--offline"]}))
    (directory / "sub").mkdir()


def test_without_home_the_password_database_is_the_home_never_the_working_directory(server, tmp_path):
    plant_config(tmp_path, server)
    account = pwd.getpwuid(os.geteuid()).pw_dir.rstrip("/")
    code, out, err = run_without_home(["config", "path"], cwd=tmp_path)
    assert code == 0 and out == f"{account}/.config/afcli/config.json\n", (out, err)
    # The planted config's --offline would print the request instead of sending it.
    code, out, err = run_without_home([f"{server.url}/x"], cwd=tmp_path)
    assert code == 0 and len(server.requests) == 1, (out, err)


@pytest.mark.parametrize("variable", ["XDG_CONFIG_HOME", "HOME"])
def test_a_relative_home_or_xdg_config_home_is_ignored(server, tmp_path, variable):
    plant_config(tmp_path, server)
    home = tmp_path / "home"
    home.mkdir()
    relative = ".config" if variable == "XDG_CONFIG_HOME" else "."
    env = {"HOME": str(home), variable: relative}
    result = run(["config", "path"], env=env, cwd=tmp_path)
    account = pwd.getpwuid(os.geteuid()).pw_dir.rstrip("/")
    expected = f"{home}/.config" if variable == "XDG_CONFIG_HOME" else f"{account}/.config"
    assert result.out == f"{expected}/afcli/config.json\n", result
    sent = run([f"{server.url}/x"], env=env, cwd=tmp_path)
    assert sent.code == 0 and len(server.requests) == 1, sent


def test_cj_log_shows_the_joined_address_and_common_parameters(server, cfg):
    env = cfg.write(dev(server))
    result = run(["--env", "dev", "--log=cj", "get", "/users", "page==2"], env=env)
    assert result.code == 0, result
    assert f"地址：{server.url}/api/users \n" in result.err
    assert '原始参数：{"appVersion":"1200","imei":"x","page":"2"} \n' in result.err


def test_unreadable_config_is_an_error_but_an_unsearchable_directory_is_none(server):
    import shutil
    import subprocess
    import tempfile
    from conftest import BINARY
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run as another user")
    directory = tempfile.mkdtemp(prefix="afcli-cfg-", dir="/tmp")
    try:
        os.chmod(directory, 0o755)
        config = os.path.join(directory, "config.json")
        with open(config, "w") as f:
            json.dump(dev(server), f)
        os.chmod(config, 0o600)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": directory, "AFCLI_CONFIG_DIR": directory}
        as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", str(BINARY)]
        unreadable = subprocess.run([*as_nobody, "get", f"{server.url}/x"], env=env, capture_output=True, timeout=30)
        assert unreadable.returncode == 2
        assert unreadable.stderr == f"afcli: error: cannot read the config file {config}: permission denied\n".encode()
        os.chmod(directory, 0o700)
        hidden = subprocess.run([*as_nobody, "get", f"{server.url}/x"], env=env, capture_output=True, timeout=30)
        assert hidden.returncode == 0, hidden
        assert hidden.stderr == b""
        assert len(server.requests) == 1
    finally:
        shutil.rmtree(directory)


# MARK: - Completing environment names

COMPLETIONS = Path(__file__).resolve().parents[2] / "completions"


def completion_env(cfg, tmp_path):
    """The config's environment for a shell, with `afcli` on PATH as the completion scripts call it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "afcli").symlink_to(BINARY)
    env = cfg.write({"environments": {"dev": {"base_url": "http://127.0.0.1:1/"}, "prod": {}, "demo": {}}})
    return {**os.environ, **env, "PATH": f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}"}


@pytest.mark.parametrize("words, expected", [
    (["afcli", "--env", "d"], ["demo", "dev"]),
    (["afcli", "get", "--env", ""], ["demo", "dev", "prod"]),
    (["afcli", "env", "show", "p"], ["prod"]),
    (["afcli", "env", "s"], ["show"]),
])
def test_bash_completes_environment_names_from_the_config(cfg, tmp_path, words, expected):
    script = (f"source {COMPLETIONS / 'afcli.bash'}; COMP_WORDS=({' '.join(repr(w) for w in words)}); "
              f"COMP_CWORD={len(words) - 1}; _afcli; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    done = subprocess.run(["bash", "-c", script], capture_output=True, env=completion_env(cfg, tmp_path), timeout=30)
    assert sorted(done.stdout.decode().split()) == expected, done


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_environment_names_from_the_config(cfg, tmp_path):
    env = completion_env(cfg, tmp_path)
    for line, expected in [("afcli --env ", ["demo", "dev", "prod"]), ("afcli env show d", ["demo", "dev"])]:
        command = f"source {COMPLETIONS / 'afcli.fish'}; complete -C '{line}'"
        done = subprocess.run(["fish", "--no-config", "-c", command], capture_output=True, env=env, timeout=30)
        names = sorted(entry.split("\t")[0] for entry in done.stdout.decode().splitlines())
        assert names == expected, done
