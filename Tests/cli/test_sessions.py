"""Sessions, cookie jars, netrc and credentials across redirects, black box.

Servers: httpbin and the in-process loopback server, both on 127.0.0.1; `localhost` serves as
"another host" (it resolves to the same machine but is a different cookie domain and netrc entry).
HTTPie round trips run the `http` command when it is installed (make test installs it).
"""

import json
import os
import shutil
import stat
import subprocess

import pytest

from conftest import Response, base_env, run


@pytest.fixture
def config(tmp_path):
    """A private config directory and a netrc-free home for one test."""
    home = tmp_path / "home"
    home.mkdir()
    return {"AFCLI_CONFIG_DIR": str(tmp_path / "cfg"), "HOME": str(home)}


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def setting_cookie(request):
    if request.target.startswith("/set"):
        return Response(headers=[("Set-Cookie", "sid=abc; Path=/"), ("Content-Type", "application/json")])
    return Response()


# --- sessions -------------------------------------------------------------------------------


def test_named_session_keeps_httpbin_cookie(httpbin, config, tmp_path):
    port = httpbin.rsplit(":", 1)[1]
    first = run(["--session=dev", f"{httpbin}/cookies/set/sid/abc", "--no-check-status"], env=config)
    assert first.code == 0, first
    session = tmp_path / "cfg" / "sessions" / f"127.0.0.1_{port}" / "dev.json"
    assert mode(session) == 0o600
    assert mode(session.parent) == 0o700 and mode(tmp_path / "cfg" / "sessions") == 0o700
    second = run(["--session=dev", f"{httpbin}/cookies"], env=config)
    assert json.loads(second.stdout)["cookies"] == {"sid": "abc"}
    stored = json.loads(session.read_text())
    assert stored["cookies"] == [
        {"domain": "127.0.0.1", "expires": None, "name": "sid", "path": "/", "secure": False, "value": "abc"}
    ]
    assert set(stored["__meta__"]) == {"about", "help", "httpie"}


def test_session_reuses_headers_and_basic_and_digest_auth(httpbin, config):
    assert run(["--session=b", f"{httpbin}/basic-auth/u/p", "-a", "u:p", "X-Trace:1"], env=config).code == 0
    assert run(["--session=b", f"{httpbin}/basic-auth/u/p"], env=config).code == 0
    headers = json.loads(run(["--session=b", f"{httpbin}/headers"], env=config).stdout)["headers"]
    assert headers["X-Trace"] == "1"
    digest = ["-A", "digest", "-a", "u:p"]
    assert run(["--session=d", f"{httpbin}/digest-auth/auth/u/p", *digest], env=config).code == 0
    assert run(["--session=d", f"{httpbin}/digest-auth/auth/u/p"], env=config).code == 0


def test_session_store_auth_no_keeps_credentials_out(httpbin, config, tmp_path):
    path = tmp_path / "s.json"
    args = [f"--session={path}", "--session-store-auth=no"]
    assert run([*args, f"{httpbin}/basic-auth/u/p", "-a", "u:p"], env=config).code == 0
    assert json.loads(path.read_text())["auth"] == {"raw_auth": None, "type": None}
    assert run([f"--session={path}", f"{httpbin}/basic-auth/u/p"], env=config).code == 4


def test_read_only_session_is_used_but_not_written(server, config, tmp_path):
    server.handler = setting_cookie
    path = tmp_path / "ro.json"
    path.write_text('{"headers": [{"name": "X-Kept", "value": "1"}], "cookies": []}')
    before = path.read_text()
    result = run([f"--session-read-only={path}", f"{server.url}/set", "X-New:2"], env=config)
    assert result.code == 0, result
    assert server.requests[0].header("X-Kept") == "1"
    assert path.read_text() == before
    assert not (tmp_path / "cfg").exists()


def test_typed_cookie_is_bound_to_the_request_host(server, config, tmp_path):
    path = tmp_path / "s.json"
    assert run([f"--session={path}", f"{server.url}/a", "Cookie:k=v"], env=config).code == 0
    assert run([f"--session={path}", f"{server.url}/b"], env=config).code == 0
    assert server.requests[1].header("Cookie") == "k=v"
    other = f"http://localhost:{server.port}/c"
    assert run([f"--session={path}", other], env=config).code == 0
    assert server.requests[2].header("Cookie") is None
    cookie = json.loads(path.read_text())["cookies"][0]
    assert (cookie["name"], cookie["domain"]) == ("k", "127.0.0.1")


def test_malformed_session_names_file_line_column_and_sends_nothing(server, config, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"headers": [],\n  "cookies": ]}')
    result = run([f"--session={path}", server.url], env=config)
    assert result.code == 2
    assert result.err == f"afcli: error: {path}:2:14: session file is not valid JSON: expected a value\n"
    assert server.requests == []


def test_bad_session_name_is_a_usage_error(server, config):
    result = run(["--session=a b", server.url], env=config)
    assert result.code == 2 and "invalid session name" in result.err
    assert server.requests == []


@pytest.mark.parametrize("name", [".", ".."])
def test_dot_session_names_are_refused(server, config, tmp_path, name):
    # They would make the hidden files ..json and ...json in the host's session directory.
    result = run([f"--session={name}", server.url], env=config)
    assert result.code == 2, result
    assert result.err == f'afcli: error: invalid session name "{name}": it would name a hidden file; ' \
        "use a name with a letter or digit\n"
    assert server.requests == [] and not (tmp_path / "cfg").exists()


def test_no_session_touches_no_config_directory(server, config, tmp_path):
    assert run([server.url, "--session=x", "--no-session"], env=config).code == 0
    assert not (tmp_path / "cfg").exists()


def test_unchanged_private_session_is_not_rewritten_but_a_readable_one_is(server, config, tmp_path):
    path = tmp_path / "s.json"
    assert run([f"--session={path}", server.url, "X-A:1"], env=config).code == 0
    before = os.stat(path)
    assert run([f"--session={path}", server.url], env=config).code == 0
    after = os.stat(path)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    os.chmod(path, 0o644)
    assert run([f"--session={path}", server.url], env=config).code == 0
    assert mode(path) == 0o600 and os.stat(path).st_ino != before.st_ino


# --- cookie jar -----------------------------------------------------------------------------


def test_cookie_jar_round_trip_with_curl(server, config, tmp_path):
    server.handler = setting_cookie
    jar = tmp_path / "jar.txt"
    assert run(["--cookie-jar", str(jar), f"{server.url}/set"], env=config).code == 0
    assert mode(jar) == 0o600
    lines = [line for line in jar.read_text().splitlines() if line and not line.startswith("#")]
    assert lines == ["127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc"]
    written = os.stat(jar)
    assert run(["--cookie-jar", str(jar), f"{server.url}/again"], env=config).code == 0
    assert server.requests[1].header("Cookie") == "sid=abc"
    # Nothing changed: the jar is not rewritten.
    assert os.stat(jar).st_mtime_ns == written.st_mtime_ns and os.stat(jar).st_ino == written.st_ino
    # A Cookie item joins the jar's cookies in one header, bound to this host.
    assert run(["--cookie-jar", str(jar), f"{server.url}/typed", "Cookie:t=1"], env=config).code == 0
    assert server.requests[2].header_all("Cookie") == ["sid=abc; t=1"]
    assert "127.0.0.1\tFALSE\t/\tFALSE\t0\tt\t1" in jar.read_text()
    if shutil.which("curl"):
        curl_jar = tmp_path / "curl.txt"
        curl_jar.write_text("127.0.0.1\tFALSE\t/\tFALSE\t0\tfromcurl\t1\n")
        assert run(["--cookie-jar", str(curl_jar), f"{server.url}/x"], env=config).code == 0
        assert server.requests[3].header("Cookie") == "fromcurl=1"


@pytest.mark.parametrize("store", ["session", "jar"])
def test_a_symbolic_link_is_refused_as_session_and_as_cookie_jar_alike(server, config, tmp_path, store):
    target = tmp_path / "target.txt"
    target.write_text("# Netscape HTTP Cookie File\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    option = [f"--session={link}"] if store == "session" else ["--cookie-jar", str(link)]
    result = run([*option, server.url], env=config)
    assert result.code == 2 and "symbolic link" in result.err and result.err.count("\n") == 1, result
    assert server.requests == [] and link.is_symlink()
    assert target.read_text() == "# Netscape HTTP Cookie File\n"


# --- netrc ----------------------------------------------------------------------------------


def write_netrc(tmp_path, text, permissions=0o600):
    path = tmp_path / "netrc"
    path.write_text(text)
    os.chmod(path, permissions)
    return path


def test_netrc_is_used_without_credentials_and_shown_by_verbose(server, config, tmp_path):
    netrc = write_netrc(tmp_path, "machine 127.0.0.1 login nu password np\n")
    env = {**config, "NETRC": str(netrc)}
    result = run(["-v", server.url], env=env)
    assert server.requests[0].header("Authorization") == "Basic bnU6bnA="
    assert "Authorization: Basic <redacted>" in result.out and "bnU6bnA=" not in result.out
    assert result.err == ""
    result = run(["-v", "--show-secrets", server.url], env=env)
    assert "Authorization: Basic bnU6bnA=" in result.out
    run(["-a", "me:pw", server.url], env=env)
    assert server.requests[2].header("Authorization") == "Basic bWU6cHc="
    run(["--ignore-netrc", server.url], env=env)
    assert server.requests[3].header("Authorization") is None
    run([f"http://localhost:{server.port}/"], env=env)
    assert server.requests[4].header("Authorization") is None


def test_netrc_from_home_and_never_written_into_a_session(server, config, tmp_path):
    home_netrc = os.path.join(config["HOME"], ".netrc")
    with open(home_netrc, "w") as f:
        f.write("machine 127.0.0.1 login hu password hp\n")
    os.chmod(home_netrc, 0o600)
    path = tmp_path / "s.json"
    assert run([f"--session={path}", server.url], env=config).code == 0
    assert server.requests[0].header("Authorization") == "Basic aHU6aHA="
    assert "hp" not in path.read_text()


def test_download_takes_netrc_credentials_and_refuses_sessions(server, config, tmp_path):
    netrc = write_netrc(tmp_path, "machine 127.0.0.1 login nu password np\n")
    env = {**config, "NETRC": str(netrc)}
    target = tmp_path / "file.bin"
    result = run(["download", "-o", str(target), server.url + "/f"], env=env)
    assert result.code == 0, result
    assert server.requests[0].header("Authorization") == "Basic bnU6bnA="
    for option in ([f"--session={tmp_path / 's.json'}"], ["--cookie-jar", str(tmp_path / "jar.txt")]):
        refused = run(["download", *option, "-o", str(tmp_path / "other.bin"), server.url + "/f"], env=env)
        assert refused.code == 2, refused
        assert refused.err == (f"afcli: error: {option[0].split('=')[0]} does not apply to afcli download "
                               "(a download keeps no session or cookies)\n")
    assert len(server.requests) == 1 and not (tmp_path / "other.bin").exists()


def test_readable_netrc_with_password_draws_a_warning(server, config, tmp_path):
    netrc = write_netrc(tmp_path, "machine 127.0.0.1 login nu password np\n", 0o644)
    result = run([server.url], env={**config, "NETRC": str(netrc)})
    assert result.code == 0
    assert result.err == f"afcli: warning: {netrc} holds passwords and can be read by others (mode 644); " \
        f"run: chmod 600 {netrc}\n"


# --- redirects ------------------------------------------------------------------------------


def redirecting_to(target):
    return lambda request: Response(status=302, reason="Found", headers=[("Location", target)], body=b"")


def test_redirect_to_another_port_drops_credentials_unless_trusted(config):
    from loopback import LoopbackServer

    origin, target = LoopbackServer(), LoopbackServer()
    try:
        origin.handler = redirecting_to(f"{target.url}/landed")
        args = ["--follow", origin.url, "-a", "u:p", "Cookie:c=1"]
        assert run(args, env=config).code == 0
        assert target.requests[0].header("Authorization") is None
        assert target.requests[0].header("Cookie") is None
        assert run([*args, "--location-trusted"], env=config).code == 0
        assert target.requests[1].header("Authorization") == "Basic dTpw"
        assert target.requests[1].header("Cookie") == "c=1"
    finally:
        origin.stop()
        target.stop()


def test_httpbin_redirect_to_another_port_carries_no_credentials(httpbin, server, config):
    url = f"{httpbin}/redirect-to?url={server.url}/landed"
    assert run(["--follow", url, "-a", "u:p"], env=config).code == 0
    assert server.requests[0].header("Authorization") is None


def test_session_cookies_and_netrc_follow_their_own_hosts_on_redirect(server, config, tmp_path):
    netrc = write_netrc(tmp_path, "machine 127.0.0.1 login nu password np\n")
    env = {**config, "NETRC": str(netrc)}
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"cookies": [
        {"name": "sid", "value": "1", "domain": "127.0.0.1", "path": "/", "expires": None, "secure": False}]}))
    other = f"http://localhost:{server.port}/landed"
    server.handler = lambda r: redirecting_to(other)(r) if r.target == "/" else Response()
    assert run(["--follow", "--location-trusted", f"--session={path}", server.url], env=env).code == 0
    first, landed = server.requests
    assert first.header("Cookie") == "sid=1" and first.header("Authorization") == "Basic bnU6bnA="
    assert landed.header("Cookie") is None and landed.header("Authorization") is None


# --- HTTPie round trips ---------------------------------------------------------------------

needs_httpie = pytest.mark.skipif(shutil.which("http") is None, reason="HTTPie is not installed")


def httpie(args, tmp_path):
    env = base_env({"HTTPIE_CONFIG_DIR": str(tmp_path / "httpie")})
    return subprocess.run(["http", "--ignore-stdin", *args], capture_output=True, env=env, timeout=60)


@needs_httpie
def test_httpie_session_works_in_afcli(server, config, tmp_path):
    server.handler = setting_cookie
    path = tmp_path / "h.json"
    done = httpie([f"--session={path}", "-a", "u:p", f"{server.url}/set", "X-H:1"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert run([f"--session={path}", f"{server.url}/next"], env=config).code == 0
    sent = server.requests[1]
    assert sent.header("Cookie") == "sid=abc"
    assert sent.header("Authorization") == "Basic dTpw"
    assert sent.header("X-H") == "1"


@needs_httpie
def test_afcli_session_works_in_httpie(server, config, tmp_path):
    server.handler = setting_cookie
    path = tmp_path / "a.json"
    assert run([f"--session={path}", "-a", "u:p", f"{server.url}/set", "X-A:1", "Cookie:typed=t"], env=config).code == 0
    done = httpie([f"--session={path}", f"{server.url}/next"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert b"warning" not in done.stderr
    sent = server.requests[1]
    assert sorted(sent.header("Cookie").split("; ")) == ["sid=abc", "typed=t"]
    assert sent.header("Authorization") == "Basic dTpw"
    assert sent.header("X-A") == "1"


def test_pre31_httpie_session_is_read_and_upgraded(server, config, tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({
        "__meta__": {"about": "HTTPie session file", "help": "https://httpie.org/doc#sessions", "httpie": "2.3.0"},
        "auth": {"password": "pw", "type": "basic", "username": "olduser"},
        "cookies": {"legacy": {"expires": None, "path": "/", "secure": False, "value": "L1"}},
        "headers": {"X-Old": "1"},
    }))
    os.chmod(path, 0o644)
    assert run([f"--session={path}", server.url], env=config).code == 0
    sent = server.requests[0]
    assert sent.header("Cookie") == "legacy=L1"
    assert sent.header("X-Old") == "1"
    assert sent.header("Authorization") == "Basic b2xkdXNlcjpwdw=="
    upgraded = json.loads(path.read_text())
    assert upgraded["cookies"][0]["domain"] == "127.0.0.1"
    assert upgraded["headers"] == [{"name": "X-Old", "value": "1"}]
    assert mode(path) == 0o600
