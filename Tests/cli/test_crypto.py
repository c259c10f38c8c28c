"""Encryption hooks (--encrypt-cmd, --decrypt-cmd, --no-encrypt, --encrypted-type) and the
response envelope (--envelope), run as a user would, with Debian's openssl as the cipher."""

import json
import os
import shlex
import signal
import subprocess
import time

import pytest

from conftest import BINARY, run, run_tty, base_env, start
from loopback import Response

KEY = "correct horse battery staple"
ENV = {"KEY": KEY}
CIPHER = "openssl enc -aes-256-cbc -pbkdf2 -pass env:KEY -base64 -A"
ENCRYPT = CIPHER
DECRYPT = CIPHER.replace("enc ", "enc -d ")


def openssl(data, decrypt=False, salt=None):
    """The cipher run directly, not through afcli: what the other side of the API does."""
    command = ["openssl", "enc"] + (["-d"] if decrypt else []) + [
        "-aes-256-cbc", "-pbkdf2", "-pass", "env:KEY", "-base64", "-A"]
    if salt:
        command += ["-S", salt]
    done = subprocess.run(command, input=data, capture_output=True, env={**os.environ, **ENV}, check=True)
    return done.stdout


def serve(server, body, content_type="text/plain", status=200, reason="OK"):
    server.handler = lambda request: Response(
        status=status, reason=reason, headers=[("Content-Type", content_type)], body=body)


# Encryption


def test_encrypted_post_round_trip_through_httpbin(httpbin):
    result = run(["post", f"{httpbin}/anything", "user=ann", "n:=1", "--encrypt-cmd", ENCRYPT], env=ENV)
    assert result.code == 0, result
    echoed = json.loads(result.stdout)
    assert echoed["headers"]["Content-Type"] == "text/plain"
    assert echoed["headers"]["Content-Length"] == str(len(echoed["data"]))
    assert echoed["data"] != '{"user":"ann","n":1}'
    assert openssl(echoed["data"].encode(), decrypt=True) == b'{"user":"ann","n":1}'


def test_encrypted_type_and_no_encrypt(server):
    run(["post", f"{server.url}/x", "a=1", "--encrypt-cmd", "tr a-z A-Z", "--encrypted-type", "application/x-secret"])
    run(["post", f"{server.url}/x", "a=1", "--encrypt-cmd", "tr a-z A-Z", "--no-encrypt"])
    first, second = server.requests
    assert first.body == b'{"A":"1"}' and first.header("Content-Type") == "application/x-secret"
    assert second.body == b'{"a":"1"}' and second.header("Content-Type") == "application/json"


def test_form_multipart_and_standard_input_bodies_are_encrypted(server, tmp_path):
    upload = tmp_path / "notes.txt"
    upload.write_bytes(b"file contents\n")
    run(["post", "--form", f"{server.url}/f", "a=b c", "--encrypt-cmd", "tr a-z A-Z"])
    run(["post", f"{server.url}/m", "title=x", f"doc@{upload}", "--encrypt-cmd", ENCRYPT], env=ENV)
    run(["post", f"{server.url}/s", "--encrypt-cmd", "tr a-z A-Z"], input=b"from stdin")
    form, multipart, stdin = server.requests
    assert form.body == b"A=B%20C" and form.header("Content-Type") == "text/plain"
    plain = openssl(multipart.body, decrypt=True)
    assert b'name="doc"; filename="notes.txt"' in plain and b"file contents\n" in plain
    assert int(multipart.header("Content-Length")) == len(multipart.body)
    assert stdin.body == b"FROM STDIN"


def test_failing_encrypt_command_sends_nothing(server):
    result = run(["post", f"{server.url}/x", "a=1", "--encrypt-cmd", "echo 'no key given' >&2; exit 3"])
    assert result.code == 2
    assert result.stdout == b""
    assert result.stderr == b"afcli: error: the encrypt command failed with exit status 3\nno key given\n"
    result = run(["post", f"{server.url}/x", "a=1", "--encrypt-cmd", "openssl enc -no-such-cipher"])
    assert result.code == 2
    assert result.stderr.startswith(b"afcli: error: the encrypt command failed with exit status 1\n")
    assert len(result.stderr) < 8192
    assert server.requests == []


def test_encrypt_command_stderr_is_bounded(server):
    result = run(["post", f"{server.url}/x", "a=1", "--encrypt-cmd", "head -c 100000 /dev/zero | tr '\\0' e >&2; exit 1"])
    assert result.code == 2
    assert result.stderr.startswith(b"afcli: error: the encrypt command failed with exit status 1\neeee")
    assert result.stderr == b"afcli: error: the encrypt command failed with exit status 1\n" + b"e" * 4096 + "…\n".encode()
    assert server.requests == []


def test_a_command_that_does_not_read_its_input(server, tmp_path):
    # The command exits at once without reading: afcli must neither die of SIGPIPE nor hang.
    body = tmp_path / "body"
    body.write_bytes(b"x" * (4 << 20))
    result = run(["post", f"{server.url}/x", f"@{body}", "--encrypt-cmd", "printf short"])
    assert result.code == 0, result
    assert server.requests[0].body == b"short"


def test_offline_shows_the_encrypted_body_and_curl_refuses(server):
    result = run(["post", "--offline", f"{server.url}/x", "a=1", "--encrypt-cmd", "tr a-z A-Z"])
    assert result.code == 0
    assert b"Content-Type: text/plain\nContent-Length: 9\n\n{\"A\":\"1\"}" in result.stdout
    assert b"application/json\nContent-Length" not in result.stdout
    result = run(["post", "--curl", f"{server.url}/x", "a=1", "--encrypt-cmd", "tr a-z A-Z"])
    assert result.code == 2
    assert result.stderr == (
        b"afcli: error: --curl: cannot show an encrypted body (it exists only while afcli runs); --offline shows it\n")
    assert server.requests == []


def test_large_body_streams_through_the_command_with_flat_memory(server, tmp_path):
    big = tmp_path / "big.bin"
    with open(big, "wb") as f:
        f.write(os.urandom(1 << 20) * 50)
    server.handler = lambda request: Response(body=str(len(request.body)).encode())
    timed = subprocess.run(
        ["/usr/bin/time", "-f", "%M", str(BINARY), "post", f"{server.url}/big", f"@{big}", "--encrypt-cmd", "cat"],
        capture_output=True, env=base_env(), timeout=120)
    assert timed.returncode == 0, timed.stderr
    assert timed.stdout == str(50 << 20).encode()
    peak_kib = int(timed.stderr.decode().strip().splitlines()[-1])
    assert peak_kib < 40 * 1024, f"peak RSS {peak_kib} KiB for a 50 MiB body"
    assert server.requests[0].header("Content-Length") == str(50 << 20)


def test_ctrl_c_kills_the_command_and_exits_130(server, tmp_path):
    pid_file = tmp_path / "pid"
    process = start(
        ["post", f"{server.url}/x", "a=1", "--encrypt-cmd", f"echo $$ > {pid_file}; exec sleep 60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=base_env())
    deadline = time.time() + 10
    while time.time() < deadline and not (pid_file.exists() and pid_file.read_text().strip()):
        time.sleep(0.05)
    child = int(pid_file.read_text())
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=10) == 130
    process.stdout.close()
    process.stderr.close()
    assert not os.path.exists(f"/proc/{child}")
    assert server.requests == []


def running(pid):
    """Whether `pid` is a live process (a zombie that no one reaped yet is not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("role", ["encrypt", "decrypt"])
@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_to_afcli_alone_ends_everything_the_command_started(server, tmp_path, role, sent):
    # The shell starts a job of its own and waits: only its process group reaches that job.
    pid_file = tmp_path / "pid"
    command = f"sleep 60 & echo $! > {pid_file}; wait"
    serve(server, b"cipher text")
    process = start(
        ["post", f"{server.url}/x", "a=1", f"--{role}-cmd", command],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=base_env())
    deadline = time.time() + 10
    while time.time() < deadline and not (pid_file.exists() and pid_file.read_text().strip()):
        time.sleep(0.05)
    job = int(pid_file.read_text())
    assert running(job)
    # To afcli's pid alone, as `kill PID` or a supervisor sends it, not to its process group.
    process.send_signal(sent)
    assert process.wait(timeout=10) == 130
    process.stdout.close()
    process.stderr.close()
    deadline = time.time() + 5
    while time.time() < deadline and running(job):
        time.sleep(0.05)
    assert not running(job)


def test_a_command_that_prompts_on_the_terminal_is_stopped_and_named(server):
    # afcli leads a session whose controlling terminal is a pseudo-terminal, as in a shell; the
    # command, in a process group of its own, is no foreground job there.
    import fcntl, pty, termios
    master, slave = pty.openpty()

    def controlling_terminal():
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    process = start(
        ["post", f"{server.url}/x", "a=1", "--encrypt-cmd", "read x < /dev/tty; echo $x"],
        stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=base_env(),
        preexec_fn=controlling_terminal, pass_fds=[slave])
    os.close(slave)
    try:
        _, err = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    finally:
        os.close(master)
    assert process.returncode == 2, err
    assert err.decode().startswith("afcli: error: the encrypt command stopped when it used the terminal"), err
    assert server.requests == []


# Decryption


def test_decrypted_response_piped_and_on_a_terminal(server):
    serve(server, openssl(b'{"name":"ann","tags":["a"]}'))
    result = run(["get", f"{server.url}/x", "--decrypt-cmd", DECRYPT], env=ENV)
    assert result.code == 0, result
    assert result.stdout == b'{"name":"ann","tags":["a"]}'
    shown = run_tty(["get", f"{server.url}/x", "--decrypt-cmd", DECRYPT, "--pretty=format"], env=ENV)
    assert shown.code == 0
    assert shown.stdout.endswith(b'{\n    "name": "ann",\n    "tags": [\n        "a"\n    ]\n}\n')
    assert b"Content-Type: text/plain" in shown.stdout


def test_encrypt_and_decrypt_in_one_request(server):
    def answer(request):
        plain = openssl(request.body, decrypt=True)
        return Response(headers=[("Content-Type", "text/plain")], body=openssl(b'{"echo":' + plain + b"}"))

    server.handler = answer
    result = run(["post", f"{server.url}/x", "q=1", "--encrypt-cmd", ENCRYPT, "--decrypt-cmd", DECRYPT], env=ENV)
    assert result.code == 0, result
    assert result.stdout == b'{"echo":{"q":"1"}}'


def test_decrypt_command_with_text_output(server):
    serve(server, b"plain words", content_type="application/json")
    result = run(["get", f"{server.url}/x", "--decrypt-cmd", "tr a-z A-Z"])
    assert (result.code, result.stdout, result.stderr) == (0, b"PLAIN WORDS", b"")
    shown = run_tty(["get", f"{server.url}/x", "--decrypt-cmd", "tr a-z A-Z", "--print=b"])
    assert (shown.code, shown.stdout, shown.stderr) == (0, b"PLAIN WORDS\n", b"")


def sealed_against(data, wrong_key):
    """`openssl(data)` that `wrong_key` cannot open: openssl salts each encryption at random, and
    about once in 256 a wrong key still yields valid padding, so openssl succeeds with garbage."""
    for _ in range(20):
        sealed = openssl(data)
        check = subprocess.run(shlex.split(DECRYPT), input=sealed, capture_output=True,
                               env={**os.environ, "KEY": wrong_key})
        if check.returncode != 0:
            return sealed
    raise AssertionError("every ciphertext opened with the wrong key")


def test_failing_decrypt_command(server):
    serve(server, sealed_against(b'{"a":1}', "wrong key"))
    result = run(["get", f"{server.url}/x", "--decrypt-cmd", DECRYPT], env={"KEY": "wrong key"})
    assert result.code == 1
    assert result.stderr.startswith(b"afcli: error: the decrypt command failed with exit status 1\n")
    assert b"bad decrypt" in result.stderr


def test_a_failed_decryption_writes_nothing_of_its_output(server, tmp_path):
    serve(server, b"ciphertext " * 20000)
    failing = "cat; echo 'bad key' >&2; exit 3"
    result = run(["get", f"{server.url}/x", "--decrypt-cmd", failing])
    assert result.code == 1
    assert result.stdout == b""
    assert result.stderr == b"afcli: error: the decrypt command failed with exit status 3\nbad key\n"
    kept = tmp_path / "kept.json"
    kept.write_bytes(b"earlier result")
    result = run(["get", f"{server.url}/x", "--decrypt-cmd", failing, "-o", str(kept)])
    assert (result.code, kept.read_bytes()) == (1, b"earlier result")
    fresh = tmp_path / "fresh.json"
    result = run(["get", f"{server.url}/x", "--decrypt-cmd", failing, "-o", str(fresh)])
    assert result.code == 1 and not fresh.exists()


def test_a_large_decrypted_body_is_handed_on_whole(server, tmp_path):
    body = bytes(range(256)) * 40000
    serve(server, body, content_type="application/octet-stream")
    saved = tmp_path / "out.bin"
    result = run(["get", f"{server.url}/x", "--decrypt-cmd", "cat", "-o", str(saved)])
    assert result.code == 0, result
    assert saved.read_bytes() == body


def test_error_responses_are_not_decrypted(server):
    serve(server, b"upstream down", status=502, reason="Bad Gateway")
    result = run(["get", f"{server.url}/x", "--decrypt-cmd", "false"])
    assert result.code == 5
    assert result.stdout == b"upstream down"


# The envelope


ENVELOPE = b'{"status": 0, "message": "ok", "result": {"id": 7,  "name": "\\u00e9"}}'


def test_envelope_success_prints_only_the_exact_result(server):
    serve(server, ENVELOPE, content_type="application/json")
    result = run(["get", f"{server.url}/x", "--envelope"])
    assert (result.code, result.stdout, result.stderr) == (0, b'{"id": 7,  "name": "\\u00e9"}', b"")
    shown = run_tty(["get", f"{server.url}/x", "--envelope", "--pretty=format"])
    assert (shown.code, shown.stdout) == (0, b'{\n    "id": 7,\n    "name": "\\u00e9"\n}\n')


def test_envelope_success_statuses(server):
    for body, options, code in [
        (b'{"status":"ok","result":[1]}', [], 0),
        (b'{"status":"OK","result":[1]}', [], 0),
        (b'{"status":"Done","result":[1]}', ["--envelope-success", "done"], 0),
        (b'{"status":0,"message":"\\ud800","result":[1]}', [], 0),
        (b'{"status":"200","result":[1]}', [], 0),
        (b'{"status":1,"result":[1]}', [], 13),
        (b'{"status":1,"result":[1]}', ["--envelope-success", "1,2"], 0),
        (b'{"status":"0","result":[1]}', ["--envelope-success", "1,2"], 13),
    ]:
        serve(server, body, content_type="application/json")
        result = run(["get", f"{server.url}/x", "--envelope", *options])
        assert result.code == code, (body, options, result)
        if code == 0:
            assert result.stdout == b"[1]"


def test_envelope_failure_and_common_failure(server):
    serve(server, '{"status":3,"message":"密码错误\\u001b[31m","result":null}'.encode(), content_type="application/json")
    result = run(["get", f"{server.url}/x", "--envelope"])
    assert (result.code, result.stdout) == (13, b"")
    assert result.stderr == "afcli: error: 密码错误\\x1b[31m\n".encode()
    serve(server, b'{"status":5,"message":"logged in elsewhere"}', content_type="application/json")
    result = run(["get", f"{server.url}/x", "--envelope", "--common-failure", "5,6"])
    assert (result.code, result.stdout, result.stderr) == (14, b"", b"afcli: error: logged in elsewhere\n")
    result = run(["get", f"{server.url}/x", "--envelope"])
    assert result.code == 13


def test_body_that_is_not_an_envelope(server):
    for body, message in [
        (b"[1,2]", b"afcli: error: the response body is not an envelope: not a JSON object\n"),
        (b'{"code":0}', b'afcli: error: the response body is not an envelope: it has no "status" member\n'),
        (b"<html>", b"afcli: error: the response body is not an envelope: not JSON ("),
    ]:
        serve(server, body, content_type="application/json")
        result = run(["get", f"{server.url}/x", "--envelope"])
        assert result.code == 11, body
        assert result.stderr.startswith(message), result.stderr
        assert result.stdout == b""


def test_envelope_is_read_after_decryption(server):
    serve(server, openssl(b'{"status":"0","message":"","result":{"token":"t"}}'))
    result = run(["get", f"{server.url}/x", "--decrypt-cmd", DECRYPT, "--envelope"], env=ENV)
    assert (result.code, result.stdout) == (0, b'{"token":"t"}')


@pytest.mark.parametrize("body, status, options, code, message", [
    (b'{"status":0,"message":"","result":{"id":7}}', 200, [], 0, None),
    (b'{"status":3,"message":"wrong password"}', 200, [], 13, "wrong password"),
    (b'{"status":5,"message":"logged in elsewhere"}', 200, ["--common-failure", "5"], 14, "logged in elsewhere"),
    (b"[1,2]", 200, [], 11, "the response body is not an envelope: not a JSON object"),
    (b'{"status":1,"message":"nope"}', 404, [], 4, "HTTP 404 Not Found"),
    # A failed validation decides before the envelope, a passed one leaves it the verdict.
    (b'{"status":3,"message":"wrong password"}', 200, ["--accept-type", "xml"], 11,
     "Request failed: unacceptable content-type: application/json"),
    (b'{"status":3,"message":"wrong password"}', 200, ["--accept-status", "200"], 13, "wrong password"),
])
def test_a_run_judges_the_envelope_as_the_same_request_typed(server, tmp_path, body, status, options, code, message):
    serve(server, body, content_type="application/json", status=status, reason="Not Found" if status == 404 else "OK")
    typed = run(["get", f"{server.url}/x", "--envelope", *options])
    saved = tmp_path / "out"
    ran = run(["run", "-", "--envelope", *options, "--output-dir", str(saved)], input=f"get {server.url}/x\n".encode())
    line = json.loads(ran.stdout)
    assert (typed.code, ran.code, line["exit"]) == (code, code, code), (typed, ran)
    assert line["error"] == message
    if code == 0:
        # The run saves what the request typed prints: the result alone.
        assert (saved / line["file"].split("/")[-1]).read_bytes() == typed.stdout == b'{"id":7}'
        assert ran.stderr == b""
    elif status == 200:
        assert typed.stderr.decode().startswith(f"afcli: error: {message}")
        assert message in ran.stderr.decode()


def test_a_http_file_run_reads_envelopes(server, tmp_path):
    serve(server, b'{"status":"ok","result":[1,2]}', content_type="application/json")
    source = tmp_path / "api.http"
    source.write_text(f"GET {server.url}/a\n\n###\n\nGET {server.url}/b\n")
    saved = tmp_path / "out"
    ran = run(["run", str(source), "--envelope", "--envelope-success", "ok", "--output-dir", str(saved)])
    assert ran.code == 0, ran
    lines = [json.loads(text) for text in ran.stdout.splitlines()]
    assert [line["exit"] for line in lines] == [0, 0]
    assert [(saved / line["file"].split("/")[-1]).read_bytes() for line in lines] == [b"[1,2]", b"[1,2]"]


def test_envelope_leaves_error_responses_alone(server):
    serve(server, b'{"status":1,"message":"nope"}', content_type="application/json", status=404, reason="Not Found")
    result = run(["get", f"{server.url}/x", "--envelope"])
    assert result.code == 4
    assert result.stdout == b'{"status":1,"message":"nope"}'


# The CJNetwork log


def test_log_block_of_an_encrypted_post(server):
    salt = "0011223344556677"
    encrypt = CIPHER + " -S " + salt
    answer = openssl(b'{"status":0, "result":"ok"}')
    serve(server, answer)
    result = run(["post", "--log=cj", f"{server.url}/login", "user=ann", "--encrypt-cmd", encrypt,
                  "--decrypt-cmd", DECRYPT], env=ENV)
    assert result.code == 0, result
    sent = openssl(b'{"user":"ann"}', salt=salt).decode()
    assert server.requests[0].body.decode() == sent
    assert result.stderr == (
        "\n\n  >>>>>>>>>>>>  网络请求Start  >>>>>>>>>>>>  \n"
        f"地址：{server.url}/login \n"
        '原始参数：{"user":"ann"} \n'
        f"最终参数：{sent} \n"
        '结果：{"status":0,"result":"ok"} \n'
        "\n  <<<<<<<<<<<<<  网络请求End  <<<<<<<<<<<<<  \n\n\n"
    ).encode()


def test_verbose_shows_the_encrypted_request_and_the_decrypted_response(server):
    serve(server, b"HELLO", content_type="text/plain")
    result = run(["post", "-v", f"{server.url}/x", "a=b", "--encrypt-cmd", "tr a-z A-Z", "--decrypt-cmd", "tr A-Z a-z"])
    assert result.code == 0, result
    assert b'Content-Type: text/plain\nContent-Length: 9\n\n{"A":"B"}\n\nHTTP/1.1 200 OK\n' in result.stdout
    # The body, then -v's metrics block.
    assert b"Content-Length: 5\n\nhello\n" in result.stdout
    assert result.stdout.index(b"hello") < result.stdout.index(b"Elapsed time")
