"""--cookie-jar and --session, by how they arrive: typed, in default_options, for a run (`afcli run -`
and a `.http` file: the run's options; a line may not give them), and a `.http` file's
`# @no-cookie-jar`, which keeps one request out of the run's cookies. (The config environment has no
key for them.) /login sets a cookie that /me needs; each checks the Cookie header the server got."""

import pytest

from arrival import Arrival, refused_on_a_line
from test_run_cookies import login_server


@pytest.fixture
def site(server):
    server.handler = login_server
    return server


def cookies(server, target):
    return [request.header("Cookie") for request in server.requests if request.target == target]


def words(option, tmp_path):
    return ["--cookie-jar", str(tmp_path / "jar.txt")] if option == "--cookie-jar" else ["--session", "s1"]


@pytest.mark.parametrize("option", ["--cookie-jar", "--session"])
def test_typed(site, tmp_path, option):
    arrival = Arrival(tmp_path)
    assert arrival.typed(words(option, tmp_path), ["get", f"{site.url}/login"]).code == 0
    me = arrival.typed(words(option, tmp_path), ["get", f"{site.url}/me"])
    assert me.code == 0 and cookies(site, "/me") == ["sid=s3cret"], me


@pytest.mark.parametrize("option", ["--cookie-jar", "--session"])
def test_in_default_options(site, tmp_path, option):
    arrival = Arrival(tmp_path)
    assert arrival.default_options(words(option, tmp_path), ["get", f"{site.url}/login"]).code == 0
    me = arrival.default_options(words(option, tmp_path), ["get", f"{site.url}/me"])
    assert me.code == 0 and cookies(site, "/me") == ["sid=s3cret"], me


@pytest.mark.parametrize("option", ["--cookie-jar", "--session"])
def test_on_a_run_line_it_is_refused(site, tmp_path, option):
    line = " ".join(words(option, tmp_path))
    result = Arrival(tmp_path).run_lines([f"get {site.url}/login {line}"])
    assert refused_on_a_line(result, option), result
    assert site.requests == []


@pytest.mark.parametrize("option", ["--cookie-jar", "--session"])
@pytest.mark.parametrize("way", ["option", "default_options"])
def test_for_a_run_it_is_seeded_and_written_back(site, tmp_path, option, way):
    arrival = Arrival(tmp_path)
    given = words(option, tmp_path)
    if way == "option":
        first = arrival.run_lines([f"get {site.url}/login"], run_words=given)
    else:
        first = arrival.run_lines([f"get {site.url}/login"], default_options=given)
    assert first.code == 0, first
    # A later command with the same jar or session sends the cookie the run stored.
    me = arrival.typed(given, ["get", f"{site.url}/me"])
    assert me.code == 0 and cookies(site, "/me") == ["sid=s3cret"], me


def test_no_cookie_jar_directive_in_a_http_run(site, tmp_path):
    text = (f"# @name login\nGET {site.url}/login\n\n###\n# @name outside\n# @no-cookie-jar\nGET {site.url}/me\n\n"
            f"###\n# @name inside\nGET {site.url}/me\n")
    result = Arrival(tmp_path).http_file(text, run_words=["--keep-going", "--cookie-jar", str(tmp_path / "jar.txt")])
    assert {record["name"]: record["status"] for record in result.records} == {
        "login": 200, "outside": 401, "inside": 200}, result
    assert cookies(site, "/me") == [None, "sid=s3cret"]


def test_no_cookie_jar_directive_with_a_session(site, tmp_path):
    text = (f"# @name login\nGET {site.url}/login\n\n###\n# @name outside\n# @no-cookie-jar\nGET {site.url}/me\n\n"
            f"###\n# @name inside\nGET {site.url}/me\n")
    result = Arrival(tmp_path).http_file(text, run_words=["--keep-going", "--session", "s1"])
    assert {record["name"]: record["status"] for record in result.records} == {
        "login": 200, "outside": 401, "inside": 200}, result
    assert cookies(site, "/me") == [None, "sid=s3cret"]
