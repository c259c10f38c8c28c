"""afcli run FILE.http: the VS Code REST Client's and the JetBrains client's shorthands as a
loopback server (or httpbin) receives them: Basic and Digest credentials written in the
Authorization header, system variables ($datetime, $processEnv, $dotenv, $random.*, {{%name}}),
form bodies over several lines, GraphQL requests, `<@ file` bodies; and the request lines of
other protocols, refused before anything is sent."""

import base64
import json
import re

from conftest import run


def records(result):
    return [json.loads(line) for line in result.out.splitlines()]


def test_basic_credentials_are_encoded_and_an_encoded_token_is_left_alone(server, tmp_path):
    path = tmp_path / "auth.http"
    path.write_text(
        f"GET {server.url}/colon\nAuthorization: Basic ann:s3cr:et\n\n###\n"
        f"GET {server.url}/space\nAuthorization: basic ann pass word\n\n###\n"
        f"GET {server.url}/encoded\nAuthorization: Basic dXNlcjpwYXNzd2Q=\n\n###\n"
        f"GET {server.url}/bearer\nAuthorization: Bearer a b\n")
    r = run(["run", str(path)])
    assert r.code == 0, r
    colon, space, encoded, bearer = server.requests
    assert colon.header("Authorization") == "Basic " + base64.b64encode(b"ann:s3cr:et").decode()
    assert space.header("Authorization") == "Basic " + base64.b64encode(b"ann:pass word").decode()
    assert encoded.header("Authorization") == "Basic dXNlcjpwYXNzd2Q="
    assert bearer.header("Authorization") == "Bearer a b"


def test_digest_credentials_in_the_header_are_negotiated_by_libcurl(httpbin, tmp_path):
    path = tmp_path / "digest.http"
    path.write_text(
        f"GET {httpbin}/digest-auth/auth/ann/pw\nAuthorization: Digest ann pw\n\n###\n"
        f"GET {httpbin}/digest-auth/auth/ann/pw\nAuthorization: Digest ann wrong\n")
    r = run(["run", str(path), "--keep-going"])
    assert [x["status"] for x in records(r)] == [200, 401], r


def test_system_variables_reach_the_request(server, tmp_path):
    (tmp_path / ".env").write_text("# secrets\nexport API_KEY='k e y'\nUSER_NAME = ann # inline comment\n")
    (tmp_path / "http-client.env.json").write_text(json.dumps({"dev": {"keyName": "API_KEY", "who": "A&B c"}}))
    path = tmp_path / "vars.http"
    path.write_text(
        "@name = Strunk & White\n"
        f"POST {server.url}/authors/{{{{%name}}}}?who={{{{%who}}}}\n"
        "X-Env: {{$processEnv AFCLI_TEST_VALUE}}\n"
        "X-Dotenv: {{$dotenv %keyName}}|{{$dotenv USER_NAME}}\n"
        "X-Date: {{$datetime rfc1123}}\n"
        "X-Local: {{$localDatetime 'YYYY-MM-DD HH:mm Z' 1 d}}\n"
        "\n"
        '{"a": "{{$random.alphanumeric(12)}}", "b": {{$random.integer(5, 7)}}, "c": "{{$random.email}}", '
        '"d": "{{$datetime iso8601 -1 y}}", "e": "{{$random.hexadecimal(8)}}", "f": {{$random.float(1, 2)}}}\n')
    r = run(["run", str(path), "--env", "dev", "--allow-env", "AFCLI_TEST_*"],
            env={"AFCLI_TEST_VALUE": "from env", "TZ": "XYZ-05:30"})
    assert r.code == 0, r
    (request,) = server.requests
    assert request.target == "/authors/Strunk%20%26%20White?who=A%26B%20c"
    assert request.header("X-Env") == "from env"
    assert request.header("X-Dotenv") == "k e y|ann"
    assert re.fullmatch(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT",
                        request.header("X-Date"))
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d \+05:30", request.header("X-Local"))
    body = json.loads(request.body)
    assert re.fullmatch(r"[A-Za-z0-9_]{12}", body["a"]) and body["b"] in (5, 6)
    assert re.fullmatch(r"[a-z0-9]{10}@example\.com", body["c"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", body["d"])
    assert re.fullmatch(r"[0-9a-f]{8}", body["e"]) and 1 <= body["f"] < 2


def test_an_unset_process_variable_or_a_missing_dotenv_stops_the_run(server, tmp_path):
    path = tmp_path / "env.http"
    path.write_text(f"GET {server.url}/a\n\n###\nGET {server.url}/b\nX-A: {{{{$processEnv AFCLI_NOT_SET}}}}\n")
    r = run(["run", str(path), "--allow-env", "AFCLI_NOT_SET"])
    assert r.code == 2 and server.requests == [], r
    assert r.err == (f"afcli: error: {path}:5: {{{{$processEnv AFCLI_NOT_SET}}}}: "
                     "the environment variable AFCLI_NOT_SET is not set\n")
    path.write_text(f"GET {server.url}/a?x={{{{$dotenv KEY}}}}\n")
    r = run(["run", str(path)])
    assert r.code == 2 and server.requests == [], r
    assert r.err == f"afcli: error: {path}:1: {{{{$dotenv KEY}}}}: there is no .env file beside the .http file\n"


def test_a_dotenv_that_is_no_file_matters_only_to_a_file_that_reads_it(server, tmp_path):
    (tmp_path / ".env").mkdir()  # a Python virtual environment is often named so
    path = tmp_path / "plain.http"
    path.write_text(f"GET {server.url}/a\n")
    assert run(["run", str(path)]).code == 0
    path.write_text(f"GET {server.url}/b?k={{{{$dotenv KEY}}}}\n")
    r = run(["run", str(path)])
    assert r.code == 2 and [x.target for x in server.requests] == ["/a"], r
    assert r.err == f"afcli: error: {path}:1: {{{{$dotenv KEY}}}}: cannot read {tmp_path}/.env: not a regular file\n"


def test_a_form_written_over_several_lines_is_joined(server, tmp_path):
    path = tmp_path / "form.http"
    path.write_text(
        f"POST {server.url}/login\nContent-Type: application/x-www-form-urlencoded\n\n"
        "name=foo\n&password={{pw}}\n&remember=1\n\n###\n"
        f"POST {server.url}/text\nContent-Type: text/plain\n\na\n&b\n")
    r = run(["run", str(path)], env=None)
    assert r.code == 2, r  # {{pw}} is not defined
    path.write_text("@pw = s3cret\n" + path.read_text())
    r = run(["run", str(path)])
    assert r.code == 0, r
    form, text = server.requests
    assert form.body == b"name=foo&password=s3cret&remember=1"
    assert text.body == b"a\n&b"


def test_a_graphql_request_is_sent_as_json_without_its_marker_header(server, tmp_path):
    path = tmp_path / "graphql.http"
    path.write_text(
        "@owner = Huachao\n"
        f"POST {server.url}/graphql\nX-REQUEST-TYPE: GraphQL\n\n"
        "query Repo($name: String!, $owner: String!) {\n  repository(name: $name, owner: $owner) { name }\n}\n"
        "\n"
        '{\n    "name": "vscode-restclient",\n    "owner": "{{owner}}"\n}\n'
        "\n###\n"
        f"POST {server.url}/graphql\nX-Request-Type: graphql\nContent-Type: application/json; charset=utf-8\n\n"
        "{ viewer { login } }\n")
    r = run(["run", str(path)])
    assert r.code == 0, r
    named, anonymous = server.requests
    assert named.header("X-Request-Type") is None and named.header("Content-Type") == "application/json"
    assert json.loads(named.body) == {
        "query": "query Repo($name: String!, $owner: String!) {\n  repository(name: $name, owner: $owner) { name }\n}",
        "operationName": "Repo",
        "variables": {"name": "vscode-restclient", "owner": "Huachao"},
    }
    assert anonymous.header("Content-Type") == "application/json; charset=utf-8"
    assert json.loads(anonymous.body) == {"query": "{ viewer { login } }", "variables": {}}


def test_graphql_variables_that_are_not_json_stop_the_run(server, tmp_path):
    path = tmp_path / "graphql.http"
    path.write_text(f"POST {server.url}/graphql\nX-Request-Type: GraphQL\n\n{{ a }}\n\n{{ not json\n")
    r = run(["run", str(path)])
    assert r.code == 2 and server.requests == [], r
    assert r.err.startswith(f"afcli: error: {path}:4: the GraphQL variables after the blank line are not JSON: ")


def test_a_substituted_file_body_has_its_variables_replaced(server, tmp_path):
    (tmp_path / "body.xml").write_text("<user>{{who}}</user>\n")
    (tmp_path / "latin.txt").write_bytes("caf\u00e9 {{who}}".encode("latin-1"))
    path = tmp_path / "file.http"
    path.write_text(
        "@who = ann\n"
        f"POST {server.url}/xml\nContent-Type: application/xml\n\n<@ ./body.xml\n\n###\n"
        f"POST {server.url}/latin\n\n<@latin1 latin.txt\n")
    r = run(["run", str(path)])
    assert r.code == 0, r
    xml, latin = server.requests
    assert xml.body == b"<user>ann</user>\n"
    assert latin.body == "caf\u00e9 ann".encode()


def test_a_substituted_file_that_is_missing_or_in_an_unknown_encoding_stops_the_run(server, tmp_path):
    path = tmp_path / "file.http"
    path.write_text(f"POST {server.url}/a\n\n<@ ./missing.txt\n")
    r = run(["run", str(path)])
    assert r.code == 2 and server.requests == [], r
    assert "missing.txt" in r.err and r.err.startswith(f"afcli: error: {path}:3: cannot read ")
    path.write_text(f"POST {server.url}/a\n\n<@base64 ./x.txt\n")
    r = run(["run", str(path)])
    assert r.code == 2 and server.requests == [], r
    assert r.err == (f"afcli: error: {path}:3: <@base64: afcli reads files in utf8, latin1 (binary), "
                     "ascii or utf16le (ucs2)\n")


def test_request_lines_of_other_protocols_are_refused_before_anything_is_sent(server, tmp_path):
    path = tmp_path / "protocols.http"
    for method, name in [("SSE", "server-sent events"), ("KAFKA", "Kafka"), ("MQTT", "MQTT"),
                         ("GRPC", "gRPC"), ("WEBSOCKET", "WebSocket"), ("AMQP", "AMQP")]:
        path.write_text(f"GET {server.url}/first\n\n###\n{method} {server.url}/x\n")
        r = run(["run", str(path)])
        assert r.code == 2 and server.requests == [], r
        assert r.err == (f"afcli: error: {path}:4: {method} requests ({name}) are not supported: "
                         "afcli sends HTTP requests only\n")
