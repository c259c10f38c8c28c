"""TLS verification, pinning and client certificates against nginx on 127.0.0.1.

Every certificate is made here with the openssl CLI: a CA, a leaf for localhost/127.0.0.1, a
self-signed leaf, a leaf for another name, an expired leaf and a client certificate. Names are
mapped to 127.0.0.1 with --resolve, so nothing is ever looked up or sent off this machine.
"""

import base64
import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run, run_tty
from nginx import NginxServer, TLSConfig

AF_REJECTION = ("The certificate for this server is invalid. You might be connecting to a server that is "
                "pretending to be \u201c{host}\u201d which could put your confidential information at risk.")


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def spki_pin(cert):
    """The sha256// pin of a certificate's key, computed by openssl and hashlib, not by afcli."""
    der = subprocess.run(
        f"openssl x509 -in {cert} -pubkey -noout | openssl pkey -pubin -outform DER",
        shell=True, check=True, capture_output=True).stdout
    return "sha256//" + base64.b64encode(hashlib.sha256(der).digest()).decode()


class Certificates:
    """Makes the CA, the leaves and the client certificate in one directory (EC keys: fast)."""

    def __init__(self, directory: Path):
        self.dir = directory
        self.key_args = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        openssl("req", "-x509", *self.key_args, "-keyout", "ca.key", "-out", "ca.pem", "-days", "30",
                "-subj", "/CN=afcli test CA", cwd=directory)
        self.ca = directory / "ca.pem"
        self.leaf = self.signed("leaf", "localhost", "DNS:localhost,IP:127.0.0.1")
        self.other = self.signed("other", "other.test", "DNS:other.test")
        self.client = self.signed("client", "afcli client", None, client=True)
        self.expired = self.expired_leaf()
        openssl("req", "-x509", *self.key_args, "-keyout", "self.key", "-out", "self.pem", "-days", "30",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", cwd=directory)
        self.self_signed = directory / "self.pem"
        openssl("x509", "-in", "self.pem", "-outform", "DER", "-out", "self.cer", cwd=directory)
        self.self_signed_der = directory / "self.cer"
        hashed = directory / "hashed"
        hashed.mkdir()
        shutil.copy(self.ca, hashed / "ca.pem")
        openssl("rehash", str(hashed), cwd=directory)
        self.ca_directory = hashed

    def key(self, name):
        return self.dir / f"{name}.key"

    def signed(self, name, common_name, san, client=False):
        openssl("req", *self.key_args, "-keyout", f"{name}.key", "-out", f"{name}.csr",
                "-subj", f"/CN={common_name}", cwd=self.dir)
        ext = "basicConstraints=CA:FALSE\n"
        ext += "extendedKeyUsage=clientAuth\n" if client else f"subjectAltName={san}\n"
        (self.dir / f"{name}.ext").write_text(ext)
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", f"{name}.pem", "-days", "30", "-extfile", f"{name}.ext", cwd=self.dir)
        return self.dir / f"{name}.pem"

    def expired_leaf(self):
        """`openssl x509 -days` cannot go back in time (OpenSSL 3.0); `openssl ca` can."""
        (self.dir / "index.txt").write_text("")
        (self.dir / "serial").write_text("1000\n")
        (self.dir / "ca.cnf").write_text(
            "[ca]\ndefault_ca = test\n[test]\ndir = .\ndatabase = index.txt\nserial = serial\n"
            "new_certs_dir = .\ncertificate = ca.pem\nprivate_key = ca.key\ndefault_md = sha256\n"
            "policy = any\ncopy_extensions = copy\nunique_subject = no\n[any]\ncommonName = supplied\n")
        openssl("req", *self.key_args, "-keyout", "expired.key", "-out", "expired.csr", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", cwd=self.dir)
        openssl("ca", "-batch", "-config", "ca.cnf", "-in", "expired.csr", "-out", "expired.pem",
                "-startdate", "20200101000000Z", "-enddate", "20200201000000Z", cwd=self.dir)
        return self.dir / "expired.pem"


class Server:
    """An nginx with TLS that logs every request it gets, so a test can tell nothing was sent."""

    def __init__(self, www, directory, certificate, key, client_ca=None, protocols="TLSv1.2 TLSv1.3",
                 extra_server=""):
        self.log = directory / "access.log"
        self.nginx = NginxServer(
            www, tls=TLSConfig(certificate, key, client_ca=client_ca, protocols=protocols),
            extra_server=f"access_log {self.log};\n{extra_server}")

    def start(self):
        self.nginx.start()
        self.port = self.nginx.port
        self.url = f"https://127.0.0.1:{self.port}"
        return self

    def requests(self):
        return self.log.read_text().splitlines() if self.log.exists() else []


@pytest.fixture(scope="module")
def tls(tmp_path_factory):
    root = tmp_path_factory.mktemp("tls")
    certs = Certificates(root)
    www = root / "www"
    www.mkdir()
    (www / "hello.txt").write_text("hello over tls\n")
    servers = {}
    specs = {
        "good": (certs.leaf, certs.key("leaf"), {}),
        "self": (certs.self_signed, certs.key("self"), {}),
        "other": (certs.other, certs.key("other"), {}),
        "expired": (certs.expired, certs.key("expired"), {}),
        "mtls": (certs.leaf, certs.key("leaf"), {"client_ca": certs.ca}),
        "tls12": (certs.leaf, certs.key("leaf"), {"protocols": "TLSv1.2"}),
        "redirect": (certs.leaf, certs.key("leaf"),
                     {"extra_server": "location = /to-http { return 302 http://127.0.0.1:9/; }"}),
    }
    try:
        for name, (cert, key, extra) in specs.items():
            directory = root / name
            directory.mkdir()
            servers[name] = Server(www, directory, cert, key, **extra).start()
        yield certs, servers
    finally:
        for server in servers.values():
            server.nginx.__exit__()


def assert_one_error_line(result, code, *fragments):
    assert result.code == code, result
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("afcli: error: "), result.err
    for fragment in fragments:
        assert fragment in lines[0], result.err
    assert "libcurl" not in lines[0] and "SSL routines" not in lines[0], result.err
    assert result.stdout == b""


# MARK: - Verification


def test_default_verification_rejects_an_unknown_ca(tls):
    _, servers = tls
    result = run(["get", servers["good"].url + "/hello.txt"])
    assert_one_error_line(result, 9, "127.0.0.1", "not trusted")


def test_verify_with_a_ca_bundle_file_or_directory(tls):
    certs, servers = tls
    for path in (certs.ca, certs.ca_directory):
        result = run(["get", servers["good"].url + "/hello.txt", f"--verify={path}"])
        assert result.code == 0, result
        assert result.stdout == b"hello over tls\n"


def test_verify_by_name_through_resolve(tls):
    certs, servers = tls
    port = servers["good"].port
    result = run(["get", f"https://localhost:{port}/hello.txt", "--verify", str(certs.ca),
                  "--resolve", f"localhost:{port}:127.0.0.1"])
    assert result.code == 0 and result.stdout == b"hello over tls\n", result


@pytest.mark.parametrize("flag", [["--insecure"], ["-k"], ["--verify=no"]])
def test_insecure_accepts_any_certificate_and_name(tls, flag):
    _, servers = tls
    for name in ("self", "other", "expired"):
        result = run(["get", servers[name].url + "/hello.txt", *flag])
        assert result.code == 0 and result.stdout == b"hello over tls\n", (name, result)


def test_self_signed_is_untrusted_unless_it_is_the_ca(tls):
    certs, servers = tls
    result = run(["get", servers["self"].url + "/hello.txt"])
    assert_one_error_line(result, 9, "127.0.0.1", "not trusted", "self-signed")
    result = run(["get", servers["self"].url + "/hello.txt", f"--verify={certs.self_signed}"])
    assert result.code == 0, result


def test_wrong_host_name_and_no_verify_host(tls):
    certs, servers = tls
    url = servers["other"].url + "/hello.txt"
    result = run(["get", url, f"--verify={certs.ca}"])
    assert_one_error_line(result, 9, "127.0.0.1", "another host name")
    result = run(["get", url, f"--verify={certs.ca}", "--no-verify-host"])
    assert result.code == 0 and result.stdout == b"hello over tls\n", result
    # The name the certificate is for, mapped to 127.0.0.1: no --no-verify-host needed.
    port = servers["other"].port
    result = run(["get", f"https://other.test:{port}/hello.txt", f"--verify={certs.ca}",
                  "--resolve", f"other.test:{port}:127.0.0.1"])
    assert result.code == 0, result


def test_expired_certificate(tls):
    certs, servers = tls
    result = run(["get", servers["expired"].url + "/hello.txt", f"--verify={certs.ca}"])
    assert_one_error_line(result, 9, "127.0.0.1", "expired")


def test_handshake_failure_with_tls_min(tls):
    certs, servers = tls
    url = servers["tls12"].url + "/hello.txt"
    result = run(["get", url, f"--verify={certs.ca}", "--tls-min", "1.3"])
    assert_one_error_line(result, 9, "TLS handshake with 127.0.0.1 failed")
    assert servers["tls12"].requests() == []
    assert run(["get", url, f"--verify={certs.ca}", "--tls-min", "1.2"]).code == 0


# MARK: - Public key pins


def test_key_pin_of_the_leaf_or_the_ca_matches(tls):
    certs, servers = tls
    for pin in (spki_pin(certs.leaf), spki_pin(certs.ca)):
        result = run(["get", servers["good"].url + "/hello.txt", f"--verify={certs.ca}", "--pin-key", pin])
        assert result.code == 0 and result.stdout == b"hello over tls\n", (pin, result)


def test_key_pin_mismatch_fails_before_sending(tls):
    certs, servers = tls
    server = servers["good"]
    before = len(server.requests())
    result = run(["get", server.url + "/hello.txt", f"--verify={certs.ca}", "--pin-key", spki_pin(certs.other)])
    assert_one_error_line(result, 10, AF_REJECTION.format(host="127.0.0.1"))
    assert len(server.requests()) == before


def test_several_key_pins_accept_any_of_them(tls):
    certs, servers = tls
    result = run(["get", servers["good"].url + "/hello.txt", f"--verify={certs.ca}",
                  "--pin-key", spki_pin(certs.other), "--pin-key", spki_pin(certs.leaf)])
    assert result.code == 0, result
    # --no-pin-key forgets them all.
    result = run(["get", servers["good"].url + "/hello.txt", f"--verify={certs.ca}",
                  "--pin-key", spki_pin(certs.other), "--no-pin-key"])
    assert result.code == 0, result


def test_insecure_with_a_key_pin_trusts_exactly_that_key(tls):
    certs, servers = tls
    url = servers["self"].url + "/hello.txt"
    assert run(["get", url, "-k", "--pin-key", spki_pin(certs.self_signed)]).code == 0
    assert run(["get", url, "-k", "--verify-host", "--pin-key", spki_pin(certs.self_signed)]).code == 0
    result = run(["get", url, "-k", "--pin-key", spki_pin(certs.leaf)])
    assert_one_error_line(result, 10, "\u201c127.0.0.1\u201d")
    # --verify-host keeps the host name check even though the chain is not verified.
    other = servers["other"].url + "/hello.txt"
    assert run(["get", other, "-k", "--pin-key", spki_pin(certs.other)]).code == 0
    result = run(["get", other, "-k", "--verify-host", "--pin-key", spki_pin(certs.other)])
    assert_one_error_line(result, 9, "another host name")


def test_pin_command_prints_the_chain_leaf_first(tls):
    certs, servers = tls
    port = servers["good"].port
    before = len(servers["good"].requests())
    result = run(["pin", f"https://localhost:{port}", f"--verify={certs.ca}",
                  "--resolve", f"localhost:{port}:127.0.0.1"])
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert [line.split()[0] for line in lines] == [spki_pin(certs.leaf), spki_pin(certs.ca)]
    assert "leaf" in lines[0] and "CN=localhost" in lines[0]
    assert "root" in lines[1] and "CN=afcli test CA" in lines[1]
    # A handshake only: no HTTP request.
    assert len(servers["good"].requests()) == before


def test_pin_command_with_insecure_and_json(tls):
    import json
    certs, servers = tls
    result = run(["pin", "-k", "--json", servers["self"].url])
    assert result.code == 0, result
    document = json.loads(result.out)
    assert document["verified"] is False
    assert [c["pin"] for c in document["certificates"]] == [spki_pin(certs.self_signed)]
    assert "did not verify" in result.err


def test_pin_command_shows_control_characters_of_a_subject_escaped_on_a_terminal(tls, tmp_path):
    certs, _ = tls
    # U+009B is CSI for a terminal that reads C1 controls; OpenSSL prints it as UTF-8.
    openssl("req", "-x509", *certs.key_args, "-keyout", "c1.key", "-out", "c1.pem", "-days", "30", "-utf8",
            "-subj", "/CN=evil\u009b2Jname", cwd=tmp_path)
    www = tmp_path / "www"
    www.mkdir()
    server = Server(www, tmp_path, tmp_path / "c1.pem", tmp_path / "c1.key").start()
    try:
        shown = run_tty(["pin", "-k", server.url])
        piped = run(["pin", "-k", server.url])
    finally:
        server.nginx.__exit__()
    assert shown.code == 0, shown
    assert "\u009b".encode() not in shown.stdout and b"CN=evil\\x9b2Jname" in shown.stdout
    assert "CN=evil\u009b2Jname".encode() in piped.stdout


# MARK: - Certificate pins


def test_certificate_pins_are_the_only_trust_anchors(tls):
    certs, servers = tls
    url = servers["good"].url + "/hello.txt"
    for pinned in (certs.leaf, certs.ca):
        assert run(["get", url, "--pin-cert", str(pinned)]).code == 0, pinned
    # A pinned self-signed certificate (PEM or DER) is trusted without --insecure.
    for pinned in (certs.self_signed, certs.self_signed_der):
        result = run(["get", servers["self"].url + "/hello.txt", "--pin-cert", str(pinned)])
        assert result.code == 0 and result.stdout == b"hello over tls\n", result


def test_certificate_pin_mismatch(tls):
    certs, servers = tls
    server = servers["good"]
    before = len(server.requests())
    result = run(["get", server.url + "/hello.txt", "--pin-cert", str(certs.self_signed)])
    assert_one_error_line(result, 10, AF_REJECTION.format(host="127.0.0.1"))
    assert len(server.requests()) == before


# MARK: - Client certificates


def test_client_certificate(tls):
    certs, servers = tls
    url = servers["mtls"].url + "/hello.txt"
    without = run(["get", url, f"--verify={certs.ca}"])
    assert without.code == 4, without
    result = run(["get", url, f"--verify={certs.ca}", "--cert", str(certs.client), "--cert-key",
                  str(certs.key("client"))])
    assert result.code == 0 and result.stdout == b"hello over tls\n", result


# MARK: - Refused combinations


def test_redirect_to_plain_http_while_pinning_is_refused(tls):
    certs, servers = tls
    redirecting = servers["redirect"]
    result = run(["get", redirecting.url + "/to-http", f"--verify={certs.ca}", "--follow",
                  "--pin-key", spki_pin(certs.leaf)])
    assert_one_error_line(result, 9, "pinning needs https")


@pytest.mark.parametrize("args, fragments", [
    (["HTTPS", "-k", "--verify-host"], ["--insecure with --verify-host", "MUST use pinning"]),
    (["HTTP", "--pin-key", "PIN"], ["https://", "HTTP_URL"]),
    (["HTTP", "--pin-cert", "CA"], ["https://"]),
    (["HTTPS", "--pin-key", "PIN", "--pin-cert", "CA"], ["cannot be combined"]),
    (["HTTPS", "--pin-cert", "CA", "--verify", "CA"], ["--pin-cert cannot be combined with --verify"]),
    (["HTTPS", "--cert-key", "CA"], ["--cert-key needs --cert"]),
    (["HTTPS", "--pin-key", "sha256//nope"], ["--pin-key", "not a public key pin"]),
    (["HTTPS", "--pin-key", "md5//AAAA"], ["--pin-key"]),
    (["HTTPS", "--verify", "/nonexistent/ca.pem"], ["--verify", "/nonexistent/ca.pem"]),
    (["HTTPS", "--pin-cert", "/nonexistent/pin.pem"], ["/nonexistent/pin.pem"]),
    (["HTTPS", "--pin-cert", "NOTCERT"], ["holds no PEM or DER certificate"]),
    (["HTTPS", "--cert", "/nonexistent/client.pem"], ["/nonexistent/client.pem"]),
    (["HTTPS", "--tls-min", "1.1"], ["--tls-min"]),
    (["HTTPS", "--resolve", "localhost:x:127.0.0.1"], ["--resolve"]),
    (["HTTPS", "--resolve", "localhost:443:example.com"], ["--resolve", "not an IP address"]),
])
def test_refused_combinations_send_nothing(tls, server, args, fragments):
    certs, servers = tls
    target = servers["good"]
    http_url = f"{server.url}/x"
    replacements = {"HTTPS": target.url + "/hello.txt", "HTTP": http_url, "PIN": spki_pin(certs.leaf),
                    "CA": str(certs.ca), "NOTCERT": str(certs.dir / "ca.cnf")}
    before = len(target.requests())
    result = run([replacements.get(a, a) for a in args])
    fragments = [f.replace("HTTP_URL", http_url) for f in fragments]
    assert_one_error_line(result, 2, *fragments)
    assert server.requests == []
    assert len(target.requests()) == before


def test_redirect_from_https_to_plain_http_warns(tls):
    certs, servers = tls
    result = run(["get", servers["redirect"].url + "/to-http", f"--verify={certs.ca}", "--follow"])
    lines = result.err.strip().splitlines()
    assert lines[0] == "afcli: warning: following a redirect from https to http: http://127.0.0.1:9/ is not encrypted"
    # Port 9 refuses the connection: the warning came before the plain-http hop was tried.
    assert result.code == 8, result
