"""`afcli download`: naming, resume, faults, interrupts and errors, end to end.

Real Range/ETag/If-Range behaviour comes from nginx; faults (dropped connections, ignored ranges,
wrong Content-Range, 416, slow bodies) from the in-process loopback server with `RangeFile`, a
handler that serves bytes the way a static file server does.
"""

import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request

import pytest

from conftest import BINARY, Response, base_env, run, start
from nginx import NginxServer

MiB = 1024 * 1024


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def read_state(path):
    """The fields of a state file as a dict, or None when it is missing."""
    if not os.path.exists(path):
        return None
    lines = open(path).read().splitlines()
    assert lines[0] == "afcli download state 1", lines
    return dict(line.split(": ", 1) for line in lines[1:])


class RangeFile:
    """Serves `data` like a static file server: ETag, Last-Modified, Range with If-Range, 416.

    `delay` seconds pass between `chunk`-byte pieces (a slow body); `stop_after` bytes of a
    response end it early by closing the connection; `honor_range=False` ignores Range (200).
    """

    def __init__(self, data, etag='"v1"', last_modified="Mon, 01 Jan 2024 00:00:00 GMT",
                 content_type="application/octet-stream", chunk=64 * 1024, delay=0.0,
                 stop_after=None, honor_range=True, extra_headers=()):
        self.data = data
        self.etag = etag
        self.last_modified = last_modified
        self.content_type = content_type
        self.chunk = chunk
        self.delay = delay
        self.stop_after = stop_after
        self.honor_range = honor_range
        self.extra_headers = list(extra_headers)

    def __call__(self, request):
        total = len(self.data)
        start, status, reason = 0, 200, "OK"
        wanted = request.header("Range")
        validator = request.header("If-Range")
        validator_ok = validator is None or validator in (self.etag, self.last_modified)
        if wanted and self.honor_range and validator_ok:
            start = int(re.fullmatch(r"bytes=(\d+)-", wanted).group(1))
            if start >= total:
                return Response(416, "Range Not Satisfiable",
                                [("Content-Range", f"bytes */{total}")], b"")
            status, reason = 206, "Partial Content"
        body = self.data[start:]
        headers = [("Content-Type", self.content_type), ("Accept-Ranges", "bytes"),
                   ("Content-Length", str(len(body)))]
        if self.etag:
            headers.append(("ETag", self.etag))
        if self.last_modified:
            headers.append(("Last-Modified", self.last_modified))
        if status == 206:
            headers.append(("Content-Range", f"bytes {start}-{total - 1}/{total}"))
        headers += self.extra_headers
        limit = len(body) if self.stop_after is None else min(self.stop_after, len(body))

        def pieces():
            for offset in range(0, limit, self.chunk):
                if self.delay:
                    time.sleep(self.delay)
                yield body[offset:min(offset + self.chunk, limit)]

        fault = "close" if limit < len(body) else None
        return Response(status, reason, headers, pieces, fault=fault)


def start_download(args, cwd, may_die_of=()):
    """Starts afcli in `cwd` without waiting (for signals)."""
    return start(args, may_die_of, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                 stderr=subprocess.PIPE)


def wait_for(condition, timeout=5.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


# MARK: - Naming


def test_names_from_url_and_never_overwrites(server, tmp_path):
    data = os.urandom(100_000)
    server.handler = RangeFile(data)
    url = server.url + "/files/big.iso?token=1"
    for expected in ["big.iso", "big-1.iso", "big-2.iso"]:
        result = run(["download", url], cwd=tmp_path)
        assert result.code == 0, result
        assert f"saved {expected} (97.7 KiB)" in result.err
        assert (tmp_path / expected).read_bytes() == data
    (tmp_path / "big.iso").write_bytes(b"mine")
    assert run(["download", "--overwrite", url], cwd=tmp_path).code == 0
    assert (tmp_path / "big.iso").read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big-1.iso", "big-2.iso", "big.iso"]


def test_output_option_names_the_file_and_replaces_it(server, tmp_path):
    server.handler = RangeFile(b"new contents")
    (tmp_path / "out.bin").write_bytes(b"old")
    result = run(["download", "-o", "out.bin", server.url + "/x"], cwd=tmp_path)
    assert result.code == 0, result
    assert (tmp_path / "out.bin").read_bytes() == b"new contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


@pytest.mark.parametrize("disposition, expected", [
    ("attachment; filename=\"report.pdf\"", "report.pdf"),
    ("attachment; filename=\"x.txt\"; filename*=UTF-8''na%C3%AFve%20r%C3%A9sum%C3%A9.txt", "naïve résumé.txt"),
    ("attachment; filename=\"../../../etc/evil.sh\"", "evil.sh"),
    ("attachment; filename*=UTF-8''..%2F..%2Fescape.txt", "escape.txt"),
    ("attachment; filename=\".bashrc\"", "bashrc"),
    ("attachment; filename=\"a\\\\b\\\\c.txt\"", "c.txt"),
    ("attachment; filename=\"bell\x07name.txt\"", "bellname.txt"),
    ("attachment; filename=\"..\"", "from-url.bin"),
    ("attachment; filename=report", "report.pdf"),
])
def test_content_disposition_variants(server, tmp_path, disposition, expected):
    work = tmp_path / "work"
    work.mkdir()
    server.handler = RangeFile(b"%PDF-1.4", content_type="application/pdf" if expected == "report.pdf" else
                               "application/octet-stream", extra_headers=[("Content-Disposition", disposition)])
    result = run(["download", server.url + "/dir/from-url.bin"], cwd=work)
    assert result.code == 0, result
    assert [p.name for p in work.iterdir()] == [expected]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["work"]


def test_index_and_extension_from_media_type(server, tmp_path):
    server.handler = RangeFile(b"<html></html>", content_type="text/html; charset=utf-8")
    assert run(["download", server.url + "/"], cwd=tmp_path).code == 0
    assert run(["download", server.url + "/api/users"], cwd=tmp_path).code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html", "users.html"]


def test_follows_redirects_and_asks_for_identity(server, tmp_path):
    files = RangeFile(b"payload")

    def handler(request):
        if request.target == "/old":
            return Response(302, "Found", [("Location", "/new/file.txt")], b"")
        return files(request)

    server.handler = handler
    result = run(["download", server.url + "/old"], cwd=tmp_path)
    assert result.code == 0, result
    # The name comes from the URL typed, as curl -O and wget do.
    assert (tmp_path / "old").read_bytes() == b"payload"
    assert [r.target for r in server.requests] == ["/old", "/new/file.txt"]
    assert all(r.header("Accept-Encoding") == "identity" for r in server.requests)
    assert all(r.header("Range") is None for r in server.requests)


def test_stdout_streams_the_body(server, tmp_path):
    data = os.urandom(300_000)
    server.handler = RangeFile(data)
    result = run(["download", "-o", "-", server.url + "/f.bin"], cwd=tmp_path)
    assert result.code == 0, result
    assert result.stdout == data
    assert list(tmp_path.iterdir()) == []


def test_several_urls_and_a_summary(server, tmp_path):
    files = {"/a.txt": RangeFile(b"aaa"), "/b.txt": RangeFile(b"bbbb")}
    server.handler = lambda r: files[r.target](r) if r.target in files else Response(404, "Not Found", [], b"no")
    result = run(["download", server.url + "/a.txt", server.url + "/missing", server.url + "/b.txt"], cwd=tmp_path)
    assert result.code == 4, result
    assert f"afcli: error: {server.url}/missing: HTTP 404 Not Found; nothing was saved\n" in result.err
    assert "afcli: 3 downloads, 2 complete, 1 failed" in result.err
    assert f"failed {server.url}/missing: HTTP 404 Not Found" in result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


# MARK: - Resume against nginx (real Range, ETag and If-Range)


@pytest.fixture
def nginx_file(tmp_path_factory):
    www = tmp_path_factory.mktemp("www")
    data = os.urandom(2 * MiB + 12345)
    (www / "big.bin").write_bytes(data)
    with NginxServer(www) as srv:
        head = urllib.request.urlopen(urllib.request.Request(srv.url + "/big.bin", method="HEAD"))
        yield srv.url + "/big.bin", data, head.headers["ETag"], head.headers["Last-Modified"]


def make_partial(directory, name, data, url, etag=None, last_modified=None, total=None, inode=None):
    """A partial file and its state as afcli writes them; the state names the partial file's
    inode (or `inode`, to forge one that does not belong; False leaves it out, as an older afcli)."""
    part = directory / (name + ".part")
    part.write_bytes(data)
    lines = ["afcli download state 1", f"url: {url}", f"bytes: {len(data)}"]
    if total is not None:
        lines.append(f"total: {total}")
    if etag:
        lines.append(f"etag: {etag}")
    if last_modified:
        lines.append(f"last-modified: {last_modified}")
    if inode is not False:
        lines.append(f"inode: {part.stat().st_ino if inode is None else inode}")
    (directory / (name + ".part.state")).write_text("\n".join(lines) + "\n")


def test_nginx_resume_with_etag(nginx_file, tmp_path):
    url, data, etag, _ = nginx_file
    work = tmp_path
    make_partial(work, "big.bin", data[:700_000], url, etag=etag, total=len(data))
    result = run(["download", "--resume", "--sha256", sha256(data), url], cwd=work)
    assert result.code == 0, result
    assert "resumed at 683.6 KiB" in result.err and "SHA-256 verified" in result.err
    assert "warning" not in result.err
    assert (work / "big.bin").read_bytes() == data
    assert sorted(p.name for p in work.iterdir()) == ["big.bin"]


def test_nginx_resume_with_last_modified(nginx_file, tmp_path):
    url, data, _, last_modified = nginx_file
    make_partial(tmp_path, "big.bin", data[:1000], url, etag='W/"weak"', last_modified=last_modified)
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert "warning" not in result.err
    assert (tmp_path / "big.bin").read_bytes() == data


def test_nginx_changed_etag_restarts_from_zero(nginx_file, tmp_path):
    url, data, _, _ = nginx_file
    make_partial(tmp_path, "big.bin", b"x" * 5000, url, etag='"stale-etag"', total=len(data))
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert "afcli: warning: the server sent the whole file" in result.err
    assert (tmp_path / "big.bin").read_bytes() == data


def test_nginx_416_on_a_complete_partial_is_success(nginx_file, tmp_path):
    url, data, etag, _ = nginx_file
    make_partial(tmp_path, "big.bin", data, url, etag=etag, total=len(data))
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert "big.bin was already complete" in result.err
    assert (tmp_path / "big.bin").read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.bin"]


def test_nginx_continues_a_file_written_by_another_tool(nginx_file, tmp_path):
    url, data, _, _ = nginx_file
    (tmp_path / "out.bin").write_bytes(data[:1_500_000])
    result = run(["download", "-o", "out.bin", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert (tmp_path / "out.bin").read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]
    # Already whole: the server's 416 confirms it and nothing changes.
    again = run(["download", "-o", "out.bin", "--resume", "--sha256", sha256(data), url], cwd=tmp_path)
    assert again.code == 0 and "already complete" in again.err, again


# MARK: - Faults (loopback)


def test_dropped_connection_keeps_state_then_resumes(server, tmp_path):
    data = os.urandom(600_000)
    server.handler = RangeFile(data, chunk=16 * 1024, stop_after=250_000)
    result = run(["download", server.url + "/d.bin"], cwd=tmp_path)
    assert result.code == 1, result
    assert "incomplete download" in result.err and "run again with --resume" in result.err
    state = read_state(tmp_path / "d.bin.part.state")
    part = (tmp_path / "d.bin.part").read_bytes()
    assert int(state["bytes"]) <= len(part) and part == data[:len(part)]
    assert int(state["bytes"]) == 250_000 and state["total"] == "600000"
    assert not (tmp_path / "d.bin").exists()

    server.handler = RangeFile(data)
    result = run(["download", "--resume", server.url + "/d.bin"], cwd=tmp_path)
    assert result.code == 0, result
    assert server.requests[-1].header("Range") == "bytes=250000-"
    assert server.requests[-1].header("If-Range") == '"v1"'
    assert (tmp_path / "d.bin").read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.bin"]


def test_ignored_range_restarts_with_a_warning(server, tmp_path):
    data = os.urandom(50_000)
    make_partial(tmp_path, "r.bin", data[:10_000], server.url + "/r.bin", etag='"v1"', total=len(data))
    server.handler = RangeFile(data, honor_range=False)
    result = run(["download", "--resume", server.url + "/r.bin"], cwd=tmp_path)
    assert result.code == 0, result
    assert "afcli: warning: the server sent the whole file (it changed, or ranges are not supported)" in result.err
    assert (tmp_path / "r.bin").read_bytes() == data


def test_changed_etag_between_runs_restarts(server, tmp_path):
    old, new = os.urandom(40_000), os.urandom(45_000)
    server.handler = RangeFile(old, etag='"old"', stop_after=20_000, chunk=4096)
    assert run(["download", server.url + "/e.bin"], cwd=tmp_path).code == 1
    server.handler = RangeFile(new, etag='"new"', last_modified="Tue, 02 Jan 2024 00:00:00 GMT")
    result = run(["download", "--resume", server.url + "/e.bin"], cwd=tmp_path)
    assert result.code == 0, result
    assert server.requests[-1].header("If-Range") == '"old"'
    assert "warning: the server sent the whole file" in result.err
    assert (tmp_path / "e.bin").read_bytes() == new


@pytest.mark.parametrize("content_range", ["bytes 0-39999/40000", "bytes 10000-49999/50000", None])
def test_wrong_content_range_leaves_the_file_untouched(server, tmp_path, content_range):
    data = os.urandom(40_000)
    make_partial(tmp_path, "w.bin", data[:10_000], server.url + "/w.bin", etag='"v1"', total=len(data))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    headers = [("Content-Length", "30000")] + ([("Content-Range", content_range)] if content_range else [])
    server.handler = lambda r: Response(206, "Partial Content", headers, data[10_000:])
    result = run(["download", "--resume", server.url + "/w.bin"], cwd=tmp_path)
    assert result.code == 1, result
    if content_range == "bytes 10000-49999/50000":
        # The range continues the file, but the file changed size on the server.
        assert ("the server now reports 50000 bytes for the file, the partial download expected 40000"
                in result.err and "remove w.bin.part to start again" in result.err), result
    else:
        assert "asked for bytes 10000- but the server answered with" in result.err
        assert "w.bin.part was left untouched" in result.err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_leftover_states_without_a_partial_file(server, tmp_path):
    data = os.urandom(20_000)
    server.handler = RangeFile(data)
    url = server.url + "/z.bin"
    # Killed after the finished file was renamed into place, before its state was removed: the
    # state names the file's inode, so nothing is sent.
    (tmp_path / "z.bin").write_bytes(data)
    inode = (tmp_path / "z.bin").stat().st_ino
    (tmp_path / "z.bin.part.state").write_text(
        f"afcli download state 1\nurl: {url}\nbytes: 20000\ntotal: 20000\ninode: {inode}\n")
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0 and "z.bin was already complete" in result.err, result
    assert server.requests == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["z.bin"]
    # A state that does not name the file cannot vouch for it: the server's 416 does.
    (tmp_path / "z.bin.part.state").write_text(f"afcli download state 1\nurl: {url}\nbytes: 20000\ntotal: 20000\n")
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0 and "z.bin was already complete" in result.err, result
    assert [r.header("Range") for r in server.requests] == ["bytes=20000-"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["z.bin"]
    server.requests.clear()
    # Killed after claiming the name, before the partial file existed: a fresh start, same name.
    (tmp_path / "z.bin").unlink()
    (tmp_path / "z.bin.part.state").write_text(f"afcli download state 1\nurl: {url}\nbytes: 0\n")
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert sorted(p.name for p in tmp_path.iterdir()) == ["z.bin"]
    assert (tmp_path / "z.bin").read_bytes() == data


def test_killed_between_linking_into_place_and_unlinking_the_partial_name(server, tmp_path):
    data = os.urandom(20_000)
    server.handler = RangeFile(data)
    url = server.url + "/y.bin"
    # The finished file was hard-linked to its name; the partial name and the state remain.
    make_partial(tmp_path, "y.bin", data, url, total=len(data))
    os.link(tmp_path / "y.bin.part", tmp_path / "y.bin")
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0 and "y.bin was already complete" in result.err, result
    assert sorted(p.name for p in tmp_path.iterdir()) == ["y.bin"]
    assert (tmp_path / "y.bin").read_bytes() == data


def test_416_with_a_different_size_starts_again(server, tmp_path):
    data = os.urandom(30_000)
    make_partial(tmp_path, "s.bin", data[:20_000], server.url + "/s.bin")
    calls = []

    def handler(request):
        calls.append(request.header("Range"))
        if request.header("Range"):
            return Response(416, "Range Not Satisfiable", [("Content-Range", "bytes */15000")], b"")
        return RangeFile(data)(request)

    server.handler = handler
    result = run(["download", "--resume", server.url + "/s.bin"], cwd=tmp_path)
    assert result.code == 0, result
    assert calls == ["bytes=20000-", None]
    assert (tmp_path / "s.bin").read_bytes() == data


def test_http_errors_write_nothing(server, tmp_path):
    server.handler = lambda r: Response(404, "Not Found", [("Content-Type", "text/html")], b"<h1>no</h1>")
    result = run(["download", server.url + "/gone.bin"], cwd=tmp_path)
    assert result.code == 4 and "HTTP 404 Not Found; nothing was saved" in result.err, result
    server.handler = lambda r: Response(500, "Internal Server Error", [], b"oops")
    assert run(["download", "-o", "x.bin", server.url + "/x"], cwd=tmp_path).code == 5
    assert list(tmp_path.iterdir()) == []
    # A failed resume keeps the partial file and its state as they were.
    make_partial(tmp_path, "k.bin", b"12345", server.url + "/k.bin")
    assert run(["download", "--resume", server.url + "/k.bin"], cwd=tmp_path).code == 5
    assert (tmp_path / "k.bin.part").read_bytes() == b"12345"
    assert read_state(tmp_path / "k.bin.part.state")["bytes"] == "5"


def test_sha256_mismatch_keeps_nothing(server, tmp_path):
    data = os.urandom(70_000)
    server.handler = RangeFile(data)
    result = run(["download", "--sha256", "0" * 64, server.url + "/h.bin"], cwd=tmp_path)
    assert result.code == 1, result
    assert f"SHA-256 mismatch for h.bin: expected {'0' * 64}, got {sha256(data)}; the file was not kept" in result.err
    assert list(tmp_path.iterdir()) == []
    ok = run(["download", "--sha256", sha256(data).upper(), server.url + "/h.bin"], cwd=tmp_path)
    assert ok.code == 0 and "SHA-256 verified" in ok.err


def test_retry_resumes_after_transient_failures(server, tmp_path):
    data = os.urandom(200_000)
    attempts = []

    def handler(request):
        attempts.append(request.header("Range"))
        if len(attempts) == 1:
            return RangeFile(data, stop_after=80_000, chunk=8192)(request)
        if len(attempts) == 2:
            return Response(503, "Service Unavailable", [("Retry-After", "0")], b"busy")
        return RangeFile(data)(request)

    server.handler = handler
    result = run(["download", "--retry", "3", "--retry-delay", "0.05", server.url + "/t.bin"], cwd=tmp_path)
    assert result.code == 0, result
    assert attempts == [None, "bytes=80000-", "bytes=80000-"]
    assert "retrying in 0.05 s (retry 1 of 3)" in result.err
    # The retry continues the partial file itself: no advice to run again while it does.
    assert "incomplete download: the transfer stopped after" in result.err
    assert "run again with --resume" not in result.err
    assert "2 retries" in result.err
    assert (tmp_path / "t.bin").read_bytes() == data


@pytest.mark.parametrize("status,reason,headers", [
    (503, "Service Unavailable", [("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT")]),
    (429, "Too Many Requests", [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "0")]),
])
def test_a_retry_waits_what_the_server_names_as_a_request_does(server, tmp_path, status, reason, headers):
    # An HTTP-date in the past and a used-up rate limit that resets now both mean no wait, not
    # the 30 s of --retry-delay.
    data = os.urandom(50_000)
    calls = []

    def handler(request):
        calls.append(request.header("Range"))
        return Response(status, reason, headers, b"later") if len(calls) == 1 else RangeFile(data)(request)

    server.handler = handler
    result = run(["download", "--retry", "1", "--retry-delay", "30", server.url + "/w.bin"], cwd=tmp_path,
                 timeout=20)
    assert result.code == 0, result
    assert "retrying in 0 s (retry 1 of 1)" in result.err
    assert (tmp_path / "w.bin").read_bytes() == data


def test_retry_continues_a_stream_with_a_range(server, tmp_path):
    data = os.urandom(150_000)
    calls = []

    def handler(request):
        calls.append(request.header("Range"))
        return RangeFile(data, stop_after=60_000 if len(calls) == 1 else None, chunk=4096)(request)

    server.handler = handler
    result = run(["download", "-o", "-", "--retry", "1", "--retry-delay", "0.01", server.url + "/s.bin"],
                 cwd=tmp_path)
    assert result.code == 0, result
    assert calls == [None, "bytes=60000-"]
    assert result.stdout == data
    assert list(tmp_path.iterdir()) == []


def test_a_retry_waits_without_blocking_ctrl_c_and_keeps_the_partial_file(server, tmp_path):
    data = os.urandom(100_000)
    calls = []

    def handler(request):
        calls.append(request.header("Range"))
        return RangeFile(data, stop_after=40_000, chunk=8192)(request)

    server.handler = handler
    proc = start_download(["download", "--retry", "2", "--retry-delay", "30", server.url + "/w.bin"], cwd=tmp_path)
    assert wait_for(lambda: len(calls) == 1 and (tmp_path / "w.bin.part.state").exists())
    time.sleep(0.3)
    sent = time.time()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=5)
    assert time.time() - sent < 1.5
    assert proc.returncode == 130, err
    assert b"retrying in 30 s (retry 1 of 2)" in err and err.count(b"afcli: error:") == 1, err
    assert calls == [None]
    assert read_state(tmp_path / "w.bin.part.state")["bytes"] == "40000"
    server.handler = RangeFile(data)
    result = run(["download", "--resume", server.url + "/w.bin"], cwd=tmp_path)
    assert result.code == 0 and "resumed at" in result.err, result
    assert (tmp_path / "w.bin").read_bytes() == data


def test_each_download_of_several_is_told_before_the_next_starts(server, tmp_path):
    data = os.urandom(20_000)
    calls = []

    def handler(request):
        calls.append(request.target)
        if request.target == "/b.bin" and calls.count("/b.bin") == 1:
            return Response(503, "Service Unavailable", [], b"")
        return RangeFile(data)(request)

    server.handler = handler
    result = run(["download", "--retry", "1", "--retry-delay", "0.01", server.url + "/a.bin", server.url + "/b.bin"],
                 cwd=tmp_path)
    assert result.code == 0, result
    assert calls == ["/a.bin", "/b.bin", "/b.bin"]
    saved = result.err.index("afcli: saved a.bin (19.5 KiB)")
    retried = result.err.index("HTTP 503 Service Unavailable; nothing was saved; retrying in 0.01 s (retry 1 of 1)")
    assert saved < retried < result.err.index("afcli: saved b.bin (19.5 KiB, 1 retry)"), result.err
    assert "afcli: 2 downloads, 2 complete, 0 failed" in result.err


def test_ctrl_c_stops_the_downloads_still_to_come(server, tmp_path):
    data = os.urandom(400_000)
    server.handler = RangeFile(data, chunk=8192, delay=0.02)
    proc = start_download(["download", server.url + "/one.bin", server.url + "/two.bin"], cwd=tmp_path)
    assert wait_for(lambda: (tmp_path / "one.bin.part").exists() and (tmp_path / "one.bin.part").stat().st_size > 50_000)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=5)
    assert proc.returncode == 130, err
    assert err.count(b"afcli: error:") == 1 and b"saved in one.bin.part" in err and b"downloads," not in err, err
    assert [r.target for r in server.requests] == ["/one.bin"]


def test_a_name_that_appears_meanwhile_is_not_clobbered(server, tmp_path):
    data = os.urandom(100_000)
    server.handler = RangeFile(data, chunk=10_000, delay=0.03)
    proc = start_download(["download", server.url + "/late.bin"], cwd=tmp_path)
    assert wait_for(lambda: (tmp_path / "late.bin.part.state").exists())
    (tmp_path / "late.bin").write_bytes(b"someone else's")
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert b"late.bin appeared while downloading; saved as late-1.bin instead" in err
    assert (tmp_path / "late.bin").read_bytes() == b"someone else's"
    assert (tmp_path / "late-1.bin").read_bytes() == data


def test_retry_gives_up_after_n(server, tmp_path):
    server.handler = lambda r: Response(503, "Service Unavailable", [], b"")
    result = run(["download", "--retry", "2", "--retry-delay", "0.01", server.url + "/u.bin"], cwd=tmp_path)
    assert result.code == 5, result
    assert len(server.requests) == 3
    assert list(tmp_path.iterdir()) == []


# MARK: - Interrupts


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_saves_state_and_exits_130(server, tmp_path, sig):
    data = os.urandom(400_000)
    server.handler = RangeFile(data, chunk=8192, delay=0.02)
    proc = start_download(["download", server.url + "/slow.bin"], cwd=tmp_path)
    part = tmp_path / "slow.bin.part"
    assert wait_for(lambda: part.exists() and part.stat().st_size > 50_000)
    sent = time.time()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=5)
    assert time.time() - sent < 1.5
    assert proc.returncode == 130, err
    # The message names the partial file and how to continue it.
    assert re.search(rb"afcli: error: interrupted: [0-9.]+ (B|KiB|MiB) saved in slow.bin.part; "
                     rb"run the same command with --resume to continue\n", err), err
    state = read_state(tmp_path / "slow.bin.part.state")
    content = part.read_bytes()
    # Everything received was flushed and is vouched for by the state.
    assert int(state["bytes"]) == len(content) and content == data[:len(content)]

    server.handler = RangeFile(data)
    result = run(["download", "--resume", server.url + "/slow.bin"], cwd=tmp_path)
    assert result.code == 0, result
    assert (tmp_path / "slow.bin").read_bytes() == data


def test_sigkill_at_random_points_then_resume(server, tmp_path):
    """50 SIGKILLs at random moments; after each the state must vouch only for correct bytes on
    disk, and every file finished by --resume must have the right digest."""
    data = os.urandom(256 * 1024)
    digest = sha256(data)
    server.handler = RangeFile(data, chunk=8192, delay=0.016)
    url = server.url + "/blob.bin"
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    kills = finished = 0
    started = time.time()
    while kills < 50:
        work = tmp_path / f"cycle{finished}"
        work.mkdir()
        while True:
            proc = start_download(["download", "--resume", url], cwd=work, may_die_of=[signal.SIGKILL])
            time.sleep(rng.uniform(0.0, 0.45))
            killed = proc.poll() is None
            if killed:
                proc.kill()
                kills += 1
            proc.communicate()
            state = read_state(work / "blob.bin.part.state")
            if state is not None and (work / "blob.bin.part").exists():
                content = (work / "blob.bin.part").read_bytes()
                vouched = int(state["bytes"])
                assert vouched <= len(content), (seed, kills)
                assert content[:vouched] == data[:vouched], (seed, kills)
            if (work / "blob.bin").exists():
                if killed and (work / "blob.bin.part.state").exists():
                    # Killed between renaming the file into place and removing the state.
                    result = run(["download", "--resume", url], cwd=work)
                    assert result.code == 0 and "blob.bin was already complete" in result.err, (seed, result)
                break
            if kills >= 50:
                result = run(["download", "--resume", url], cwd=work)
                assert result.code == 0, (seed, result)
                break
        assert sha256((work / "blob.bin").read_bytes()) == digest, (seed, kills)
        assert not (work / "blob.bin.part").exists() and not (work / "blob.bin.part.state").exists(), seed
        finished += 1
    assert time.time() - started < 60, seed


# MARK: - Errors


def test_bad_combinations_are_usage_errors(server, tmp_path):
    (tmp_path / "adir").mkdir()
    cases = [
        (["download", "-o", "-", "--resume", server.url + "/x"], "--resume cannot continue standard output"),
        (["download", "-o", "adir", server.url + "/x"], "adir is a directory; -o needs a file name"),
        (["download", "-o", "f", server.url + "/a", server.url + "/b"], "-o names one file, but 2 URLs"),
        (["download", "--sha256", "abc", server.url + "/x"], "is not 64 hexadecimal digits"),
        (["download"], "missing URL"),
        (["get", server.url + "/x", "--resume"], "--resume does not apply to afcli request (it is an option of afcli download)"),
    ]
    for args, message in cases:
        result = run(args, cwd=tmp_path)
        assert result.code == 2, (args, result)
        assert result.err.startswith("afcli: error: ") and message in result.err, (args, result.err)
    assert server.requests == []
    assert [p.name for p in tmp_path.iterdir()] == ["adir"]


def test_output_in_a_missing_directory_is_bad_input(server, tmp_path):
    server.handler = RangeFile(b"data")
    (tmp_path / "plain").write_bytes(b"")
    cases = [
        (str(tmp_path / "missing" / "dir" / "x"), f"the directory {tmp_path}/missing/dir: no such file or directory"),
        (str(tmp_path / "plain" / "x"), f"the directory {tmp_path}/plain: not a directory"),
    ]
    for output, message in cases:
        result = run(["download", "-o", output, server.url + "/f.bin"], cwd=tmp_path)
        assert result.code == 2, (output, result)
        assert result.err == f"afcli: error: cannot write to {message}\n", result.err
    assert server.requests == []
    assert [p.name for p in tmp_path.iterdir()] == ["plain"]


def test_unwritable_directory(server, tmp_path):
    server.handler = RangeFile(b"data")
    directory = tempfile.mkdtemp(prefix="afcli-ro-", dir="/tmp")
    try:
        os.chmod(directory, 0o555)
        command = [str(BINARY), "download", server.url + "/f.bin"]
        if os.geteuid() == 0:
            if shutil.which("setpriv") is None:
                pytest.skip("root without setpriv cannot be denied a directory")
            command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
        proc = subprocess.run(command, cwd=directory, env=base_env(), capture_output=True, timeout=30)
        assert proc.returncode == 1, proc
        assert b"afcli: error: cannot write to the current directory: permission denied" in proc.stderr
        assert os.listdir(directory) == []
        assert server.requests == []
    finally:
        os.chmod(directory, 0o755)
        shutil.rmtree(directory)


def test_no_space_left_keeps_a_resumable_state(server, tmp_path):
    """A 128 KiB tmpfs in a private mount namespace fills up mid-download; after it grows,
    --resume finishes the file."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs root and unshare to mount a small tmpfs")
    data = os.urandom(512 * 1024)
    server.handler = RangeFile(data, chunk=16 * 1024)
    mount = tmp_path / "small"
    mount.mkdir()
    url = server.url + "/full.bin"
    script = f"""
        mount -t tmpfs -o size=128k tmpfs {mount} || exit 99
        cd {mount}
        {BINARY} download {url}; echo "first=$?"
        echo "part=$(stat -c %s full.bin.part)"; cat full.bin.part.state
        ls full.bin >/dev/null 2>&1 && echo "final exists"
        head -c "$(sed -n 's/^bytes: //p' full.bin.part.state)" full.bin.part | sha256sum
        mount -o remount,size=4m {mount}
        {BINARY} download --resume {url}; echo "second=$?"
        sha256sum full.bin; ls
    """
    proc = subprocess.run(["unshare", "--mount", "sh", "-c", script], capture_output=True, timeout=60,
                          env=base_env())
    out, err = proc.stdout.decode(), proc.stderr.decode()
    if "first=" not in out:
        pytest.skip("cannot mount a tmpfs here: " + err)
    assert "first=1" in out, (out, err)
    assert "afcli: error: cannot write to full.bin.part: no space left on device" in err, err
    assert "final exists" not in out
    vouched = int(re.search(r"^bytes: (\d+)$", out, re.M).group(1))
    assert 0 < vouched <= int(re.search(r"^part=(\d+)$", out, re.M).group(1))
    assert sha256(data[:vouched]) in out
    assert "second=0" in out, (out, err)
    assert f"{sha256(data)}  full.bin" in out
    assert out.rstrip().endswith("full.bin")


def test_progress_percent_lines(server, tmp_path):
    data = os.urandom(200_000)
    server.handler = RangeFile(data, chunk=20_000, delay=0.005)
    result = run(["download", "--progress", "percent", server.url + "/p.bin"], cwd=tmp_path)
    assert result.code == 0, result
    percents = [int(m) for m in re.findall(r"^(\d+)%$", result.err, re.M)]
    assert percents == sorted(percents) and percents[-1] == 100 and len(percents) > 3
    quiet = run(["download", "-q", server.url + "/p.bin"], cwd=tmp_path)
    assert quiet.code == 0 and quiet.err == ""


# MARK: - Resume corner cases


def test_resume_on_a_finished_file_says_it_is_complete(server, tmp_path):
    data = os.urandom(30_000)
    server.handler = RangeFile(data)
    url = server.url + "/done.bin"
    assert run(["download", url], cwd=tmp_path).code == 0
    # As wget -c: the file is whole, nothing is downloaded again, no done-1.bin.
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert "afcli: done.bin was already complete (29.3 KiB)" in result.err, result
    assert server.requests[-1].header("Range") == "bytes=30000-"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["done.bin"]
    # A shorter file under the name (another tool's partial download) is continued.
    (tmp_path / "done.bin").write_bytes(data[:12_000])
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert "resumed at 11.7 KiB" in result.err, result
    assert (tmp_path / "done.bin").read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["done.bin"]
    # A server without ranges sends it all again, as long as the file: the file is that whole
    # body (as wget -c decides), so it is complete, and the body is not read to its end.
    server.handler = RangeFile(data, honor_range=False)
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert "afcli: done.bin was already complete (29.3 KiB)" in result.err, result
    assert "warning" not in result.err and sorted(p.name for p in tmp_path.iterdir()) == ["done.bin"]
    # Of another length, the file there is kept and the body saved beside it.
    (tmp_path / "done.bin").write_bytes(data[:12_000])
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert "afcli: warning: done.bin is kept (use --overwrite to replace it); saved as done-1.bin instead" in result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["done-1.bin", "done.bin"]
    # A file longer than the resource cannot be part of it: it is left alone.
    (tmp_path / "done-1.bin").unlink()
    (tmp_path / "done.bin").write_bytes(data + b"more")
    server.requests.clear()
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert [r.header("Range") for r in server.requests] == [None]
    assert (tmp_path / "done.bin").read_bytes() == data + b"more"
    assert (tmp_path / "done-1.bin").read_bytes() == data


def test_an_unusable_state_is_reported_with_what_to_do(server, tmp_path):
    data = os.urandom(30_000)
    server.handler = RangeFile(data)
    url = server.url + "/g.bin"
    (tmp_path / "g.bin.part").write_bytes(data[:10_000])
    (tmp_path / "g.bin.part.state").write_bytes(b"GIF89a garbage")
    result = run(["download", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert ("afcli: warning: ignoring g.bin.part.state: it is not an afcli download state; not resuming "
            "from it; to continue g.bin.part anyway, run with -o g.bin --resume, or remove both files"
            in result.err), result
    assert (tmp_path / "g-1.bin").read_bytes() == data
    # Named with -o, the partial file is continued from its size.
    result = run(["download", "-o", "g.bin", "--resume", url], cwd=tmp_path)
    assert result.code == 0, result
    assert ("afcli: warning: ignoring g.bin.part.state: it is not an afcli download state; continuing "
            "g.bin.part from its size without it (remove both to start again)") in result.err, result
    assert server.requests[-1].header("Range") == "bytes=10000-"
    assert (tmp_path / "g.bin").read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g-1.bin", "g.bin"]


def test_a_state_from_an_older_afcli_is_explained(server, tmp_path):
    data = os.urandom(20_000)
    server.handler = RangeFile(data)
    make_partial(tmp_path, "o.bin", data[:5_000], server.url + "/o.bin", etag='"v1"', total=len(data), inode=False)
    result = run(["download", "-o", "o.bin", "--resume", server.url + "/o.bin"], cwd=tmp_path)
    assert result.code == 0, result
    assert ("ignoring o.bin.part.state: it does not name its partial file (an older afcli wrote it); continuing "
            "o.bin.part from its size without it") in result.err, result
    assert server.requests[-1].header("Range") == "bytes=5000-"
    assert (tmp_path / "o.bin").read_bytes() == data


def test_a_state_of_another_url_needs_o(server, tmp_path):
    data = os.urandom(30_000)
    server.handler = RangeFile(data)
    make_partial(tmp_path, "m.bin", data[:8_000], server.url + "/old-mirror/m.bin", etag='"v1"', total=len(data))
    # Found by URL, a state of another URL is never picked up: a fresh download.
    result = run(["download", "--resume", server.url + "/m.bin"], cwd=tmp_path)
    assert result.code == 0 and server.requests[-1].header("Range") is None, result
    assert (tmp_path / "m-1.bin").read_bytes() == data
    # Named with -o, it is continued, with a warning.
    result = run(["download", "-o", "m.bin", "--resume", server.url + "/m.bin"], cwd=tmp_path)
    assert result.code == 0, result
    assert (f"afcli: warning: m.bin.part.state was saved for {server.url}/old-mirror/m.bin; continuing it from "
            f"{server.url}/m.bin") in result.err, result
    assert server.requests[-1].header("Range") == "bytes=8000-"
    assert (tmp_path / "m.bin").read_bytes() == data


def test_percent_lines_never_go_back_after_a_restart(server, tmp_path):
    data = os.urandom(200_000)
    calls = []

    def handler(request):
        calls.append(request.header("Range"))
        if len(calls) == 1:
            return RangeFile(data, chunk=10_000, delay=0.002, stop_after=120_000)(request)
        # The retry's range is ignored: the download starts again from zero.
        return RangeFile(data, chunk=10_000, delay=0.002, honor_range=False)(request)

    server.handler = handler
    result = run(["download", "--progress", "percent", "--retry", "1", "--retry-delay", "0.01",
                  server.url + "/r.bin"], cwd=tmp_path)
    assert result.code == 0, result
    assert calls == [None, "bytes=120000-"]
    percents = [int(m) for m in re.findall(r"^(\d+)%$", result.err, re.M)]
    assert percents == sorted(set(percents)) and percents[-1] == 100 and max(percents[:3]) < 60, result.err
