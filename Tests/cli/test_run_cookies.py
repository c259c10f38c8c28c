"""Cookies through `afcli run`, black box: one cookie engine per run (libcurl's), so a cookie set by
one request is sent by the requests after it, each only to its own domain; seeded from --session and
--cookie-jar and written back when the run ends; `# @no-cookie-jar` keeps a request out of it.

The loopback server sets `sid` on /login and answers /me with 200 only when it comes back. `localhost`
is "another host": the same server, another cookie domain.
"""

import json
import os
import stat

import pytest

from conftest import Response, base_env, run


def login_server(request):
    if request.target.startswith("/login"):
        return Response(headers=[("Set-Cookie", "sid=s3cret; Path=/"), ("Content-Length", "2")], body=b"ok")
    if request.target.startswith("/page"):
        # A cacheable page that differs for a logged-in user.
        user = b"user" if "sid=s3cret" in (request.header("Cookie") or "") else b"anon"
        return Response(headers=[("Content-Type", "text/plain"), ("Cache-Control", "max-age=600")], body=user)
    if "sid=s3cret" in (request.header("Cookie") or ""):
        return Response()
    return Response(status=401, reason="Unauthorized")


@pytest.fixture
def site(server):
    server.handler = login_server
    return server


@pytest.fixture
def config(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    return base_env({"AFCLI_CONFIG_DIR": str(tmp_path / "cfg"), "HOME": str(home),
                     "XDG_CACHE_HOME": str(tmp_path / "cache")})


def statuses(result):
    return {json.loads(line)["name"]: json.loads(line)["status"] for line in result.out.splitlines()}


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def cookies_sent(server, target):
    return [r.header("Cookie") for r in server.requests if r.target == target]


def test_login_then_call_in_a_http_file(site, tmp_path, config):
    source = tmp_path / "api.http"
    source.write_text(f"### login\nGET {site.url}/login\n\n### me\nGET {site.url}/me\n")
    result = run(["run", str(source)], env=config)
    assert result.code == 0, result
    assert statuses(result) == {"login": 200, "me": 200}
    assert cookies_sent(site, "/me") == ["sid=s3cret"]


def test_login_then_call_on_run_lines(site, config):
    result = run(["run", "-"], input=f"get {site.url}/login\nget {site.url}/me\n".encode(), env=config)
    assert result.code == 0, result
    assert cookies_sent(site, "/me") == ["sid=s3cret"]


@pytest.mark.parametrize("parallel, marker", [("1", ""), ("4", "# @first\n")])
def test_calls_after_a_login_that_runs_first_all_carry_its_cookie(site, tmp_path, config, parallel, marker):
    calls = "".join(f"###\nGET {site.url}/me\n\n" for _ in range(8))
    source = tmp_path / "api.http"
    source.write_text(f"{marker}GET {site.url}/login\n\n{calls}")
    result = run(["run", str(source), "--parallel", parallel], env=config)
    assert result.code == 0, result
    assert cookies_sent(site, "/me") == ["sid=s3cret"] * 8


def test_first_names_the_login_on_run_lines_in_parallel(site, config, cpus):
    lines = f"get {site.url}/login\n" + f"get {site.url}/me\n" * 6
    result = run(["run", "-", "--parallel", "4", "--first", "line-1"], input=lines.encode(), env=config, cpus=cpus)
    assert result.code == 0, result
    assert cookies_sent(site, "/me") == ["sid=s3cret"] * 6


def test_a_cookie_is_never_sent_to_another_host(site, config):
    lines = f"get {site.url}/login\nget http://localhost:{site.port}/me\n"
    result = run(["run", "-", "--keep-going"], input=lines.encode(), env=config)
    assert result.code == 4, result
    assert cookies_sent(site, "/me") == [None]


def test_no_cookie_jar_request_neither_sends_nor_stores(site, tmp_path, config):
    source = tmp_path / "api.http"
    source.write_text(
        f"### quiet-login\n# @no-cookie-jar\nGET {site.url}/login\n\n### before\nGET {site.url}/me\n\n"
        f"### login\nGET {site.url}/login\n\n### anonymous\n# @no-cookie-jar\nGET {site.url}/me\n\n"
        f"### after\nGET {site.url}/me\n")
    result = run(["run", str(source), "--keep-going"], env=config)
    assert statuses(result) == {"quiet-login": 200, "before": 401, "login": 200, "anonymous": 401, "after": 200}
    assert cookies_sent(site, "/me") == [None, None, "sid=s3cret"]


def test_cookie_jar_seeds_the_run_and_is_written_back(site, tmp_path, config):
    jar = tmp_path / "jar.txt"
    jar.write_text(f"127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\ts3cret\n")
    jar.chmod(0o600)
    first = run(["run", "-", "--cookie-jar", str(jar)], input=f"get {site.url}/me\n".encode(), env=config)
    assert first.code == 0, first
    assert cookies_sent(site, "/me") == ["sid=s3cret"]
    empty = tmp_path / "new.txt"
    second = run(["run", "-", "--cookie-jar", str(empty)], input=f"get {site.url}/login\n".encode(), env=config)
    assert second.code == 0, second
    assert "127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\ts3cret" in empty.read_text().splitlines()
    assert mode(empty) == 0o600


def session_json(cookies, headers=()):
    return json.dumps({"__meta__": {"about": "HTTPie session file", "httpie": "3.2.2"},
                       "auth": {"type": None, "raw_auth": None},
                       "cookies": cookies, "headers": [{"name": n, "value": v} for n, v in headers]})


def test_session_file_seeds_the_run_and_gets_its_new_cookies(site, tmp_path, config):
    session = tmp_path / "s.json"
    session.write_text(session_json([{"name": "sid", "value": "s3cret", "domain": "127.0.0.1", "path": "/",
                                      "secure": False, "expires": None}]))
    session.chmod(0o600)
    result = run(["run", "-", "--session", str(session)], input=f"get {site.url}/me\n".encode(), env=config)
    assert result.code == 0, result
    fresh = tmp_path / "fresh.json"
    result = run(["run", "-", "--session", str(fresh)], input=f"get {site.url}/login\n".encode(), env=config)
    assert result.code == 0, result
    assert [(c["name"], c["value"], c["domain"]) for c in json.loads(fresh.read_text())["cookies"]] == [
        ("sid", "s3cret", "127.0.0.1")]
    assert mode(fresh) == 0o600


def test_named_session_lives_under_the_first_requests_host(site, tmp_path, config):
    lines = f"get {site.url}/login\nget {site.url}/me\n".encode()
    assert run(["run", "-", "--session", "dev"], input=lines, env=config).code == 0
    stored = tmp_path / "cfg" / "sessions" / f"127.0.0.1_{site.port}" / "dev.json"
    assert [c["name"] for c in json.loads(stored.read_text())["cookies"]] == ["sid"]
    # The next run starts logged in.
    again = run(["run", "-", "--session", "dev"], input=f"get {site.url}/me\n".encode(), env=config)
    assert again.code == 0, again


def test_read_only_session_is_not_written(site, tmp_path, config):
    session = tmp_path / "ro.json"
    result = run(["run", "-", "--session-read-only", str(session)],
                 input=f"get {site.url}/login\nget {site.url}/me\n".encode(), env=config)
    assert result.code == 0, result
    assert not session.exists()


def test_session_with_headers_is_refused_and_nothing_is_sent(site, tmp_path, config):
    session = tmp_path / "h.json"
    session.write_text(session_json([], headers=[("X-Token", "t")]))
    session.chmod(0o600)
    result = run(["run", "-", "--session", str(session)], input=f"get {site.url}/me\n".encode(), env=config)
    assert result.code == 2, result
    assert result.err.startswith("afcli: error: --session: ") and "stores headers" in result.err, result
    assert site.requests == []


def test_cache_key_sees_a_cookie_set_earlier_in_the_run(site, config):
    lines = f"get {site.url}/page\nget {site.url}/login\nget {site.url}/page\n".encode()
    result = run(["run", "-", "--cache"], input=lines, env=config)
    assert result.code == 0, result
    # The page stored for no cookie does not answer the request that carries one.
    assert cookies_sent(site, "/page") == [None, "sid=s3cret"]
    # A later run with the same cookie is answered from the store.
    jar_lines = f"get {site.url}/login\nget {site.url}/page\n".encode()
    again = run(["run", "-", "--cache"], input=jar_lines, env=config)
    assert again.code == 0, again
    assert cookies_sent(site, "/page") == [None, "sid=s3cret"]


def test_no_cookie_jar_directive_on_run_lines(site, config):
    lines = (f"get {site.url}/login\n# @no-cookie-jar\nget {site.url}/me\nget {site.url}/me\n").encode()
    result = run(["run", "-", "--keep-going"], input=lines, env=config)
    assert statuses(result) == {"line-1": 200, "line-3": 401, "line-4": 200}, result
    assert cookies_sent(site, "/me") == [None, "sid=s3cret"]


def test_a_dangling_no_cookie_jar_directive_is_refused(site, config):
    result = run(["run", "-"], input=f"get {site.url}/me\n# @no-cookie-jar\n".encode(), env=config)
    assert result.code == 2, result
    assert "stdin:2" in result.err and "# @no-cookie-jar" in result.err, result
    assert site.requests == []


def test_cookie_jar_in_default_options_carries_through_a_run(site, tmp_path, config):
    jar = tmp_path / "jar.txt"
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "config.json").write_text(json.dumps({"default_options": ["--cookie-jar", str(jar)]}))
    (tmp_path / "cfg" / "config.json").chmod(0o600)
    result = run(["run", "-"], input=f"get {site.url}/login\n".encode(), env=config)
    assert result.code == 0, result
    assert "\tsid\ts3cret" in jar.read_text()
    again = run(["run", "-"], input=f"get {site.url}/me\n".encode(), env=config)
    assert again.code == 0, again


def test_session_on_a_run_line_is_refused(site, tmp_path, config):
    result = run(["run", "-"], input=f"get {site.url}/me --session {tmp_path}/s.json\n".encode(), env=config)
    assert result.code == 2, result
    assert "--session" in result.err and "stdin:1" in result.err, result
    assert site.requests == []


def test_session_store_auth_is_refused_for_a_run_with_the_reason(site, tmp_path, config):
    result = run(["run", "-", "--session", str(tmp_path / "s.json"), "--session-store-auth", "no"],
                 input=f"get {site.url}/me\n".encode(), env=config)
    assert result.code == 2, result
    assert result.err == ("afcli: error: --session-store-auth does not apply to afcli run (a run writes only "
                          "cookies back to its session: credentials stay where they are typed)\n"), result
    assert site.requests == [] and not (tmp_path / "s.json").exists()


# --- a request's own Cookie field --------------------------------------------------------------


def test_a_cookie_header_of_a_http_file_is_sent_with_the_engines_in_one_field(site, tmp_path, config):
    source = tmp_path / "api.http"
    source.write_text(f"### login\nGET {site.url}/login\n\n### me\nGET {site.url}/me\nCookie: theme=dark\n\n"
                      f"### again\nGET {site.url}/me\n")
    jar = tmp_path / "jar.txt"
    result = run(["run", str(source), "--cookie-jar", str(jar)], env=config)
    assert result.code == 0, result
    me, again = [r for r in site.requests if r.target == "/me"]
    assert len(me.header_all("Cookie")) == 1, me.headers
    assert sorted(me.header("Cookie").split("; ")) == ["sid=s3cret", "theme=dark"]
    # It joined the run's cookie engine, bound to the request's host, as an item joins a jar.
    assert sorted(again.header("Cookie").split("; ")) == ["sid=s3cret", "theme=dark"]
    assert "\ttheme\tdark" in jar.read_text()


def test_a_cookie_item_of_a_run_line_is_sent_in_one_field(site, config):
    lines = f"{site.url}/login\n{site.url}/me Cookie:theme=dark\n"
    result = run(["run", "-"], input=lines.encode(), env=config)
    assert result.code == 0, result
    me, = [r for r in site.requests if r.target == "/me"]
    assert len(me.header_all("Cookie")) == 1, me.headers
    assert sorted(me.header("Cookie").split("; ")) == ["sid=s3cret", "theme=dark"]


def test_a_no_cookie_jar_request_sends_its_own_cookie_field_alone(site, tmp_path, config):
    source = tmp_path / "api.http"
    source.write_text(f"### login\nGET {site.url}/login\n\n### me\n# @no-cookie-jar\nGET {site.url}/page\n"
                      "Cookie: theme=dark\n")
    result = run(["run", str(source)], env=config)
    assert result.code == 0, result
    assert cookies_sent(site, "/page") == ["theme=dark"]


def test_reports_show_the_cookies_sent(site, tmp_path, config):
    source = tmp_path / "api.http"
    source.write_text(f"### login\nGET {site.url}/login\n\n### missing\nGET {site.url}/nowhere\nCookie: theme=dark\n\n"
                      "?? status == 404\n")
    har, junit = tmp_path / "r.har", tmp_path / "r.xml"
    result = run(["run", str(source), "--keep-going", "--report", f"har={har}", "--report", f"junit={junit}"],
                 env=config)
    assert result.code == 16, result
    entry = json.loads(har.read_text())["log"]["entries"][1]["request"]
    assert sorted(c["name"] for c in entry["cookies"]) == ["sid", "theme"]
    assert {c["value"] for c in entry["cookies"]} == {"<redacted>"}
    cookie_fields = [h["value"] for h in entry["headers"] if h["name"].lower() == "cookie"]
    assert len(cookie_fields) == 1 and sorted(cookie_fields[0].split("; ")) == ["sid=<redacted>", "theme=<redacted>"]
    text = junit.read_text()
    assert "Cookie: sid=&lt;redacted&gt;; theme=&lt;redacted&gt;" in text or \
        "Cookie: theme=&lt;redacted&gt;; sid=&lt;redacted&gt;" in text, text
    shown = run(["run", str(source), "--keep-going", "--show-secrets", "--report", f"har={har}"], env=config)
    entry = json.loads(har.read_text())["log"]["entries"][1]["request"]
    assert sorted((c["name"], c["value"]) for c in entry["cookies"]) == [("sid", "s3cret"), ("theme", "dark")], shown
