"""An in-process HTTP/1.1 server on 127.0.0.1 for exact request assertions and faults.

Each test gets its own server on an ephemeral port. Requests are recorded raw (head and body
bytes exactly as received, chunked bodies decoded into `body`) and answered by a handler that the
test sets; the default answers 200 with a small JSON body.
"""

import socket
import threading
from dataclasses import dataclass, field


@dataclass
class Request:
    method: str
    target: str
    version: str
    headers: list  # [(name, value)] in order as received
    body: bytes
    raw_head: bytes
    chunked: bool = False

    def header(self, name):
        values = [v for n, v in self.headers if n.lower() == name.lower()]
        return values[0] if values else None

    def header_all(self, name):
        return [v for n, v in self.headers if n.lower() == name.lower()]


@dataclass
class Response:
    status: int = 200
    reason: str = "OK"
    headers: list = field(default_factory=lambda: [("Content-Type", "application/json")])
    body: bytes = b'{"ok":true}'
    # None: send as is. "drop-after-head": close after the head. "drop-mid-body": half the body.
    # "close": close the connection after the body (a callable body that stops short of its
    # Content-Length then looks like a server that died mid-transfer). "close-delimited": no
    # Content-Length (nor chunking): the body ends when the connection closes after it.
    fault: str | None = None


def default_handler(request):
    return Response()


class LoopbackServer:
    def __init__(self, host="127.0.0.1"):
        """`host` is 127.0.0.1 or ::1 (raises OSError where the machine has no IPv6 loopback)."""
        self.host = host
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.requests = []
        self.handler = default_handler
        self._stopping = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def url(self):
        return f"http://[{self.host}]:{self.port}" if ":" in self.host else f"http://{self.host}:{self.port}"

    def stop(self):
        self._stopping = True
        try:
            socket.create_connection((self.host, self.port), timeout=1).close()
        except OSError:
            pass
        self.sock.close()
        self._thread.join(timeout=5)

    def _serve(self):
        while not self._stopping:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            if self._stopping:
                conn.close()
                return
            threading.Thread(target=self._connection, args=(conn,), daemon=True).start()

    def _connection(self, conn):
        conn.settimeout(10)
        reader = conn.makefile("rb")
        try:
            while True:
                request = self._read_request(reader)
                if request is None:
                    return
                self.requests.append(request)
                response = self.handler(request)
                if not self._write_response(conn, request, response):
                    return
        except (OSError, ValueError):
            return
        finally:
            try:
                reader.close()
                conn.close()
            except OSError:
                pass

    def _read_request(self, reader):
        head = b""
        while True:
            line = reader.readline(65537)
            if not line:
                return None
            head += line
            if line in (b"\r\n", b"\n"):
                break
        lines = head.decode("latin-1").split("\r\n")
        method, target, version = lines[0].split(" ", 2)
        headers = []
        for line in lines[1:]:
            if not line:
                continue
            name, _, value = line.partition(":")
            headers.append((name, value.strip()))
        request = Request(method, target, version, headers, b"", head)
        if (request.header("Expect") or "").lower() == "100-continue":
            pass  # afcli never asks for it; a test asserts that.
        if (request.header("Transfer-Encoding") or "").lower() == "chunked":
            request.chunked = True
            body = b""
            while True:
                size_line = reader.readline()
                size = int(size_line.split(b";")[0].strip(), 16)
                if size == 0:
                    while reader.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                body += reader.read(size)
                reader.readline()
            request.body = body
        elif request.header("Content-Length") is not None:
            request.body = reader.read(int(request.header("Content-Length")))
        return request

    def _write_response(self, conn, request, response):
        head = f"HTTP/1.1 {response.status} {response.reason}\r\n"
        names = {n.lower() for n, _ in response.headers}
        headers = list(response.headers)
        if "content-length" not in names and "transfer-encoding" not in names and response.fault != "close-delimited":
            headers.append(("Content-Length", str(len(response.body))))
        for name, value in headers:
            head += f"{name}: {value}\r\n"
        head += "\r\n"
        conn.sendall(head.encode("latin-1"))
        if response.fault == "drop-after-head":
            return False
        body = response.body if request.method != "HEAD" else b""
        if response.fault == "drop-mid-body":
            conn.sendall(body[: len(body) // 2])
            return False
        if callable(body):
            for chunk in body():
                conn.sendall(chunk)
        else:
            conn.sendall(body)
        return response.fault not in ("close", "close-delimited")


class UnixSocketServer:
    """Answers `count` requests on a Unix socket at `path` with `body`, keeping each request head.
    Use it as a context manager; it stops when the block ends."""

    def __init__(self, path, body, count=1):
        self.heads = []
        self._body = body
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(str(path))
        self._listener.listen(count)
        self._thread = threading.Thread(target=self._serve, args=(count,), daemon=True)
        self._thread.start()

    def _serve(self, count):
        for _ in range(count):
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                self.heads.append(data)
                head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(self._body)}\r\nConnection: close\r\n\r\n"
                conn.sendall(head.encode() + self._body)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._thread.join(timeout=5)
        self._listener.close()
