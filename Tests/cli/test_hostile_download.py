"""`afcli download` against hostile servers and planted files: links at afcli's working names,
a Content-Length that lies, names from the network that look like afcli's working files, and a
state that does not belong to the partial file beside it.

Every case runs in a temporary directory with a "victim" file outside it that must come out
unchanged.
"""

import os
import shutil
import signal
import stat
import threading

import pytest

from conftest import Response
from test_download import RangeFile, make_partial, read_state, run, start_download, wait_for

MiB = 1024 * 1024


@pytest.fixture
def victim(tmp_path):
    """A file of the user's that a planted link points at."""
    path = tmp_path / "victim.txt"
    path.write_bytes(b"precious\n")
    return path


@pytest.fixture
def work(tmp_path):
    path = tmp_path / "work"
    path.mkdir()
    return path


# MARK: - Planted symbolic links


def test_resume_refuses_a_symlink_at_the_partial_name(server, work, victim):
    data = os.urandom(50_000)
    server.handler = RangeFile(data)
    url = server.url + "/f.bin"
    (work / "f.bin.part").symlink_to(victim)
    # A state that would vouch for the link's target, inode and all.
    (work / "f.bin.part.state").write_text(
        f"afcli download state 1\nurl: {url}\nbytes: {victim.stat().st_size}\ntotal: {len(data)}\n"
        f"inode: {victim.stat().st_ino}\n")
    for args in (["download", "--resume", url], ["download", "-o", "f.bin", "--resume", url]):
        result = run(args, cwd=work)
        assert result.code == 1, (args, result)
        assert ("afcli: error: refusing to use f.bin.part: it is a symbolic link; afcli writes only regular "
                "files of your own, so remove it and run again") in result.err, result
        assert victim.read_bytes() == b"precious\n"
        assert (work / "f.bin.part").is_symlink() and not os.path.lexists(work / "f.bin")


def test_a_fresh_download_refuses_a_symlink_at_the_partial_name(server, work, victim):
    server.handler = RangeFile(os.urandom(20_000))
    (work / "out.bin.part").symlink_to(victim)
    result = run(["download", "-o", "out.bin", server.url + "/x"], cwd=work)
    assert result.code == 1 and "refusing to use out.bin.part: it is a symbolic link" in result.err, result
    assert victim.read_bytes() == b"precious\n"
    # --overwrite does not follow it either.
    result = run(["download", "--overwrite", server.url + "/out.bin"], cwd=work)
    assert result.code == 1 and "refusing to use out.bin.part: it is a symbolic link" in result.err, result
    assert victim.read_bytes() == b"precious\n"


def test_links_at_the_state_and_its_temporary_are_replaced_not_followed(server, work, victim):
    data = os.urandom(30_000)
    server.handler = RangeFile(data)
    (work / "s.bin.part.state").symlink_to(victim)
    (work / "s.bin.part.state.tmp").symlink_to(victim)
    result = run(["download", "-o", "s.bin", server.url + "/s"], cwd=work)
    assert result.code == 0, result
    assert victim.read_bytes() == b"precious\n"
    assert (work / "s.bin").read_bytes() == data
    assert sorted(p.name for p in work.iterdir()) == ["s.bin"]


def test_a_state_link_is_reported_and_not_read(server, work, victim):
    data = os.urandom(30_000)
    server.handler = RangeFile(data)
    url = server.url + "/t.bin"
    victim.write_text(f"afcli download state 1\nurl: {url}\nbytes: 5\n")
    (work / "t.bin.part").write_bytes(b"EVIL!")
    (work / "t.bin.part.state").symlink_to(victim)
    result = run(["download", "-o", "t.bin", "--resume", url], cwd=work)
    assert result.code == 0, result
    assert "ignoring t.bin.part.state: it is a symbolic link" in result.err, result
    # Continued from the partial file's size as a bare partial file, the link replaced, the
    # victim unchanged.
    assert server.requests[-1].header("If-Range") is None
    assert victim.read_text() == f"afcli download state 1\nurl: {url}\nbytes: 5\n"
    assert sorted(p.name for p in work.iterdir()) == ["t.bin"]


def test_state_files_are_private(server, work):
    data = os.urandom(200_000)
    server.handler = RangeFile(data, chunk=16 * 1024, stop_after=100_000)
    result = run(["download", server.url + "/p.bin"], cwd=work)
    assert result.code == 1, result
    mode = stat.S_IMODE(os.stat(work / "p.bin.part.state").st_mode)
    assert mode == 0o600, oct(mode)
    assert read_state(work / "p.bin.part.state")["bytes"] == "100000"


# MARK: - A Content-Length that lies


def test_a_lying_content_length_takes_little_disk(server, work):
    """A server claims 1 GiB and sends 5 bytes: the partial file holds a few MiB at most, also
    after a SIGKILL."""
    claimed = min(1 << 30, shutil.disk_usage(work).free // 4)
    if claimed < 256 * MiB:
        pytest.skip("not enough free space for the claim to show")
    release = threading.Event()

    def body():
        yield b"hello"
        release.wait(10)

    server.handler = lambda r: Response(
        200, "OK", [("Content-Type", "application/octet-stream"), ("Content-Length", str(claimed))], body,
        fault="close")
    proc = start_download(["download", "-o", "big.bin", server.url + "/big.bin"], cwd=work, may_die_of=[signal.SIGKILL])
    part = work / "big.bin.part"
    try:
        assert wait_for(lambda: part.exists() and part.stat().st_size > 0), proc.poll()
        allocated = part.stat().st_blocks * 512
        assert allocated < 64 * MiB, allocated
        proc.kill()
        proc.communicate(timeout=5)
        assert part.stat().st_blocks * 512 < 64 * MiB
    finally:
        release.set()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


# MARK: - Names from the network


def test_names_like_working_files_cannot_plant_a_resume(server, work):
    """One server names its downloads `big.iso.part` and `big.iso.part.state` (a state for
    another URL); a later --resume of that URL must not continue the planted bytes."""
    data = os.urandom(40_000)
    victim_url = server.url + "/big.iso"
    planted_state = f"afcli download state 1\nurl: {victim_url}\nbytes: 4\ntotal: {len(data)}\n"
    files = {
        "/plant-part": RangeFile(b"EVIL", extra_headers=[("Content-Disposition", 'attachment; filename="big.iso.part"')]),
        "/plant-state": RangeFile(planted_state.encode(), extra_headers=[
            ("Content-Disposition", 'attachment; filename="big.iso.part.state"')]),
        "/big.iso": RangeFile(data),
    }
    server.handler = lambda r: files[r.target](r)
    assert run(["download", server.url + "/plant-part"], cwd=work).code == 0
    assert run(["download", server.url + "/plant-state"], cwd=work).code == 0
    result = run(["download", "--resume", victim_url], cwd=work)
    assert result.code == 0, result
    assert (work / "big.iso").read_bytes() == data
    assert sorted(p.name for p in work.iterdir()) == ["big.iso", "big.iso.part.state_", "big.iso.part_"]
    assert (work / "big.iso.part_").read_bytes() == b"EVIL"


def test_a_state_that_does_not_belong_to_its_partial_file(server, work):
    data = os.urandom(30_000)
    server.handler = RangeFile(data)
    url = server.url + "/x.bin"
    make_partial(work, "x.bin", b"EVIL" * 100, url, etag='"v1"', total=len(data), inode=1)
    result = run(["download", "--resume", url], cwd=work)
    assert result.code == 0, result
    assert ("afcli: warning: ignoring x.bin.part.state: it was not written for the partial file beside it; "
            "not resuming from it; to continue x.bin.part anyway, run with -o x.bin --resume, or remove both "
            "files") in result.err, result
    assert server.requests[-1].header("Range") is None
    assert (work / "x-1.bin").read_bytes() == data
    assert (work / "x.bin.part").read_bytes() == b"EVIL" * 100
