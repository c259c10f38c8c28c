"""nginx (Debian's nginx-light) on 127.0.0.1 at a free port, for tests that need a real server:
static files with real Range/ETag/If-Range behaviour, and TLS with certificates a test made.

    with NginxServer(www_root) as srv:           # plain HTTP
        srv.url                                  # http://127.0.0.1:PORT
    with NginxServer(www_root, tls=TLSConfig(cert, key)) as srv:
        srv.url                                  # https://127.0.0.1:PORT
    NginxServer(www_root, tls=..., http2=True)   # `listen ... ssl http2`: h2 through ALPN
    NginxServer(www_root, http2=True)            # `listen ... http2`: h2c with prior knowledge only

`extra_http` and `extra_server` are spliced into the config (locations, more server blocks).
"""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class TLSConfig:
    certificate: Path
    key: Path
    # A CA file; when set, clients must present a certificate signed by it.
    client_ca: Path | None = None
    protocols: str = "TLSv1.2 TLSv1.3"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NginxServer:
    def __init__(self, www_root, tls=None, extra_server="", extra_http="", http2=False):
        self.www_root = Path(www_root)
        self.http2 = http2
        self.tls = tls
        self.extra_server = extra_server
        self.extra_http = extra_http
        self.dir = Path(tempfile.mkdtemp(prefix="afcli-nginx-"))
        self.port = None
        self.proc = None

    @property
    def scheme(self):
        return "https" if self.tls else "http"

    @property
    def url(self):
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def _config(self):
        tls = ""
        if self.tls:
            tls = (f"ssl_certificate {self.tls.certificate};\n"
                   f"        ssl_certificate_key {self.tls.key};\n"
                   f"        ssl_protocols {self.tls.protocols};\n")
            if self.tls.client_ca:
                tls += (f"        ssl_client_certificate {self.tls.client_ca};\n"
                        "        ssl_verify_client on;\n")
        listen = f"127.0.0.1:{self.port}" + (" ssl" if self.tls else "") + (" http2" if self.http2 else "")
        d = self.dir
        # Workers would drop to an unprivileged user that cannot read pytest's private temp dirs.
        user = "user root;" if os.geteuid() == 0 else ""
        return f"""
{user}
worker_processes 1;
daemon off;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 128; }}
http {{
    access_log off;
    client_body_temp_path {d}/tmp;
    proxy_temp_path {d}/tmp;
    fastcgi_temp_path {d}/tmp;
    uwsgi_temp_path {d}/tmp;
    scgi_temp_path {d}/tmp;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    {self.extra_http}
    server {{
        listen {listen};
        server_name localhost;
        root {self.www_root};
        client_max_body_size 0;
        {tls}
        location = /sink {{ return 204; }}
        {self.extra_server}
    }}
}}
"""

    def start(self):
        if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
            raise RuntimeError("nginx is not installed: run 'make test', which installs nginx-light")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        (self.dir / "tmp").mkdir(exist_ok=True)
        for attempt in range(5):
            self.port = _free_port()
            (self.dir / "nginx.conf").write_text(self._config())
            self.proc = subprocess.Popen(
                [nginx, "-c", str(self.dir / "nginx.conf"), "-p", str(self.dir), "-e", str(self.dir / "error.log")],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
            deadline = time.time() + 10
            while time.time() < deadline:
                if self.proc.poll() is not None:
                    break
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                    return self
                except OSError:
                    time.sleep(0.05)
            self.stop()
        raise RuntimeError("nginx did not start: " + (self.dir / "error.log").read_text(errors="replace"))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
