"""Options typed on a command they would do nothing for are refused, not silently ignored;
the config's default_options apply where they mean something. Also what a run and a download
take over from single requests: netrc and --location-trusted."""

import base64
import json

import pytest

from conftest import run
from loopback import Response


def refused(result, option, command):
    assert result.code == 2, result
    assert result.stdout == b""
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith(f"afcli: error: {option} does not apply to afcli {command} ("), result.err


@pytest.mark.parametrize("options, option", [
    (["--cache-transition-output", "t.txt"], "--cache-transition-output"),
    (["--local"], "--local"),
    (["-v"], "--verbose"),
    (["--print=hb"], "--print"),
    (["--pretty=all"], "--pretty"),
    (["--drop-nulls"], "--drop-nulls"),
    (["-w", "%{http_code}"], "--write-out"),
    (["--meta=json"], "--meta"),
    (["--stream"], "--stream"),
    (["--events=json"], "--events"),
    (["--throttle", "1k"], "--throttle"),
    (["--session-store-auth", "no"], "--session-store-auth"),
    (["-q"], "--quiet"),
    (["--all"], "--all"),
])
def test_run_refuses_what_it_would_ignore_and_sends_nothing(server, tmp_path, options, option):
    result = run(["run", "-", *options], input=f"get {server.url}/x\n".encode(), cwd=tmp_path)
    refused(result, option, "run")
    assert server.requests == []
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("options, option", [
    (["--json"], "--json"),
    (["--encrypt-cmd", "cat"], "--encrypt-cmd"),
    (["--pretty=all"], "--pretty"),
    (["--accept-type", "text/html"], "--accept-type"),
    (["--accept-status", "200"], "--accept-status"),
    (["--cache"], "--cache"),
    (["--cache-ttl", "1h"], "--cache-ttl"),
    (["--cache-namespace", "one"], "--cache-namespace"),
    (["--oauth2-token-url", "http://127.0.0.1:9/token"], "--oauth2-token-url"),
    (["--oauth2-scope", "read"], "--oauth2-scope"),
    (["--envelope"], "--envelope"),
    (["--decrypt-cmd", "cat"], "--decrypt-cmd"),
    (["--log=cj"], "--log"),
    (["--stream"], "--stream"),
    (["--events", "json"], "--events"),
    (["--parallel", "2"], "--parallel"),
])
def test_download_refuses_what_it_would_ignore_and_saves_nothing(server, tmp_path, options, option):
    result = run(["download", *options, f"{server.url}/file.txt"], cwd=tmp_path)
    refused(result, option, "download")
    assert server.requests == []
    assert list(tmp_path.iterdir()) == []


def test_a_request_refuses_the_options_of_other_commands(server):
    refused(run(["get", f"{server.url}/x", "--all"]), "--all", "request")
    refused(run(["get", f"{server.url}/x", "--cache-max-size", "1m"]), "--cache-max-size", "request")
    assert server.requests == []


def test_undoing_an_option_is_never_refused(server, tmp_path):
    result = run(["run", "-", "--no-pretty", "--no-cache", "--no-log"], input=f"get {server.url}/x\n".encode())
    assert result.code == 0, result
    assert len(server.requests) == 1


def config_env(tmp_path, config):
    directory = tmp_path / "config"
    directory.mkdir()
    (directory / "config.json").write_text(json.dumps(config))
    (directory / "config.json").chmod(0o600)
    return {"AFCLI_CONFIG_DIR": str(directory), "HOME": str(tmp_path)}


def test_default_options_a_command_cannot_use_are_passed_over(server, tmp_path):
    env = config_env(tmp_path, {"default_options": ["--pretty=all", "--log=cj", "--cache", "--json"]})
    batch = run(["run", "-"], input=f"get {server.url}/a\n".encode(), env=env)
    assert batch.code == 0, batch
    assert json.loads(batch.out)["status"] == 200
    saved = run(["download", "-o", str(tmp_path / "f"), f"{server.url}/b"], env=env)
    assert saved.code == 0, saved
    assert [r.target for r in server.requests] == ["/a", "/b"]
    # Typed, the same option is refused.
    refused(run(["run", "-", "--pretty=all"], input=f"get {server.url}/c\n".encode(), env=env), "--pretty", "run")


def basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def test_a_run_takes_credentials_from_netrc_as_a_single_request_does(server, tmp_path):
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login ann password pw\n")
    netrc.chmod(0o600)
    env = {"NETRC": str(netrc)}
    source = f"get {server.url}/a\nget {server.url}/b -a bob:x\nget {server.url}/c --ignore-netrc\n".encode()
    result = run(["run", "-"], input=source, env=env)
    assert result.code == 0, result
    sent = {r.target: r.header("Authorization") for r in server.requests}
    assert sent == {"/a": basic("ann", "pw"), "/b": basic("bob", "x"), "/c": None}
    server.requests.clear()
    ignored = run(["run", "-", "--ignore-netrc"], input=f"get {server.url}/d\n".encode(), env=env)
    assert ignored.code == 0, ignored
    assert server.requests[0].header("Authorization") is None


def redirecting_to_other_host(server):
    """/r redirects to the same server under the name localhost, which is another host."""
    def handler(request):
        if request.target == "/r":
            return Response(status=302, reason="Found",
                            headers=[("Location", f"http://localhost:{server.port}/t")], body=b"")
        return Response(body=b"ok")
    server.handler = handler


@pytest.mark.parametrize("command", ["run", "download"])
def test_location_trusted_sends_credentials_to_another_host(server, tmp_path, command):
    redirecting_to_other_host(server)
    resolve = f"--resolve=localhost:{server.port}:127.0.0.1"

    def go(*extra):
        server.requests.clear()
        if command == "run":
            result = run(["run", "-", "--follow", resolve, "-a", "ann:pw", *extra],
                         input=f"get {server.url}/r\n".encode())
        else:
            result = run(["download", resolve, "-a", "ann:pw", *extra, "-o", str(tmp_path / "f"),
                          "--overwrite", f"{server.url}/r"])
        assert result.code == 0, result
        return [r.header("Authorization") for r in server.requests]

    assert go() == [basic("ann", "pw"), None]
    assert go("--location-trusted") == [basic("ann", "pw"), basic("ann", "pw")]


@pytest.mark.parametrize("option", ["--cache-transition-output=t", "--local", "--throttle=1k"])
def test_a_line_of_a_run_cannot_bring_in_what_the_run_refuses(server, option):
    result = run(["run", "-"], input=f"get {server.url}/a\nget {server.url}/b {option}\n".encode())
    assert result.code == 2, result
    name = option.split("=")[0]
    assert result.stdout == b""
    assert len(result.err.splitlines()) == 1, result.err
    assert result.err.startswith(f"afcli: error: stdin:2: {name} does not apply to afcli run ("), result.err
    assert server.requests == []


@pytest.mark.parametrize("args, message", [
    (["pin", "https://127.0.0.1:9/", "--pretty=all"],
     "--pretty does not apply to afcli pin (it sends no request, only makes a TLS handshake)"),
    (["pin", "https://127.0.0.1:9/", "--ipv4"],
     "--ipv4 does not apply to afcli pin (it sends no request, only makes a TLS handshake)"),
    (["reachability", "127.0.0.1", "--follow"],
     "--follow does not apply to afcli reachability (it sends no request; it looks up the route, "
     "and connects only with --probe)"),
    (["cache", "ls", "--json"],
     "--json does not apply to afcli cache (it only lists, shows, removes or prunes stored responses)"),
    (["env", "--follow"], "--follow does not apply to afcli env (it only reads the config file)"),
    (["config", "path", "--json"], "--json does not apply to afcli config path (it only reads the config file)"),
])
def test_the_other_commands_refuse_what_they_would_ignore(args, message):
    result = run(args)
    assert result.code == 2, result
    assert result.stdout == b""
    assert result.err == f"afcli: error: {message}\n"
