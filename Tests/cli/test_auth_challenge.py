"""-A ntlm and -A negotiate: libcurl answers the server's challenge (CURLOPT_HTTPAUTH), for a
single request and for every request of a run; Negotiate without a Kerberos ticket is a clear
error before anything is sent."""

import base64

import pytest

from conftest import run
from loopback import Response

# A type-2 (challenge) message: the example of the NTLM protocol's public description.
TYPE2 = ("TlRMTVNTUAACAAAADAAMADAAAAA1goriASNFZ4mrze8AAAAAAAAAAGIAYgA8AAAARABPAE0AQQBJAE4AAgAMAEQATwBNAEEASQBOAAEADABT"
         "AEUAUgBWAEUAUgAEABQAZABvAG0AYQBpAG4ALgBjAG8AbQADACIAcwBlAHIAdgBlAHIALgBkAG8AbQBhAGkAbgAuAGMAbwBtAAAAAAA=")


@pytest.fixture
def ntlm(server):
    """401 NTLM; a type-1 message gets the type-2 challenge; a type-3 message naming the user gets 200."""
    def handler(request):
        auth = request.header("Authorization") or ""
        if auth.startswith("NTLM TlRMTVNTUAAB"):
            return Response(status=401, reason="Unauthorized", headers=[("WWW-Authenticate", "NTLM " + TYPE2)], body=b"")
        if auth.startswith("NTLM TlRMTVNTUAAD") and "alice".encode("utf-16-le") in base64.b64decode(auth[5:]):
            return Response()
        return Response(status=401, reason="Unauthorized", headers=[("WWW-Authenticate", "NTLM")], body=b"")
    server.handler = handler
    return server


def authorizations(server):
    return [(r.header("Authorization") or "")[:17] for r in server.requests]


def test_ntlm_answers_the_challenge_with_type_1_then_type_3(ntlm):
    r = run(["-A", "ntlm", "-a", "alice:secret", ntlm.url + "/x"])
    assert r.code == 0, r
    # NTLM alone is asked for, so libcurl starts with its type-1 message unasked.
    assert authorizations(ntlm) == ["NTLM TlRMTVNTUAAB", "NTLM TlRMTVNTUAAD"]


def test_ntlm_long_option_and_every_request_of_a_run(ntlm, tmp_path):
    r = run(["run", "-", "--auth-type", "ntlm", "-a", "alice:secret"],
            input=f"get {ntlm.url}/a\nget {ntlm.url}/b\n".encode())
    assert r.code == 0, r
    http = tmp_path / "a.http"
    http.write_text(f"GET {ntlm.url}/c\n")
    r = run(["run", str(http), "-A", "ntlm", "-a", "alice:secret"])
    assert r.code == 0, r
    assert [a for a in authorizations(ntlm) if a.startswith("NTLM TlRMTVNTUAAD")] == ["NTLM TlRMTVNTUAAD"] * 3


def test_ntlm_with_a_wrong_user_gets_the_servers_401(ntlm):
    r = run(["-A", "ntlm", "-a", "bob:secret", ntlm.url + "/x"])
    assert r.code == 4, r


def test_curl_shows_ntlm_and_negotiate(server):
    r = run(["--curl", "-A", "ntlm", "-a", "alice:secret", server.url + "/x"])
    assert r.code == 0, r
    assert "--ntlm --user alice:secret" in r.out
    r = run(["--curl", "-A", "negotiate", server.url + "/x"])
    assert r.code == 0, r
    assert "--negotiate --user :" in r.out
    assert server.requests == []


def test_negotiate_without_a_kerberos_ticket_is_an_error_and_nothing_is_sent(server, tmp_path):
    missing = tmp_path / "krb5cc_none"
    r = run(["-A", "negotiate", server.url + "/x"], env={"KRB5CCNAME": f"FILE:{missing}"})
    assert r.code == 2, r
    assert r.err == (f"afcli: error: -A negotiate needs a Kerberos ticket, and there is none in {missing}: "
                     "get one with kinit\n")
    assert server.requests == []


def test_negotiate_with_a_cache_lets_libcurl_try_and_shows_the_servers_answer(server, tmp_path):
    # A cache file that holds no usable ticket: GSS-API fails, libcurl sends no credentials and
    # the server's 401 is the answer.
    cache = tmp_path / "krb5cc"
    cache.write_bytes(b"")
    server.handler = lambda request: Response(
        status=401, reason="Unauthorized", headers=[("WWW-Authenticate", "Negotiate")], body=b"")
    r = run(["-A", "negotiate", server.url + "/x"], env={"KRB5CCNAME": f"FILE:{cache}"})
    assert r.code == 4, r
    assert len(server.requests) >= 1
