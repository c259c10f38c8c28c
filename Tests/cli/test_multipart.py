"""Multipart uploads end to end: exact bytes on the wire, streaming, stdin parts, redirects,
throttling, progress, terminal placeholders and every refusal before sending.

Expected bodies are built here from the layout in spec/AFNETWORKING.md section 4, never taken from
afcli's own output.
"""

import json
import os
import re
import threading
import time

import pytest

from conftest import Response, run, run_tty, run_process

B = "Boundary+0123456789ABCDEF"
M1 = (f"--{B}\r\nContent-Disposition: form-data; name=\"foo\"\r\n\r\nbar\r\n--{B}--\r\n").encode()


def field(name, value):
    """A field part's headers and content, as (bytes, bytes)."""
    return (f'Content-Disposition: form-data; name="{name}"\r\n'.encode(), value.encode())


def filepart(name, filename, content_type, content):
    headers = f'Content-Disposition: form-data; name="{name}"; filename="{filename}"\r\nContent-Type: {content_type}\r\n'
    return (headers.encode(), content)


def body(parts, boundary=B):
    """The multipart body for (headers, content) parts."""
    out = b""
    for index, (headers, content) in enumerate(parts):
        out += (b"\r\n" if index else b"") + f"--{boundary}\r\n".encode() + headers + b"\r\n" + content
    return out + f"\r\n--{boundary}--\r\n".encode()


def boundary_of(request):
    match = re.fullmatch(r"multipart/form-data; boundary=(.+)", request.header("Content-Type"))
    assert match, request.header("Content-Type")
    return match.group(1)


@pytest.fixture
def files(tmp_path):
    """A directory with a few small files of known content."""
    (tmp_path / "a.jpg").write_bytes(b"\xff\xd8JPEG-A")
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8JPEG-BB")
    (tmp_path / "c.txt").write_bytes(b"plain text\n")
    (tmp_path / "report.bin").write_bytes(b"%PDF-1.4 fake")
    return tmp_path


# ---------------------------------------------------------------------------------------------
# Offline: the exact bytes


def test_offline_print_B_is_M1_exactly():
    result = run(["post", "--form", "--offline", "--boundary", B, ":8080/post", "foo=bar", "--print=B"])
    assert result.code == 0, result
    assert result.stdout == M1
    assert len(result.stdout) == 111


def test_offline_print_B_redirected_to_a_file_writes_the_whole_body(tmp_path):
    data = bytes(range(256)) * 1024  # 256 KiB, larger than any read buffer
    (tmp_path / "blob.bin").write_bytes(data)
    out = tmp_path / "body.bin"
    with open(out, "wb") as sink:
        import subprocess
        from conftest import base_env
        code = run_process(
            ["post", "--offline", "--boundary", B, "--print=B", ":8080/post", "k=v",
             f"f@{tmp_path / 'blob.bin'}"],
            stdin=subprocess.DEVNULL, stdout=sink, env=base_env(), timeout=30).returncode
    assert code == 0
    assert out.read_bytes() == body([field("k", "v"), filepart("f", "blob.bin", "application/octet-stream", data)])


def test_offline_head_has_exact_content_length(files):
    result = run(["post", "--offline", "--boundary", B, ":8080/post", "title=Beach", f"photo@{files / 'a.jpg'}"])
    assert result.code == 0, result
    expected = body([field("title", "Beach"), filepart("photo", "a.jpg", "image/jpeg", b"\xff\xd8JPEG-A")])
    head, _, printed = result.stdout.partition(b"\n\n")
    assert f"Content-Type: multipart/form-data; boundary={B}".encode() in head
    assert f"Content-Length: {len(expected)}".encode() in head
    assert printed == expected


def test_random_boundaries_differ_and_have_AFs_shape():
    seen = set()
    for _ in range(2):
        result = run(["post", "--multipart", "--offline", "--print=H", ":8080/post", "a=1"])
        match = re.search(rb"boundary=(Boundary\+[0-9A-F]{16})\n", result.stdout)
        assert match, result
        seen.add(match.group(1))
    assert len(seen) == 2


# ---------------------------------------------------------------------------------------------
# On the wire


def test_fields_before_files_and_flattened_names(server, files):
    result = run([
        "post", "--form", server.url + "/post", f"photo@{files / 'a.jpg'}", "title=Beach",
        'meta:={"tags":["x","y"],"size":{"w":3}}', "empty:=null",
    ])
    assert result.code == 0, result
    request = server.requests[0]
    assert request.method == "POST"
    boundary = boundary_of(request)
    assert re.fullmatch(r"Boundary\+[0-9A-F]{16}", boundary)
    expected = body([
        field("empty", ""), field("meta[size][w]", "3"), field("meta[tags][]", "x"), field("meta[tags][]", "y"),
        field("title", "Beach"), filepart("photo", "a.jpg", "image/jpeg", b"\xff\xd8JPEG-A"),
    ], boundary)
    assert request.body == expected
    assert request.header("Content-Length") == str(len(expected))
    assert request.header("Transfer-Encoding") is None
    assert request.header("Expect") is None


def test_multipart_without_files(server):
    result = run(["post", "--multipart", server.url + "/post", "name=x", "--boundary", B])
    assert result.code == 0, result
    request = server.requests[0]
    assert request.header("Content-Type") == f"multipart/form-data; boundary={B}"
    assert request.body == body([field("name", "x")])


def test_several_files_under_one_field(server, files):
    result = run(["post", "--form", server.url + "/post", "--boundary", B,
                  f"files@{files / 'a.jpg'}", f"files@{files / 'b.jpg'}", f"files@{files / 'c.txt'}"])
    assert result.code == 0, result
    assert server.requests[0].body == body([
        filepart("files", "a.jpg", "image/jpeg", b"\xff\xd8JPEG-A"),
        filepart("files", "b.jpg", "image/jpeg", b"\xff\xd8JPEG-BB"),
        filepart("files", "c.txt", "text/plain", b"plain text\n"),
    ])


def test_type_and_filename_options(server, files):
    result = run(["post", "--form", server.url + "/post", "--boundary", B,
                  f"doc@{files / 'report.bin'};type=application/pdf;filename=q3.pdf"])
    assert result.code == 0, result
    assert server.requests[0].body == body([filepart("doc", "q3.pdf", "application/pdf", b"%PDF-1.4 fake")])


def test_non_ascii_names_are_raw_utf8(server, tmp_path):
    (tmp_path / "naïve café.txt").write_bytes(b"x")
    result = run(["post", "--form", server.url + "/post", "--boundary", B, "José=ünï",
                  f"фото@{tmp_path / 'naïve café.txt'}"])
    assert result.code == 0, result
    assert server.requests[0].body == body([field("José", "ünï"), filepart("фото", "naïve café.txt", "text/plain", b"x")])


def test_stdin_part_is_sent_chunked(server):
    csv = b"id,name\n1,ann\n2,bob\n"
    result = run(["post", "--form", server.url + "/post", "--boundary", B, "k=v", "upload@-"], input=csv)
    assert result.code == 0, result
    request = server.requests[0]
    assert request.chunked
    assert request.header("Content-Length") is None
    assert request.body == body([field("k", "v"), filepart("upload", "-", "application/octet-stream", csv)])


def test_stdin_part_chunked_note_in_verbose(server):
    result = run(["post", "-v", "--form", server.url + "/post", "upload@-;type=text/csv;filename=data.csv"],
                 input=b"a,b\n")
    assert result.code == 0, result
    assert "afcli: note:" in result.err and "chunked" in result.err
    assert b"Transfer-Encoding: chunked" in result.stdout
    assert b"[streamed from standard input, not shown]" in result.stdout
    assert server.requests[0].body.endswith(b'filename="data.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n\r\n'
                                            + f"--{boundary_of(server.requests[0])}--\r\n".encode())


def test_offline_stdin_part_prints_what_stdin_had():
    result = run(["post", "--offline", "--print=B", "--boundary", B, ":8080/post", "up@-"], input=b"hello")
    assert result.code == 0, result
    assert result.stdout == body([filepart("up", "-", "application/octet-stream", b"hello")])


def test_large_file_streams_exactly(server, tmp_path):
    data = os.urandom(6 * 1024 * 1024 + 7)
    (tmp_path / "big.bin").write_bytes(data)
    result = run(["post", "--form", server.url + "/post", "--boundary", B, f"big@{tmp_path / 'big.bin'}"])
    assert result.code == 0, result
    request = server.requests[0]
    expected = body([filepart("big", "big.bin", "application/octet-stream", data)])
    assert request.header("Content-Length") == str(len(expected))
    assert request.body == expected


def test_raw_file_body_is_streamed_with_put(server, tmp_path):
    data = os.urandom(300_000)
    (tmp_path / "disk.img").write_bytes(data)
    result = run(["put", server.url + "/put", f"@{tmp_path / 'disk.img'}"])
    assert result.code == 0, result
    assert server.requests[0].header("Content-Length") == "300000"
    assert server.requests[0].body == data


def test_redirect_307_resends_the_whole_body(server, files):
    def handler(request):
        if request.target == "/first":
            return Response(status=307, reason="Temporary Redirect", headers=[("Location", "/second")], body=b"")
        return Response()
    server.handler = handler
    result = run(["post", "--follow", "--form", server.url + "/first", "--boundary", B, "a=1",
                  f"f@{files / 'c.txt'}"])
    assert result.code == 0, result
    first, second = server.requests
    assert (first.target, second.target) == ("/first", "/second")
    assert second.method == "POST"
    assert first.body == second.body == body([field("a", "1"), filepart("f", "c.txt", "text/plain", b"plain text\n")])
    assert second.header("Content-Length") == str(len(first.body))


def test_httpbin_sees_form_and_files(httpbin, files):
    result = run(["post", "--form", httpbin + "/post", "title=Beach", "tags:=[\"a\",\"b\"]",
                  f"photo@{files / 'c.txt'}", f"doc@{files / 'report.bin'};type=application/pdf"])
    assert result.code == 0, result
    echoed = json.loads(result.stdout)
    assert echoed["form"] == {"title": "Beach", "tags[]": ["a", "b"]}
    assert echoed["files"] == {"photo": "plain text\n", "doc": "%PDF-1.4 fake"}
    assert echoed["headers"]["Content-Type"].startswith("multipart/form-data; boundary=Boundary+")


# ---------------------------------------------------------------------------------------------
# Printing


def test_terminal_shows_placeholders_for_file_contents(files):
    result = run_tty(["post", "--offline", ":8080/post", "k=v", f"f@{files / 'a.jpg'}"], env={"NO_COLOR": "1"})
    assert result.code == 0, result
    assert b"[8 bytes of file data not shown]" in result.stdout
    assert b"JPEG-A" not in result.stdout
    assert b'Content-Disposition: form-data; name="k"' in result.stdout


def test_verbose_on_a_terminal_shows_placeholders(server, files):
    result = run_tty(["post", "-v", "--form", server.url + "/post", f"f@{files / 'c.txt'}"], env={"NO_COLOR": "1"})
    assert result.code == 0, result
    assert b"[11 bytes of file data not shown]" in result.stdout
    assert b"plain text" not in result.stdout
    assert server.requests[0].body.count(b"plain text\n") == 1


def test_verbose_piped_shows_file_contents_in_full(server, files):
    result = run(["post", "-v", "--form", server.url + "/post", "--boundary", B, f"f@{files / 'c.txt'}"])
    assert result.code == 0, result
    assert body([filepart("f", "c.txt", "text/plain", b"plain text\n")]) in result.stdout


# ---------------------------------------------------------------------------------------------
# Throttling and progress


def test_throttle_3g_paces_packets(server, tmp_path):
    (tmp_path / "x.bin").write_bytes(b"x" * 40_000)  # three 16384-byte packets, 0.2 s each
    start = time.monotonic()
    result = run(["post", "--form", server.url + "/post", "--throttle", "3g", f"x@{tmp_path / 'x.bin'}"])
    elapsed = time.monotonic() - start
    assert result.code == 0, result
    assert elapsed >= 0.6
    assert server.requests[0].body.count(b"x" * 40_000) == 1


def test_throttle_rate(server, tmp_path):
    (tmp_path / "x.bin").write_bytes(b"y" * 100_000)
    start = time.monotonic()
    result = run(["post", "--form", server.url + "/post", "--throttle", "200k", f"x@{tmp_path / 'x.bin'}"])
    assert result.code == 0, result
    assert time.monotonic() - start >= 0.4


def test_progress_percent_lines(server, tmp_path):
    (tmp_path / "p.bin").write_bytes(os.urandom(2 * 1024 * 1024))
    result = run(["post", "--form", server.url + "/post", "--progress=percent", f"p@{tmp_path / 'p.bin'}"])
    assert result.code == 0, result
    lines = result.err.splitlines()
    assert lines and all(re.fullmatch(r"\d{1,3}%", line) for line in lines), result.err
    numbers = [int(line[:-1]) for line in lines]
    assert numbers == sorted(set(numbers))
    assert numbers[0] == 0 and numbers[-1] == 100


def test_progress_bar_and_none(server, files):
    bar = run(["post", "--form", server.url + "/post", "--progress=bar", f"f@{files / 'c.txt'}"])
    assert bar.code == 0, bar
    assert "\r" in bar.err and "100%" in bar.err and bar.err.endswith("\n")
    assert "c.txt" in bar.err
    quiet = run(["post", "--form", server.url + "/post", "--progress=none", f"f@{files / 'c.txt'}"])
    assert quiet.err == ""
    auto = run(["post", "--form", server.url + "/post", f"f@{files / 'c.txt'}"])
    assert auto.err == ""  # stderr is not a terminal


# ---------------------------------------------------------------------------------------------
# Refusals: one error line, exit 2, nothing sent


@pytest.mark.parametrize("items, message", [
    (["f@{d}/missing.png"], "no such file or directory"),
    (["f@{d}"], "is a directory"),
    (["f@{d}/c.txt/x"], "not a directory"),
    (['a"b@{d}/c.txt'], 'names cannot contain "'),
    (["a\nb@{d}/c.txt"], "names cannot contain"),
    (["a\rb=1", "f@{d}/c.txt"], "names cannot contain"),
    (['f@{d}/c.txt;filename=x"y.txt'], "invalid file name"),
    (["f@{d}/c.txt;filename=x\ny"], "invalid file name"),
    (["f@{d}/c.txt;type=text"], "is not a media type"),
    (["f@{d}/c.txt;type=text/plain; charset=a\r\nX-Evil: 1"], "invalid content type"),
    (["a@-", "b@-"], "only one file item can read standard input"),
])
def test_bad_input_is_refused_before_sending(server, files, items, message):
    args = ["post", "--form", server.url + "/post"] + [item.replace("{d}", str(files)) for item in items]
    result = run(args, input=b"")
    assert result.code == 2, result
    assert result.err.startswith("afcli: error: ") and message in result.err, result.err
    assert server.requests == []


@pytest.mark.parametrize("method", ["get", "head"])
def test_file_items_with_get_or_head_are_refused(server, files, method):
    result = run([method, server.url + "/x", f"f@{files / 'c.txt'}"])
    assert result.code == 2, result
    assert "file uploads need a method with a body" in result.err
    assert server.requests == []


def test_file_items_with_explicit_json_are_refused(server, files):
    result = run(["post", "--json", server.url + "/x", f"f@{files / 'c.txt'}"])
    assert result.code == 2, result
    assert "file items need a multipart body, not --json" in result.err
    assert server.requests == []


@pytest.mark.parametrize("option, message", [
    (["--boundary", 'bad"quote'], "--boundary"),
    (["--boundary", "x" * 71], "longer than 70"),
    (["--throttle", "fast"], "is not 3g or a rate"),
    (["--progress", "sometimes"], "is not one of auto, bar, percent, none"),
])
def test_bad_options_are_refused(server, option, message):
    result = run(["post", "--multipart", server.url + "/post", "a=1"] + option)
    assert result.code == 2, result
    assert message in result.err
    assert server.requests == []


def test_file_that_changes_size_mid_send_aborts_with_exit_1(server, tmp_path):
    path = tmp_path / "growing.bin"
    path.write_bytes(b"g" * (1024 * 1024))

    def grow():
        time.sleep(0.15)
        with open(path, "ab") as handle:
            handle.write(b"more")

    grower = threading.Thread(target=grow)
    grower.start()
    # Paced at 2 MiB/s, the 1 MiB file is still being read when it grows.
    result = run(["post", "--form", server.url + "/post", "--throttle", "2m", f"g@{path}"])
    grower.join()
    assert result.code == 1, result
    assert "changed size while it was being sent" in result.err
    # Whatever reached the server is short of its Content-Length: no complete, wrong body was sent.
    assert all(len(r.body) < int(r.header("Content-Length")) for r in server.requests)
