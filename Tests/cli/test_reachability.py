"""afcli reachability: route lookups that send nothing, probes to loopback servers, and --watch.

Addresses other than loopback are only ever looked up inside a network namespace the test creates
(`unshare -n`), where nothing can leave the machine: no route, no DNS. Those tests are skipped,
with the reason, where the machine does not allow namespaces.
"""

import json
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from conftest import BINARY, run


def netns_available():
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    try:
        return subprocess.run(["unshare", "-n", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


needs_netns = pytest.mark.skipif(not netns_available(), reason="this machine refuses network namespaces (unshare -n)")


def run_in_netns(script, timeout=30):
    """Runs a shell script in a fresh network namespace: only a loopback interface, down."""
    return subprocess.run(["unshare", "-n", "sh", "-c", script], capture_output=True, text=True, timeout=timeout)


def fields(text):
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def test_loopback_is_reachable():
    result = run(["reachability", "127.0.0.1"])
    assert result.code == 0, result
    assert result.out.splitlines()[0] == "status: reachable"
    info = fields(result.out)
    assert info["interface"] == "lo (loopback)"
    assert info["source"] == "127.0.0.1" and info["destination"] == "127.0.0.1"
    assert info["af-status"] == "ReachableViaWiFi (2)"


def test_json_and_resolve_entries_replace_the_resolver():
    result = run(["reachability", "api.test:8443", "--resolve", "api.test:8443:127.0.0.1", "--json"])
    assert result.code == 0, result
    document = json.loads(result.out)
    assert document["status"] == "reachable"
    assert document["target"] == "api.test:8443" and document["port"] == 8443
    assert document["interface"] == "lo" and document["kind"] == "loopback"
    assert document["source"] == "127.0.0.1" and document["destination"] == "127.0.0.1"
    assert document["afStatus"] == "ReachableViaWiFi" and document["afStatusValue"] == 2
    assert document["routes"][0]["reachable"] is True
    assert "probe" not in document


def test_any_route_answers_with_a_status():
    result = run(["reachability"])
    # Whether a route exists depends on the machine; the status follows the answer.
    assert (result.code, result.out.splitlines()[0]) in [(0, "status: reachable"), (1, "status: not-reachable")], result
    assert "target: any route" in result.out


def test_probe_times_a_tcp_connect():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    try:
        result = run(["reachability", f"127.0.0.1:{port}", "--probe", "--json"])
    finally:
        listener.close()
    assert result.code == 0, result
    probe = json.loads(result.out)["probe"]
    assert probe["succeeded"] is True and probe["tcpError"] is None
    assert probe["tcpMilliseconds"] is not None and probe["tlsMilliseconds"] is None


def test_failed_probe_exits_1_but_the_route_stays_reachable():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = run(["reachability", f"127.0.0.1:{port}", "--probe"])
    assert result.code == 1, result
    assert result.out.splitlines()[0] == "status: reachable"
    assert "probe: tcp 127.0.0.1:%d failed" % port in result.out
    assert "packets were sent" in result.out


def test_tls_probe_to_nginx(tmp_path):
    from test_tls import Certificates
    from nginx import NginxServer, TLSConfig
    certs = Certificates(tmp_path)
    with NginxServer(tmp_path, tls=TLSConfig(certs.leaf, certs.key("leaf"))) as srv:
        url = f"https://localhost:{srv.port}/"
        resolve = ["--resolve", f"localhost:{srv.port}:127.0.0.1"]
        result = run(["reachability", url, "--probe", f"--verify={certs.ca}", "--json", *resolve])
        assert result.code == 0, result
        probe = json.loads(result.out)["probe"]
        assert probe["tlsMilliseconds"] >= probe["tcpMilliseconds"] > 0
        untrusted = run(["reachability", url, "--probe", *resolve])
        assert untrusted.code == 1, untrusted
        assert "tls failed: the certificate of localhost is not trusted" in untrusted.out


@pytest.mark.parametrize("args, fragment", [
    (["reachability", "host:0"], "invalid port"),
    (["reachability", "a", "b"], 'unexpected argument "b"'),
    (["reachability", "--probe"], "--probe needs a host"),
    (["reachability", "ftp://example.com/"], "not an http or https URL"),
    (["get", "http://127.0.0.1:9/", "--probe"], "--probe does not apply to afcli request (it is an option of afcli reachability)"),
    (["pin", "https://127.0.0.1:9/", "--watch"], "--watch does not apply to afcli pin (it is an option of afcli reachability)"),
])
def test_bad_input(args, fragment):
    result = run(args)
    assert result.code == 2, result
    assert result.err.startswith("afcli: error: ") and fragment in result.err, result.err
    assert result.stdout == b""


@needs_netns
def test_unroutable_address_in_an_empty_namespace():
    result = run_in_netns(f"{BINARY} reachability 10.1.2.3 --json; echo exit=$?")
    document = json.loads(result.stdout.splitlines()[0])
    assert result.stdout.strip().endswith("exit=1"), result
    assert document["status"] == "not-reachable" and document["afStatus"] == "NotReachable"
    assert document["routes"][0]["problem"] == "network is unreachable"


@needs_netns
def test_name_that_does_not_resolve_in_an_empty_namespace():
    # No interface is up, so the resolver's query cannot leave the machine.
    result = run_in_netns(f"{BINARY} reachability nothing.invalid; echo exit=$?")
    assert result.stdout.strip().endswith("exit=1"), result
    info = fields(result.stdout)
    assert info["status"] == "not-reachable"
    assert info["reason"].startswith("could not resolve nothing.invalid: ")


@needs_netns
def test_watch_sees_an_interface_come_up_and_go_down(tmp_path):
    out = tmp_path / "watch.out"
    # Wait for the n-th line of output instead of sleeping a fixed time.
    wait = f'n=0; while [ "$(wc -l < {out})" -lt "$1" ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n+1)); done'
    script = f"""
set -e
wait_lines() {{ {wait}; }}
ip link set lo up
ip link add afv0 type veth peer name afv1
ip addr add 10.99.0.1/24 dev afv0
: > {out}
{BINARY} reachability 10.99.0.2 --watch > {out} 2>&1 &
watcher=$!
wait_lines 1
ip link set afv0 up
ip link set afv1 up
wait_lines 2
ip link set afv1 down
wait_lines 3
kill -INT $watcher
set +e
wait $watcher
echo "exit=$?"
"""
    result = run_in_netns(script)
    if "afv0" in result.stderr and "type veth" in result.stderr:
        pytest.skip("this kernel cannot create veth interfaces: " + result.stderr.strip())
    assert result.stdout.strip().endswith("exit=130"), (result.stdout, result.stderr)
    lines = out.read_text().splitlines()
    assert len(lines) == 3, lines
    assert "unknown -> not-reachable" in lines[0]
    assert "not-reachable -> reachable via afv0 (other), source 10.99.0.1 -> 10.99.0.2" in lines[1]
    assert "reachable -> not-reachable (afv0 has no carrier)" in lines[2]
