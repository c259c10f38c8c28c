"""The nginx fixture itself: static files with real ETag and Range behaviour."""

from nginx import NginxServer
from conftest import run


def test_static_file_and_range(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"0123456789")
    with NginxServer(tmp_path) as srv:
        result = run(["get", f"{srv.url}/a.txt"])
        assert result.code == 0 and result.stdout == b"0123456789"
        ranged = run(["get", f"{srv.url}/a.txt", "Range:bytes=4-"])
        assert ranged.stdout == b"456789"
        head = run(["--headers", "get", f"{srv.url}/a.txt"]).out
        assert "ETag: " in head
