"""An option that belongs to one command, by the way it arrives: in the config's default_options it
is passed over by every other command (which then works as without it); typed on another command's
line it is refused (exit status 2, nothing sent); on a line of `afcli run -` it is refused with the
line's number. One test per way, each command tried."""

import json

import pytest

from conftest import run

# Options of one command, each with the words that give it and the commands whose scope has it.
OPTIONS = {
    "--retry": (["--retry", "3"], {"request", "download", "run"}),
    "--retry-max-time": (["--retry-max-time", "5"], {"request", "run"}),
    "--probe": (["--probe"], {"reachability"}),
    "--parallel": (["--parallel", "2"], {"run"}),
    "--session": (["--session", "s1"], {"request", "run"}),
    "--write-out": (["--write-out", "%{http_code}"], {"request"}),
    "--offline": (["--offline"], {"request"}),
}

COMMANDS = ["request", "download", "run", "pin", "reachability", "cache", "env"]

# Messages name a plain request "request" and the config's commands "env".
WORDS = {"request": "request", "download": "download", "run": "run", "pin": "pin",
         "reachability": "reachability", "cache": "cache", "env": "env"}


def cases():
    for option, (_, scope) in OPTIONS.items():
        for command in COMMANDS:
            if command not in scope:
                yield pytest.param(option, command, id=f"{option[2:]}-{command}")


def config_env(tmp_path, default_options):
    directory = tmp_path / "config"
    directory.mkdir()
    (directory / "config.json").write_text(json.dumps({"default_options": default_options}))
    (directory / "config.json").chmod(0o600)
    return {"AFCLI_CONFIG_DIR": str(directory), "HOME": str(tmp_path),
            "XDG_CACHE_HOME": str(tmp_path / "cache")}


def command_line(command, server, tmp_path, extra=()):
    """The arguments and standard input that run `command` against `server`, with `extra`
    options typed."""
    url = server.url
    if command == "request":
        return ["get", f"{url}/request", *extra], None
    if command == "download":
        return ["download", *extra, "-o", str(tmp_path / "saved"), f"{url}/download"], None
    if command == "run":
        # A line with an option of its own is parsed over the run's options.
        return ["run", "-", *extra], f"get {url}/run\nget {url}/line --timeout 5\n".encode()
    if command == "pin":
        # Nothing listens on port 1: the handshake fails to connect, after the options are read.
        return ["pin", *extra, "https://127.0.0.1:1/"], None
    if command == "reachability":
        return ["reachability", *extra, f"127.0.0.1:{server.port}"], None
    if command == "cache":
        return ["cache", "ls", *extra], None
    return ["env", *extra], None


@pytest.mark.parametrize("option, command", cases())
def test_in_default_options_it_is_passed_over_by_the_other_commands(server, tmp_path, option, command):
    words, _ = OPTIONS[option]
    env = config_env(tmp_path, words)
    args, stdin = command_line(command, server, tmp_path)
    result = run(args, input=stdin, env=env, cwd=tmp_path)
    assert "does not apply" not in result.err and "only" not in result.err, result
    if command == "pin":
        assert result.code == 8 and "failed to connect" in result.err, result
        return
    assert result.code == 0, result
    sent = [r.target for r in server.requests]
    if command == "request":
        assert sent == ["/request"]
        assert not (tmp_path / "config" / "sessions").exists()
    elif command == "download":
        assert sent == ["/download"] and (tmp_path / "saved").exists()
    elif command == "run":
        assert sorted(sent) == ["/line", "/run"]
        assert [json.loads(line)["status"] for line in result.out.splitlines()] == [200, 200]


@pytest.mark.parametrize("option, command", cases())
def test_typed_on_another_command_it_is_refused_and_nothing_is_sent(server, tmp_path, option, command):
    words, _ = OPTIONS[option]
    args, stdin = command_line(command, server, tmp_path, extra=words)
    result = run(args, input=stdin, env={"XDG_CACHE_HOME": str(tmp_path / "cache")}, cwd=tmp_path)
    assert result.code == 2, result
    assert result.stdout == b""
    assert result.err.startswith(f"afcli: error: {option} does not apply to afcli {WORDS[command]} ("), result.err
    assert len(result.err.splitlines()) == 1, result.err
    assert server.requests == []
    assert not (tmp_path / "saved").exists()


@pytest.mark.parametrize("option", OPTIONS)
def test_on_a_line_of_a_run_it_is_refused_with_the_line(server, tmp_path, option):
    words, _ = OPTIONS[option]
    line = " ".join(f"'{word}'" for word in words)
    result = run(["run", "-"], input=f"get {server.url}/a\nget {server.url}/b {line}\n".encode(), cwd=tmp_path)
    assert result.code == 2, result
    assert result.stdout == b""
    assert result.err == (f"afcli: error: stdin:2: {option} applies to the whole run: give it on the afcli run "
                          "command line, not on a request's line\n"), result.err
    assert server.requests == []


def test_a_default_option_still_applies_where_it_belongs_and_typed_words_beat_it(server, tmp_path):
    env = config_env(tmp_path, ["--write-out", "default:%{http_code}", "--parallel", "2"])
    plain = run(["get", f"{server.url}/a"], env=env)
    assert plain.code == 0 and plain.out.endswith("default:200"), plain
    typed = run(["get", f"{server.url}/b", "--write-out", "typed:%{http_code}"], env=env)
    assert typed.code == 0 and typed.out.endswith("typed:200") and "default:" not in typed.out, typed
    undone = run(["get", f"{server.url}/c", "--no-write-out"], env=env)
    assert undone.code == 0 and "default:" not in undone.out, undone


@pytest.mark.parametrize("default_options, typed, expected", [
    pytest.param(["--encrypt-cmd", "sed s/^/default:/"], ["--encrypt-cmd", "sed s/^/typed:/"], "typed:",
                 id="typed"),
    pytest.param(["--encrypt-cmd", "sed s/^/default:/"], [], "default:", id="default_options"),
    pytest.param([], [], "env:", id="environment"),
    pytest.param([], ["--no-encrypt"], "", id="typed-no-encrypt-over-the-environment"),
])
def test_a_setting_comes_from_typed_then_default_options_then_the_environment(
        tmp_path, default_options, typed, expected):
    config = {"default_options": default_options, "environments": {"dev": {"encrypt": "sed s/^/env:/"}}}
    directory = tmp_path / "config"
    directory.mkdir()
    (directory / "config.json").write_text(json.dumps(config))
    (directory / "config.json").chmod(0o600)
    env = {"AFCLI_CONFIG_DIR": str(directory), "HOME": str(tmp_path)}
    result = run(["--env", "dev", "--offline", "--print=B", "--raw", "secret", *typed, "post",
                  "http://127.0.0.1:9/x"], env=env)
    assert result.code == 0, result
    assert result.out.strip() == expected + "secret", result
