"""The response cache (--cache, the CJ strategies, afcli cache): against an in-process loopback
server for exact Cache-Control cases. Every test has its own cache directory and a fixed clock
(AFCLI_TEST_NOW), so expiry is tested without sleeping."""

import os
import signal
import sqlite3
import stat
import subprocess
import threading
import time

import pytest

from conftest import base_env, run, start
from loopback import Response

NOW = 1_700_000_000


@pytest.fixture
def cache(tmp_path):
    """Runs afcli with HOME and XDG_CACHE_HOME in tmp_path; `at` sets the clock."""
    home = tmp_path / "home"
    home.mkdir()

    class Cache:
        dir = tmp_path / "xdg" / "afcli"

        def env(self, at=0, **extra):
            env = {"HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "xdg"), "AFCLI_TEST_NOW": str(NOW + at)}
            env.update(extra)
            return env

        def run(self, *args, at=0, **kwargs):
            return run(list(args), env=self.env(at), **kwargs)

        def run_env(self, *args, at=0, **extra):
            return run(list(args), env=self.env(at, **extra))

    return Cache()


def answer(body=b'{"n":1}', status=200, **headers):
    fields = [("Content-Type", "application/json")] + [(k.replace("_", "-"), v) for k, v in headers.items()]
    return lambda request: Response(status=status, headers=fields, body=body)


def test_fresh_response_is_answered_from_the_cache_then_revalidated(server, cache):
    server.handler = answer(Cache_Control="max-age=60", ETag='"v1"')
    first = cache.run("--cache", "--print=hbm", server.url + "/x")
    assert first.code == 0 and "cache: miss, stored" in first.out
    hit = cache.run("--cache", "--print=hbm", server.url + "/x", at=12)
    assert hit.code == 0, hit
    assert "cache: hit, age 12 s" in hit.out and '{"n":1}' in hit.out and "Age: 12" in hit.out
    assert len(server.requests) == 1
    # Stale at 61 s: a conditional request; the 304 refreshes the entry.
    server.handler = lambda request: Response(status=304, reason="Not Modified", headers=[("ETag", '"v1"'), ("X-New", "1")], body=b"")
    stale = cache.run("--cache", "--print=hbm", server.url + "/x", at=61)
    assert stale.code == 0, stale
    assert server.requests[-1].header("If-None-Match") == '"v1"'
    assert "cache: revalidated" in stale.out and "200 OK" in stale.out and '{"n":1}' in stale.out
    assert "X-New: 1" in stale.out
    again = cache.run("--cache", "--print=m", server.url + "/x", at=70)
    assert "cache: hit, age 9 s" in again.out and len(server.requests) == 2


def test_verbose_shows_the_cache_line(server, cache):
    server.handler = answer(Cache_Control="max-age=60")
    cache.run("--cache", server.url + "/x")
    verbose = cache.run("--cache", "-v", server.url + "/x", at=3)
    assert "cache: hit, age 3 s" in verbose.out
    plain = cache.run("--cache", server.url + "/x", at=3)
    assert "cache:" not in plain.out and plain.out.strip() == '{"n":1}'


@pytest.mark.parametrize(
    "headers, stored",
    [
        ({"Cache_Control": "no-store, max-age=60"}, False),
        ({"Cache_Control": "private, max-age=60"}, True),
        ({"Cache_Control": "public, max-age=60"}, True),
        ({"Cache_Control": "s-maxage=60"}, False),
        ({"Expires": "Thu, 01 Jan 2099 00:00:00 GMT"}, True),
        ({"Vary": "*", "Cache_Control": "max-age=60"}, False),
        ({}, False),
    ],
)
def test_what_is_answered_without_the_network(server, cache, headers, stored):
    server.handler = answer(**headers)
    cache.run("--cache", server.url + "/x")
    second = cache.run("--cache", "--print=m", server.url + "/x", at=5)
    assert second.code == 0
    assert (len(server.requests) == 1) == stored, (headers, second.out)


def test_no_cache_and_must_revalidate_and_age(server, cache):
    server.handler = answer(Cache_Control="no-cache, max-age=600", ETag='"a"')
    cache.run("--cache", server.url + "/n")
    cache.run("--cache", server.url + "/n", at=1)
    assert len(server.requests) == 2 and server.requests[1].header("If-None-Match") == '"a"'
    # Age already 50 when received: stale 11 s later under max-age=60.
    server.handler = answer(Cache_Control="max-age=60", Age="50")
    cache.run("--cache", server.url + "/a")
    cache.run("--cache", server.url + "/a", at=9)
    assert len(server.requests) == 3
    cache.run("--cache", server.url + "/a", at=11)
    assert len(server.requests) == 4


@pytest.mark.parametrize("age", ["1e400", "inf", "-5"])
def test_an_age_that_is_not_delta_seconds_is_ignored(server, cache, age):
    # Read as a number, such an Age made the stored answer infinitely old: replaying it (and
    # `cache ls`) then crashed turning the age into whole seconds.
    server.handler = answer(Cache_Control="max-age=60", Age=age)
    assert cache.run("--cache", server.url + "/g").code == 0
    hit = cache.run("--cache=only", "--print=hm", server.url + "/g", at=5)
    assert hit.code == 0, hit
    assert "cache: hit, age 5 s" in hit.out and "Age: 5" in hit.out
    listing = cache.run("cache", "ls", at=5)
    assert listing.code == 0 and "in 55 s" in listing.out, listing


def test_heuristic_freshness_from_last_modified(server, cache):
    # Date − Last-Modified = 1000 s, so 100 s of heuristic freshness.
    server.handler = answer(Date="Tue, 14 Nov 2023 22:13:20 GMT", Last_Modified="Tue, 14 Nov 2023 21:56:40 GMT")
    cache.run("--cache", server.url + "/h")
    cache.run("--cache", server.url + "/h", at=99)
    assert len(server.requests) == 1
    cache.run("--cache", server.url + "/h", at=101)
    assert len(server.requests) == 2
    assert server.requests[1].header("If-Modified-Since") == "Tue, 14 Nov 2023 21:56:40 GMT"


def test_refresh_revalidates_a_fresh_entry(server, cache):
    server.handler = answer(Cache_Control="max-age=600", ETag='"r"')
    cache.run("--cache", server.url + "/r")
    server.handler = answer(body=b'{"n":2}', Cache_Control="max-age=600", ETag='"r2"')
    refreshed = cache.run("--cache=refresh", "--print=bm", server.url + "/r", at=1)
    assert server.requests[-1].header("If-None-Match") == '"r"'
    assert '{"n":2}' in refreshed.out and "cache: miss, stored" in refreshed.out
    hit = cache.run("--cache", server.url + "/r", at=2)
    assert hit.out.strip() == '{"n":2}' and len(server.requests) == 2


def test_only_answers_from_the_cache_or_fails_with_15(server, cache):
    missing = cache.run("--cache=only", server.url + "/o")
    assert missing.code == 15 and len(server.requests) == 0
    assert missing.err.startswith("afcli: error: ") and "cache" in missing.err
    server.handler = answer(Cache_Control="max-age=10")
    cache.run("--cache", server.url + "/o")
    stale = cache.run("--cache=only", server.url + "/o", at=100)
    assert stale.code == 0 and stale.out.strip() == '{"n":1}' and len(server.requests) == 1
    server.handler = answer(Cache_Control="max-age=10, must-revalidate")
    cache.run("--cache", server.url + "/m")
    refused = cache.run("--cache=only", server.url + "/m", at=100)
    assert refused.code == 15 and len(server.requests) == 2


def test_set_cookie_is_stored_and_shown_but_never_applied(server, cache, tmp_path):
    server.handler = answer(Cache_Control="max-age=60", Set_Cookie="session=fromserver")
    session = tmp_path / "s.json"
    jar = tmp_path / "jar.txt"
    cache.run("--cache", server.url + "/c")
    hit = cache.run("--cache", "--print=hm", "--show-secrets", "--session", str(session), "--cookie-jar", str(jar),
                    server.url + "/c", at=1)
    assert hit.code == 0 and "cache: hit" in hit.out and "Set-Cookie: session=fromserver" in hit.out, hit
    # A replayed Set-Cookie reaches neither the session nor the jar.
    assert "fromserver" not in (session.read_text() if session.exists() else "")
    assert "fromserver" not in (jar.read_text() if jar.exists() else "")
    sent = cache.run("--cache", "--session", str(session), "--cookie-jar", str(jar), server.url + "/c2", at=2)
    assert sent.code == 0 and server.requests[-1].header("Cookie") is None



def test_vary_selects_a_variant(server, cache):
    server.handler = lambda request: Response(
        headers=[("Content-Type", "application/json"), ("Cache-Control", "max-age=60"), ("Vary", "Accept")],
        body=('{"accept":"%s"}' % request.header("Accept")).encode())
    cache.run("--cache", server.url + "/v", "Accept:application/json")
    other = cache.run("--cache", server.url + "/v", "Accept:text/plain", at=1)
    assert len(server.requests) == 2 and "text/plain" in other.out
    first = cache.run("--cache", server.url + "/v", "Accept:application/json", at=2)
    assert len(server.requests) == 2 and "application/json" in first.out


def test_credentials_and_namespace_are_part_of_the_key(server, cache):
    server.handler = answer(Cache_Control="max-age=60")
    cache.run("--cache", "-a", "alice:pw-one", server.url + "/k")
    cache.run("--cache", "-a", "alice:pw-one", server.url + "/k", at=1)
    assert len(server.requests) == 1
    cache.run("--cache", "-a", "alice:pw-two", server.url + "/k", at=1)
    cache.run("--cache", server.url + "/k", at=1)
    assert len(server.requests) == 3
    cache.run("--cache", "--cache-namespace", "v2", server.url + "/k", at=1)
    assert len(server.requests) == 4
    data = (cache.dir / "cache.db").read_bytes()
    assert b"pw-one" not in data and b"alice" not in data


def test_unsafe_method_invalidates_the_url(server, cache):
    server.handler = answer(Cache_Control="max-age=600")
    cache.run("--cache", server.url + "/u")
    posted = cache.run("--cache", "--print=m", "post", server.url + "/u", "a=1", at=1)
    assert "cache: invalidated" in posted.out
    cache.run("--cache", server.url + "/u", at=2)
    assert [r.method for r in server.requests] == ["GET", "POST", "GET"]


def test_cj_first_uses_its_own_lifetime(server, cache):
    server.handler = answer(Cache_Control="no-cache")
    log = cache.dir.parent.parent / "log.txt"
    refused = cache.run("--cache=cj-first", "--log-file", str(log), server.url + "/j")
    assert refused.code == 2 and "--cache-ttl" in refused.err and refused.err.count("\n") == 1
    assert len(server.requests) == 0 and not log.exists()
    cache.run("--cache=cj-first", "--cache-ttl", "10m", "post", server.url + "/j", "q=1")
    hit = cache.run("--cache=cj-first", "--cache-ttl", "10m", "--print=bm", "post", server.url + "/j", "q=1", at=599)
    assert "cache: hit, age 599 s" in hit.out and len(server.requests) == 1
    cache.run("--cache=cj-first", "--cache-ttl", "10m", "post", server.url + "/j", "q=2", at=1)
    assert len(server.requests) == 2
    cache.run("--cache=cj-first", "--cache-ttl", "10m", "post", server.url + "/j", "q=1", at=600)
    assert len(server.requests) == 3
    cache.run("--cache=cj-first", "--cache-ttl", "forever", "post", server.url + "/j", "q=1", at=10**8)
    assert len(server.requests) == 3


@pytest.mark.parametrize("mode_from", ["typed", "default_options"])
def test_cj_first_takes_its_lifetime_from_the_environment_when_no_option_gives_one(server, cache, tmp_path, mode_from):
    server.handler = answer(Cache_Control="no-cache")
    config = tmp_path / "config"
    config.mkdir()
    defaults = ["--cache=cj-first"] if mode_from == "default_options" else []
    (config / "config.json").write_text(
        '{"default_options": %s, "environments": {"dev": {"cache_ttl": "10m"}}}' % str(defaults).replace("'", '"'))
    (config / "config.json").chmod(0o600)
    typed = ["--cache=cj-first"] if mode_from == "typed" else []

    def go(*args, at=0):
        return run(["--env", "dev", *typed, *args, server.url + "/j"], env=cache.env(at, AFCLI_CONFIG_DIR=str(config)))

    first = go()
    assert first.code == 0, first
    hit = go("--print=m", at=599)
    assert hit.code == 0 and "cache: hit, age 599 s" in hit.out, hit
    assert len(server.requests) == 1
    # The typed --cache-ttl beats the environment's.
    assert go("--cache-ttl=5m", at=599).code == 0 and len(server.requests) == 2


def test_cj_then_network_gives_the_stored_answer_first(server, cache, tmp_path):
    server.handler = answer(body=b'{"n":1}')
    transition = tmp_path / "cached.json"
    # Nothing stored yet: the transition file is not created.
    first = cache.run("--cache=cj-then-network", "--cache-ttl", "1h", "--cache-transition-output", str(transition),
                      server.url + "/t")
    assert first.out.strip() == '{"n":1}' and not transition.exists()
    server.handler = answer(body=b'{"n":2}')
    both = cache.run("--cache=cj-then-network", "--cache-ttl", "1h", "--log=cj",
                     "--cache-transition-output", str(transition), server.url + "/t", at=5)
    assert both.code == 0, both
    assert both.out.strip() == '{"n":2}' and transition.read_bytes() == b'{"n":1}'
    assert stat.S_IMODE(transition.stat().st_mode) == 0o600
    blocks = both.err.split("网络请求Start")
    assert len(blocks) == 3 and '结果：{"n":1}' in blocks[1] and '结果：{"n":2}' in blocks[2]
    assert "未获取到" in blocks[1]
    # The network's answer was stored: the next transition is {"n":2}.
    third = cache.run("--cache=cj-then-network", "--cache-ttl", "1h", "--cache-transition-output", str(transition),
                      server.url + "/t", at=6)
    assert transition.read_bytes() == b'{"n":2}' and third.code == 0
    # A link planted at the transition file is refused before anything is sent.
    transition.unlink()
    transition.symlink_to(tmp_path / "victim")
    sent = len(server.requests)
    refused = cache.run("--cache=cj-then-network", "--cache-ttl", "1h", "--cache-transition-output", str(transition),
                        server.url + "/t", at=7)
    assert refused.code == 2 and "symbolic link" in refused.err and len(server.requests) == sent
    assert not (tmp_path / "victim").exists()


def test_cj_then_network_transition_output_dash_is_standard_output(server, cache, tmp_path):
    server.handler = answer(body=b'{"n":1}')
    args = ["--cache=cj-then-network", "--cache-ttl", "1h", "--cache-transition-output", "-", server.url + "/t"]
    network = tmp_path / "new.json"
    first = cache.run(*args, "-o", str(network), cwd=tmp_path)
    assert first.code == 0 and first.out == "" and network.read_bytes() == b'{"n":1}', first
    server.handler = answer(body=b'{"n":2}')
    both = cache.run(*args, "-o", str(network), at=5, cwd=tmp_path)
    # The stored body on standard output, the network's in the -o file; no file named "-".
    assert (both.code, both.stdout) == (0, b'{"n":1}') and network.read_bytes() == b'{"n":2}', both
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "new.json", "xdg"]
    # Where standard output carries the network's answer, the two would mix: refused, nothing sent.
    sent = len(server.requests)
    refused = cache.run(*args, at=6, cwd=tmp_path)
    assert refused.code == 2 and refused.out == "" and len(server.requests) == sent, refused
    assert refused.err.startswith('afcli: error: --cache-transition-output: "-" is standard output, which carries')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "new.json", "xdg"]


def test_cj_then_network_failure_comes_after_the_stored_answer(server, cache, tmp_path):
    server.handler = answer(body=b'{"n":1}')
    cache.run("--cache=cj-then-network", "--cache-ttl", "1h", server.url + "/f")
    server.stop()
    failed = cache.run("--cache=cj-then-network", "--cache-ttl", "1h", "--log=cj", server.url + "/f", at=5)
    assert failed.code == 8, failed
    blocks = failed.err.split("网络请求Start")
    assert len(blocks) == 3 and '{"n":1}' in blocks[1] and "无法连接服务器" in blocks[2]


def test_log_marks_a_cached_answer(server, cache):
    server.handler = answer(Cache_Control="max-age=60")
    cache.run("--cache", server.url + "/l", "--log=cj")
    hit = cache.run("--cache", server.url + "/l", "--log=cj", at=1)
    assert hit.err.count("网络请求Start") == 1 and "未获取到" in hit.err and '结果：{"n":1}' in hit.err


def test_large_bodies_are_files_named_by_digest(server, cache):
    body = os.urandom(300_000)
    server.handler = lambda request: Response(
        headers=[("Content-Type", "application/octet-stream"), ("Cache-Control", "max-age=60")], body=body)
    cache.run("--cache", "-o", "/dev/null", server.url + "/big")
    hit = cache.run("--cache", "--print=b", server.url + "/big", at=1)
    assert hit.stdout == body and len(server.requests) == 1
    import hashlib
    name = hashlib.sha256(body).hexdigest()
    assert [p.name for p in (cache.dir / "bodies").iterdir()] == [name]
    for path, mode in [(cache.dir, 0o700), (cache.dir / "bodies", 0o700), (cache.dir / "cache.db", 0o600),
                       (cache.dir / "bodies" / name, 0o600)]:
        assert stat.S_IMODE(path.stat().st_mode) == mode, path
    # A damaged body file is a miss, not a wrong answer.
    (cache.dir / "bodies" / name).write_bytes(b"short")
    again = cache.run("--cache", "--print=b", server.url + "/big", at=2)
    assert again.stdout == body and len(server.requests) == 2


def test_garbage_database_is_bypassed_with_one_warning_and_prune_rebuilds(server, cache):
    server.handler = answer(Cache_Control="max-age=60")
    cache.run("--cache", server.url + "/g")
    (cache.dir / "cache.db").write_bytes(b"this is not a database" * 300)
    for suffix in ("-wal", "-shm"):
        (cache.dir / ("cache.db" + suffix)).unlink(missing_ok=True)
    broken = cache.run("--cache", server.url + "/g", at=1)
    assert broken.code == 0 and broken.out.strip() == '{"n":1}'
    assert broken.err.count("afcli: warning:") == 1 and "cache prune" in broken.err
    pruned = cache.run("cache", "prune")
    assert pruned.code == 0 and "rebuilt" in pruned.out
    cache.run("--cache", server.url + "/g", at=2)
    ok = cache.run("--cache", "--print=m", server.url + "/g", at=3)
    assert "cache: hit" in ok.out and ok.err == ""


def test_truncated_database_is_bypassed(server, cache):
    server.handler = answer(Cache_Control="max-age=60")
    for index in range(30):
        cache.run("--cache", server.url + f"/t{index}")
    data = (cache.dir / "cache.db").read_bytes()
    (cache.dir / "cache.db").write_bytes(data[: len(data) // 2 + 100])
    result = cache.run("--cache", server.url + "/t29", at=1)
    assert result.code == 0 and result.out.strip() == '{"n":1}'
    assert result.err.count("warning") <= 1


def test_symbolic_links_are_refused(server, cache, tmp_path):
    server.handler = answer(Cache_Control="max-age=60")
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o700)
    cache.dir.parent.mkdir(parents=True)
    cache.dir.symlink_to(target)
    result = cache.run("--cache", server.url + "/s")
    assert result.code == 0 and result.out.strip() == '{"n":1}'
    assert result.err.count("warning") == 1 and "symbolic link" in result.err
    assert list(target.iterdir()) == []
    cache.dir.unlink()
    cache.dir.mkdir(mode=0o700)
    victim = tmp_path / "victim.db"
    victim.write_bytes(b"")
    (cache.dir / "cache.db").symlink_to(victim)
    linked = cache.run("--cache", server.url + "/s")
    assert linked.code == 0 and "symbolic link" in linked.err and victim.read_bytes() == b""


def test_sigkill_while_storing_leaves_no_entry(server, cache):
    started = threading.Event()
    release = threading.Event()

    def slow():
        yield b"x" * 200_000
        started.set()
        release.wait(10)
        yield b"y" * 100

    server.handler = lambda request: Response(
        headers=[("Content-Type", "text/plain"), ("Cache-Control", "max-age=60"), ("Content-Length", "200100")], body=slow)
    proc = start(["--cache", "-o", "/dev/null", server.url + "/k"], may_die_of=[signal.SIGKILL],
                 env=base_env(cache.env()), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert started.wait(10)
    deadline = time.time() + 10
    while time.time() < deadline and not any(p.name.startswith("tmp-") for p in (cache.dir / "bodies").glob("*")):
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    release.set()
    assert cache.run("--cache=only", server.url + "/k").code == 15
    listing = cache.run("cache", "ls")
    assert "/k" not in listing.out
    # Temporary files are removed once an hour old (file times are the real clock's).
    assert cache.run("cache", "prune", at=int(time.time()) - NOW + 600).code == 0
    assert len(list((cache.dir / "bodies").iterdir())) == 1
    assert cache.run("cache", "prune", at=int(time.time()) - NOW + 7200).code == 0
    assert list((cache.dir / "bodies").iterdir()) == []


def test_two_processes_store_the_same_url(server, cache):
    body = os.urandom(200_000)
    server.handler = lambda request: Response(
        headers=[("Content-Type", "application/octet-stream"), ("Cache-Control", "max-age=60")], body=body)
    procs = [start(["--cache", "-o", "/dev/null", server.url + "/same"], env=base_env(cache.env()),
                   stderr=subprocess.PIPE) for _ in range(2)]
    for proc in procs:
        assert proc.wait(30) == 0
        assert proc.stderr.read() == b""
    hit = cache.run("--cache", "--print=bm", server.url + "/same", at=1)
    assert hit.stdout.startswith(body)
    assert cache.run("cache", "ls").out.count("/same") == 1
    assert len(list((cache.dir / "bodies").iterdir())) == 1


def test_cache_ls_show_rm_path_prune(server, cache):
    server.handler = answer(Cache_Control="max-age=60", ETag='"e"')
    cache.run("--cache", server.url + "/a")
    cache.run("--cache", server.url + "/b?q=1")
    assert cache.run("cache", "path").out == str(cache.dir) + "\n"
    listing = cache.run("cache", "ls", at=12)
    lines = listing.out.splitlines()
    assert lines[0].split() == ["METHOD", "URL", "STATUS", "SIZE", "AGE", "EXPIRES"]
    assert any(line.split()[:4] == ["GET", server.url + "/a", "200", "7"] and "12 s" in line and "in 48 s" in line
               for line in lines)
    shown = cache.run("cache", "show", server.url + "/b?q=1")
    assert shown.code == 0 and 'ETag: "e"' in shown.out and "HTTP/1.1 200 OK" in shown.out
    assert cache.run("cache", "show", server.url + "/none").code == 1
    assert cache.run("cache", "rm", server.url + "/a").out == "removed 1 entry\n"
    pruned = cache.run("cache", "prune", at=100)
    assert "removed 1 expired" in pruned.out
    assert cache.run("cache", "ls").out.count("\n") == 1
    cache.run("--cache", server.url + "/a")
    assert cache.run("cache", "rm", "--all").out == "removed 1 entry\n"
    assert cache.run("cache").code == 2 and cache.run("cache", "frob").code == 2
    assert cache.run("cache", "rm").code == 2


def test_prune_trims_least_recently_used_to_max_size(server, cache):
    server.handler = lambda request: Response(
        headers=[("Cache-Control", "max-age=600")], body=b"z" * 100_000)
    for index, name in enumerate(["one", "two", "three"]):
        cache.run("--cache", "-o", "/dev/null", server.url + "/" + name, at=index)
    # A use is recorded once a minute at most.
    cache.run("--cache", "-o", "/dev/null", server.url + "/one", at=100)
    pruned = cache.run("cache", "prune", "--cache-max-size", "250k", at=101)
    assert "1 least recently used" in pruned.out
    listing = cache.run("cache", "ls", at=101).out
    assert "/two" not in listing and "/one" in listing and "/three" in listing


def test_cj_then_network_on_a_terminal_prints_both_answers(server, cache):
    from conftest import run_tty
    server.handler = answer(body=b'{"n":1}')
    cache.run("--cache=cj-then-network", "--cache-ttl", "1h", server.url + "/tty")
    server.handler = answer(body=b'{"n":2}')
    shown = run_tty(["--cache=cj-then-network", "--cache-ttl", "1h", "--pretty=none", "--print=b", server.url + "/tty"],
                    env=cache.env(at=5))
    assert shown.code == 0, shown
    text = shown.stdout.decode()
    assert text.index('{"n":1}') < text.index('{"n":2}'), text
    piped = cache.run("--cache=cj-then-network", "--cache-ttl", "1h", server.url + "/tty", at=6)
    assert piped.out.strip() == '{"n":2}'


def test_a_cache_hit_keeps_session_and_jar_cookies(server, cache, tmp_path):
    server.handler = answer(Cache_Control="max-age=60")
    session = tmp_path / "s.json"
    jar = tmp_path / "jar.txt"
    jar.write_text("# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tjarred\t1\n")
    jar.chmod(0o644)
    cache.run("--cache", "--session", str(session), "--cookie-jar", str(jar), server.url + "/s", "Cookie:kept=1")
    assert "kept" in session.read_text() and "jarred" in jar.read_text()
    # The cookies sent are part of the key: the second request (with the session's cookie) is
    # stored under its own key, and the third, sending the same, is a hit.
    cache.run("--cache", "--session", str(session), "--cookie-jar", str(jar), server.url + "/s", at=1)
    hit = cache.run("--cache", "--print=m", "--session", str(session), "--cookie-jar", str(jar), server.url + "/s", at=1)
    assert "cache: hit" in hit.out, hit
    assert len(server.requests) == 2
    assert "kept" in session.read_text() and "jarred" in jar.read_text()


def test_stored_redirects_do_not_answer_a_request_that_follows(server, cache):
    def handler(request):
        if request.target == "/old":
            return Response(status=301, reason="Moved Permanently",
                            headers=[("Location", "/new"), ("Cache-Control", "max-age=600")], body=b"")
        return Response(headers=[("Content-Type", "application/json"), ("Cache-Control", "max-age=600")],
                        body=b'{"new":true}')
    server.handler = handler
    followed = cache.run("--cache", "--follow", "--print=bm", server.url + "/old")
    # The final response is stored under its own URL, never under the one that redirected.
    assert '{"new":true}' in followed.out and "cache: miss, stored" in followed.out
    assert "/old" not in cache.run("cache", "ls").out
    # Without --follow the 301 itself is stored and answered; with --follow it is not answered.
    cache.run("--cache", server.url + "/old", at=1)
    moved = cache.run("--cache", "--print=hm", server.url + "/old", at=2)
    assert "301" in moved.out and "cache: hit" in moved.out and moved.code == 3
    count = len(server.requests)
    again = cache.run("--cache", "--follow", "--print=bm", server.url + "/old", at=3)
    assert '{"new":true}' in again.out and len(server.requests) == count + 2
