"""afcli run with the VS Code REST Client's files, as its README writes them, that need no cloud
account and no JavaScript: `# @prompt` variables (asked on the terminal, echo off for secret
names, or given with --variable), the `Authorization: AWS …` shorthand (signed with SigV4, which
a local server recomputes), a GraphQL request, and a clear refusal of what needs a cloud sign-in
($aadToken, $aadV2Token, Authorization: COGNITO)."""

import json
import subprocess

import pytest

from conftest import base_env, run, run_on_new_terminal, run_process
from loopback import Response
from sigv4_verifier import verify

KEY = "AKIDEXAMPLE"
SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN = "IQoJb3JpZ2luX2VjEMv//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+token/with+slashes=="


def records(result):
    return [json.loads(line) for line in result.out.splitlines()]


def prompting_file(tmp_path, server):
    """REST Client's README example of prompt variables, with a password among them."""
    path = tmp_path / "verify.http"
    path.write_text(f"""@host = {server.url[len("http://"):]}

###
# @prompt username
# @prompt refCode Your reference code display on webpage
# @prompt password Your one-time password in your mailbox
POST http://{{{{host}}}}/verify-otp/{{{{refCode}}}} HTTP/1.1
Content-Type: application/json

{{
    "username": "{{{{username}}}}",
    "password": "{{{{password}}}}"
}}

###
GET http://{{{{host}}}}/after
""")
    return path


def run_without_terminal(args, env=None):
    """afcli in a session of its own, with no controlling terminal to ask on."""
    proc = run_process(args, stdin=subprocess.DEVNULL, capture_output=True,
                       env=base_env(env), start_new_session=True, timeout=30)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def test_prompt_variables_are_asked_on_the_terminal_with_echo_off_for_a_password(server, tmp_path):
    path = prompting_file(tmp_path, server)
    result, shown = run_on_new_terminal(["run", str(path)], [
        (b"afcli: username: ", b"ann\n"),
        (b"afcli: refCode (Your reference code display on webpage): ", b"R-17\n"),
        (b"afcli: password (Your one-time password in your mailbox): ", b"s3cret\n"),
    ])
    assert result.code == 0, (result, shown)
    assert b"ann" in shown and b"R-17" in shown  # echoed
    assert b"s3cret" not in shown  # typed with echo off
    first, second = server.requests
    assert first.target == "/verify-otp/R-17"
    assert json.loads(first.body) == {"username": "ann", "password": "s3cret"}
    assert second.target == "/after"


def test_ctrl_c_at_a_prompt_ends_the_run_as_an_interrupt_and_sends_nothing(server, tmp_path):
    path = prompting_file(tmp_path, server)
    result, shown = run_on_new_terminal(["run", str(path), "--variable", "username=ann", "--variable", "refCode=1"],
                                        [(b"afcli: password", b"\x03")])
    assert result.code == 130, (result, shown)
    assert server.requests == []


def test_prompt_variables_come_from_variable_typed_or_from_default_options(server, tmp_path):
    path = prompting_file(tmp_path, server)
    given = ["--variable", "username=ann", "--variable", "refCode=R-1", "--variable", "password=a=b c"]
    code, out, err = run_without_terminal(["run", str(path), *given])
    assert code == 0, err
    assert json.loads(server.requests[0].body) == {"username": "ann", "password": "a=b c"}
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.json").write_text(json.dumps({"default_options": given[:4]}))
    (config / "config.json").chmod(0o600)
    code, out, err = run_without_terminal(
        ["run", str(path), "--variable", "password=typed", "--variable", "refCode=R-2"],
        env={"AFCLI_CONFIG_DIR": str(config), "HOME": str(tmp_path)})
    assert code == 0, err
    assert server.requests[2].target == "/verify-otp/R-2"
    assert json.loads(server.requests[2].body) == {"username": "ann", "password": "typed"}


def test_a_variable_overrides_the_files_own_value(server, tmp_path):
    path = tmp_path / "api.http"
    path.write_text(f"@id = 1\nGET {server.url}/items/{{{{id}}}}\n")
    r = run(["run", str(path), "--variable", "id=2"])
    assert r.code == 0, r
    assert server.requests[0].target == "/items/2"
    r = run(["run", str(path), "--variable", "=2"])
    assert r.code == 2 and "--variable" in r.err and "NAME=VALUE" in r.err, r
    r = run(["run", "-", "--variable", "id=2"], input=f"get {server.url}/a\n".encode())
    assert r.code == 2 and "--variable" in r.err, r
    assert len(server.requests) == 1


def test_without_a_terminal_the_unanswered_prompts_are_named_and_nothing_is_sent(server, tmp_path):
    path = prompting_file(tmp_path, server)
    code, out, err = run_without_terminal(["run", str(path), "--variable", "refCode=R-1"])
    assert code == 2 and server.requests == [], err
    assert err == (f"afcli: error: {path}:4: # @prompt username, password: no terminal to ask on; give each with "
                   "--variable NAME=VALUE\n")


@pytest.fixture
def checking(server):
    """A server that answers 403 when the signature does not verify, 200 when it does."""
    server.failures = []

    def handler(request):
        reason = verify(request, server.url, KEY, SECRET, request.header("X-Amz-Security-Token"))
        if reason:
            server.failures.append(reason)
            return Response(status=403, reason="Forbidden")
        return Response()
    server.handler = handler
    return server


def test_the_aws_shorthand_signs_the_request_as_aws_sigv4_does(checking, tmp_path):
    path = tmp_path / "aws.http"
    path.write_text(f"""GET {checking.url}/aws-auth?b=2&a=1 HTTP/1.1
Authorization: AWS {KEY} {SECRET} region:eu-west-1 service:execute-api

###
POST {checking.url}/upload
Authorization: AWS {KEY} {SECRET} token:{TOKEN} region:us-east-1 service:s3
Content-Type: application/json

{{"a": 1}}
""")
    # The file's own keys replace the run's --aws-sigv4 (whose keys the environment lacks).
    r = run(["run", str(path), "--aws-sigv4", "aws:amz:us-west-2:sts"])
    assert r.code == 0, (r, checking.failures)
    first, second = checking.requests
    assert "/eu-west-1/execute-api/aws4_request" in first.header("Authorization")
    assert first.header("X-Amz-Security-Token") is None
    assert second.header("X-Amz-Security-Token") == TOKEN
    assert "/us-east-1/s3/aws4_request" in second.header("Authorization")
    assert second.body == b'{"a": 1}'


@pytest.mark.parametrize("header, reason", [
    (f"AWS {KEY}", "expected Authorization: AWS ACCESS_KEY SECRET_KEY [token:SESSION_TOKEN]"),
    (f"AWS {KEY} {SECRET} regoin:eu-west-1", "regoin:eu-west-1 is not token:, region: or service:"),
    (f"AWS {KEY} {SECRET} region:eu/west", "Authorization: AWS names region eu/west"),
    (f"AWS {KEY} {SECRET}", "needs region:REGION and service:SERVICE: 127.0.0.1 is no AWS host name"),
    ("COGNITO ann pass us-east-1 pool client",
     "Authorization: COGNITO is not supported: it signs in to AWS Cognito"),
])
def test_a_bad_aws_shorthand_or_cognito_is_refused_at_its_line_before_anything_is_sent(server, tmp_path, header, reason):
    path = tmp_path / "aws.http"
    path.write_text(f"GET {server.url}/first\n\n###\nGET {server.url}/aws\nAccept: */*\nAuthorization: {header}\n")
    r = run(["run", str(path)])
    assert r.code == 2 and server.requests == [], r
    assert r.err.startswith(f"afcli: error: {path}:6: ") and reason in r.err, r


@pytest.mark.parametrize("variable, provider", [
    ("$aadToken", "Azure AD"), ("$aadToken new public contoso.com aud:api", "Azure AD"),
    ("$aadV2Token scopes:User.Read", "Azure AD"), ("$oidcAccessToken new clientId:x", "an OpenID Connect provider"),
])
def test_azure_and_oidc_tokens_are_refused_by_name_at_their_line(server, tmp_path, variable, provider):
    path = tmp_path / "aad.http"
    path.write_text(f"GET {server.url}/first\n\n###\nGET {server.url}/me\nAuthorization: {{{{{variable}}}}}\n")
    r = run(["run", str(path)])
    assert r.code == 2 and server.requests == [], r
    name = variable.split()[0]
    assert r.err.startswith(f"afcli: error: {path}:5: {{{{{variable}}}}}: {name} is not supported: it signs in "
                            f"to {provider}"), r


def test_a_graphql_request_is_sent_as_rest_client_sends_it(server, tmp_path):
    """REST Client's README example: the query and its variables become one JSON body, and the
    X-REQUEST-TYPE header, which only marks the request, is not sent (REST Client removes it)."""
    path = tmp_path / "graphql.http"
    path.write_text(f"""POST {server.url}/graphql
Content-Type: application/json
Authorization: Bearer xxx
X-REQUEST-TYPE: GraphQL

query ($name: String!, $owner: String!) {{
  repository(name: $name, owner: $owner) {{
    name
    fullName: nameWithOwner
  }}
}}

{{
    "name": "vscode-restclient",
    "owner": "Huachao"
}}
""")
    r = run(["run", str(path)])
    assert r.code == 0, r
    (sent,) = server.requests
    assert sent.header("X-Request-Type") is None
    assert sent.header("Content-Type") == "application/json" and sent.header("Authorization") == "Bearer xxx"
    assert sent.body == (b'{"query":"query ($name: String!, $owner: String!) {\\n  repository(name: $name, owner: '
                         b'$owner) {\\n    name\\n    fullName: nameWithOwner\\n  }\\n}","variables":'
                         b'{"name":"vscode-restclient","owner":"Huachao"}}')
