"""What a .http file may read of the machine it runs on: files under its file root (its own
directory, else `--file-root DIR`), after `..` and symbolic links are resolved, and only the
environment variables `--allow-env` names. Anything else is refused with the file's line before
anything is sent; each way the settings arrive (typed, the config's default_options) is tried."""

import json
import os

import pytest

from conftest import run


def project(tmp_path):
    """A project directory with a body file, and a secret beside it, outside the project."""
    root = tmp_path / "project"
    (root / "data").mkdir(parents=True)
    (root / "data" / "body.json").write_text('{"ok": true}')
    (tmp_path / "secret.txt").write_text("top secret")
    return root


def config_env(tmp_path, default_options):
    directory = tmp_path / "config"
    directory.mkdir(parents=True)
    (directory / "config.json").write_text(json.dumps({"default_options": default_options}))
    (directory / "config.json").chmod(0o600)
    return {"AFCLI_CONFIG_DIR": str(directory), "HOME": str(tmp_path)}


@pytest.mark.parametrize("marker", ["<", "<@"])
@pytest.mark.parametrize("written", ["../secret.txt", "data/../../secret.txt", "{secret}", "link.txt"])
def test_a_file_outside_the_files_directory_is_refused_before_anything_is_sent(server, tmp_path, marker, written):
    root = project(tmp_path)
    os.symlink(tmp_path / "secret.txt", root / "link.txt")
    written = written.replace("{secret}", str(tmp_path / "secret.txt"))
    path = root / "api.http"
    path.write_text(f"POST {server.url}/first\n\n< ./data/body.json\n\n###\nPOST {server.url}/leak\n\n{marker} {written}\n")
    r = run(["run", str(path)])
    assert r.code == 2 and server.requests == [], r
    where = f"leads to {tmp_path}/secret.txt, outside" if written == "link.txt" else "is outside"
    assert r.err == (f"afcli: error: {path}:8: {marker} {written} {where} the file root {root} (the .http file's "
                     "directory), which bounds the files a .http file may read: --file-root DIR reads files under DIR\n")


def test_files_inside_the_root_are_read_and_a_link_inside_it_too(server, tmp_path):
    root = project(tmp_path)
    os.symlink(root / "data" / "body.json", root / "link.json")
    path = root / "api.http"
    path.write_text(f"POST {server.url}/a\n\n< ./data/body.json\n\n###\nPOST {server.url}/b\n\n<@ link.json\n")
    r = run(["run", str(path)])
    assert r.code == 0, r
    assert [request.body for request in server.requests] == [b'{"ok": true}'] * 2


def test_file_root_widens_or_narrows_the_root_typed_or_from_default_options(server, tmp_path):
    root = project(tmp_path)
    path = root / "api.http"
    path.write_text(f"POST {server.url}/a\n\n< ../secret.txt\n")
    r = run(["run", str(path), "--file-root", str(tmp_path)])
    assert r.code == 0, r
    assert server.requests[-1].body == b"top secret"
    r = run(["run", str(path)], env=config_env(tmp_path, ["--file-root", str(tmp_path)]))
    assert r.code == 0, r
    assert len(server.requests) == 2
    # A narrower root refuses the project's own files outside it; a typed value beats the default.
    path.write_text(f"POST {server.url}/a\n\n< ./data/body.json\n")
    narrow = root / "empty"
    narrow.mkdir()
    r = run(["run", str(path), "--file-root", str(narrow)], env=config_env(tmp_path / "c2", ["--file-root", "/"]))
    assert r.code == 2 and len(server.requests) == 2, r
    assert f"is outside the file root {narrow} (--file-root)" in r.err


def test_a_file_read_from_a_pipe_is_bounded_by_the_working_directory(server, tmp_path):
    root = project(tmp_path)
    text = f"POST {server.url}/a\n\n< data/body.json\n\n###\nPOST {server.url}/b\n\n< {tmp_path}/secret.txt\n"
    r = run(["run", "/dev/stdin"], input=text.encode(), cwd=str(root))
    assert r.code == 2 and server.requests == [], r
    assert r.err == (f"afcli: error: /dev/stdin:8: < {tmp_path}/secret.txt is outside the file root {root} (the "
                     "working directory), which bounds the files a .http file may read: --file-root DIR reads "
                     "files under DIR\n")


def test_a_dotenv_file_linked_from_outside_the_root_is_refused(server, tmp_path):
    root = project(tmp_path)
    (tmp_path / "outside.env").write_text("KEY=v\n")
    os.symlink(tmp_path / "outside.env", root / ".env")
    path = root / "api.http"
    path.write_text(f"GET {server.url}/a?k={{{{$dotenv KEY}}}}\n")
    r = run(["run", str(path)])
    assert r.code == 2 and server.requests == [], r
    assert f"api.http:1: {{{{$dotenv KEY}}}}: the .env file {root}/.env leads to {tmp_path}/outside.env, outside " \
        f"the file root {root}" in r.err


def test_an_environment_file_linked_from_outside_the_root_is_refused(server, tmp_path):
    root = project(tmp_path)
    (tmp_path / "secrets.json").write_text('{"dev": {"token": "t"}}')
    os.symlink(tmp_path / "secrets.json", root / "http-client.private.env.json")
    path = root / "api.http"
    path.write_text(f"GET {server.url}/a?t={{{{token}}}}\n")
    r = run(["run", str(path), "--env", "dev"])
    assert r.code == 2 and server.requests == [], r
    assert r.err == (f"afcli: error: {path}: the environment file http-client.private.env.json leads to "
                     f"{tmp_path}/secrets.json, outside the file root {root} (the .http file's directory), which "
                     "bounds the files a .http file may read: --file-root DIR reads files under DIR\n")
    r = run(["run", str(path), "--env", "dev", "--file-root", str(tmp_path)])
    assert r.code == 0, r
    assert server.requests[0].target == "/a?t=t"


def test_a_bad_file_root_is_refused(server, tmp_path):
    root = project(tmp_path)
    path = root / "api.http"
    path.write_text(f"GET {server.url}/a\n")
    r = run(["run", str(path), "--file-root", str(tmp_path / "missing")])
    assert r.code == 2 and server.requests == [], r
    assert r.err.startswith(f'afcli: error: --file-root: "{tmp_path}/missing" cannot be the file root: '), r


def test_environment_variables_are_read_only_when_allowed_by_name(server, tmp_path):
    root = project(tmp_path)
    path = root / "api.http"
    path.write_text(f"GET {server.url}/a\n\n###\nGET {server.url}/b\nX-Token: {{{{$processEnv GITHUB_TOKEN}}}}\n")
    secret = {"GITHUB_TOKEN": "ghp_secret"}
    r = run(["run", str(path)], env=secret)
    assert r.code == 2 and server.requests == [], r
    assert r.err == (f"afcli: error: {path}:5: {{{{$processEnv GITHUB_TOKEN}}}}: a .http file reads only the "
                     "environment variables allowed by name, and GITHUB_TOKEN is not one: --allow-env GITHUB_TOKEN "
                     "allows it\n")
    r = run(["run", str(path), "--allow-env", "OTHER", "--allow-env", "GITHUB_*"], env=secret)
    assert r.code == 0, r
    assert server.requests[-1].header("X-Token") == "ghp_secret"
    r = run(["run", str(path)], env={**secret, **config_env(tmp_path, ["--allow-env", "GITHUB_TOKEN"])})
    assert r.code == 0, r
    assert server.requests[-1].header("X-Token") == "ghp_secret"


def test_allow_env_takes_names_only_and_run_lines_take_neither_option(server, tmp_path):
    path = project(tmp_path) / "api.http"
    path.write_text(f"GET {server.url}/a\n")
    r = run(["run", str(path), "--allow-env", "A=B"])
    assert r.code == 2 and server.requests == [], r
    assert "--allow-env" in r.err and "environment variable name" in r.err
    for option in (["--file-root", str(tmp_path)], ["--allow-env", "HOME"]):
        r = run(["run", "-", *option], input=f"get {server.url}/a\n".encode())
        assert r.code == 2 and server.requests == [], r
        assert option[0] in r.err and "afcli command lines" in r.err, r
