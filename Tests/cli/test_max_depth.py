"""--max-depth N: the one nesting limit of everything that reads a response body (the JSON, XML and
property-list formatters, --jsonpath, afcli run's ?? assertions and references), by each way it
arrives (typed, the config's default_options, on afcli run's command line; a line of `afcli run -`
refuses it, as it refuses every option that belongs to the run). Every reader reads a body as deep
as the limit, and says "nested deeper than the limit (N levels; --max-depth raises it)" one level
deeper; the hard maximum, 10000, is read on every path, also with a main stack of 256 KiB."""

import json
import resource
import subprocess

import pytest

from conftest import BINARY, Result, base_env, run
from loopback import Response

HARDEST = 10000


def arrays(levels):
    return b"[" * levels + b"]" * levels


def message(limit):
    return f"nested deeper than the limit ({limit} levels; --max-depth raises it)"


def deep(request):
    """/json/N, /xml/N, /plist/N: a body nested N levels deep."""
    _, kind, levels = request.target.split("?")[0].split("/")
    levels = int(levels)
    if kind == "xml":
        return Response(headers=[("Content-Type", "application/xml")], body=b"<a>" * levels + b"</a>" * levels)
    if kind == "plist":
        return Response(headers=[("Content-Type", "application/x-plist")],
                        body=b'<?xml version="1.0"?><plist version="1.0">' + b"<array>" * levels
                        + b"</array>" * levels + b"</plist>")
    return Response(headers=[("Content-Type", "application/json")], body=arrays(levels))


def small_stack():
    resource.setrlimit(resource.RLIMIT_STACK, (256 * 1024, resource.RLIM_INFINITY))


def run_on_a_small_stack(args):
    """afcli with a main thread of 256 KiB (`ulimit -s 256`)."""
    proc = subprocess.run([str(BINARY), *args], stdin=subprocess.DEVNULL, capture_output=True, env=base_env(),
                          timeout=120, preexec_fn=small_stack)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def config_env(tmp_path, default_options):
    directory = tmp_path / "config"
    directory.mkdir()
    (directory / "config.json").write_text(json.dumps({"default_options": default_options}))
    (directory / "config.json").chmod(0o600)
    return {"AFCLI_CONFIG_DIR": str(directory), "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}


def test_the_default_limit_is_512_and_the_message_names_the_option(server):
    server.handler = deep
    assert run(["get", f"{server.url}/json/512", "--jsonpath", "$..a"]).code == 0
    result = run(["get", f"{server.url}/json/513", "--jsonpath", "$..a"])
    assert result.code == 12, result
    assert result.err == f"afcli: error: the body is {message(512)} at offset 512\n"


@pytest.mark.parametrize("limit", [1, 700, HARDEST])
def test_typed_it_sets_the_limit_of_jsonpath_and_the_formatters(server, limit):
    server.handler = deep
    for query in ("$..a", "$[0]", "$[-1]", "$[?@.x]"):
        fits = run(["--max-depth", str(limit), "get", f"{server.url}/json/{limit}", "--jsonpath", query])
        assert fits.code == 0, (query, fits)
        deeper = run(["--max-depth", str(limit), "get", f"{server.url}/json/{limit + 1}", "--jsonpath", query])
        assert deeper.code == 12, (query, deeper)
        assert deeper.err == f"afcli: error: the body is {message(limit)} at offset {limit}\n", query
    for kind, warning in (("json", f"JSON at byte {limit}: {message(limit)}"), ("xml", f"XML {message(limit)}")):
        fits = run(["--max-depth", str(limit), "--pretty=format", "get", f"{server.url}/{kind}/{limit}"])
        assert fits.code == 0 and fits.err == "", (kind, fits)
        deeper = run(["--max-depth", str(limit), "--pretty=format", "get", f"{server.url}/{kind}/{limit + 1}"])
        assert deeper.code == 0
        assert deeper.err == f"afcli: warning: {warning}; the rest is shown as received\n", kind


def test_the_hard_maximum_is_read_on_every_path_whatever_the_callers_stack(server):
    """Sorted, held, filtered and decoded bodies recurse a level at a time: on a stack sized for
    the limit, not the main thread's (256 KiB here, a tenth of what 10000 levels take)."""
    server.handler = deep
    for args in (["--pretty=format", "--sorted"], ["--jsonpath", "$[-1]"], ["--jsonpath", "$..[?@.x]"],
                 ["--pretty=colors", "--jsonpath", "$[0]"]):
        url = f"{server.url}/json/{HARDEST}"
        result = run_on_a_small_stack(["--max-depth", str(HARDEST), *args, "get", url])
        assert result.code == 0 and "deeper" not in result.err, (args, result)
    for plist in (["--pretty=format"], ["--pretty=format", "--plist-as=json"]):
        # The XML form counts <plist> as a level.
        url = f"{server.url}/plist/{HARDEST - 1}"
        result = run_on_a_small_stack(["--max-depth", str(HARDEST), *plist, "get", url])
        assert result.code == 0 and result.err == "", (plist, result)


@pytest.mark.parametrize("value", ["0", "10001", "-1", "x", ""])
def test_a_value_out_of_range_is_refused_before_anything_is_sent(server, value):
    result = run(["--max-depth", value, "get", f"{server.url}/json/1"])
    assert result.code == 2, result
    assert result.err == f'afcli: error: --max-depth: "{value}" is not a number of levels from 1 to {HARDEST}\n'
    assert server.requests == []


def test_in_default_options_it_sets_the_limit_and_a_typed_one_wins(server, tmp_path):
    server.handler = deep
    env = config_env(tmp_path, ["--max-depth", "600"])
    assert run(["get", f"{server.url}/json/600", "--jsonpath", "$..a"], env=env).code == 0
    result = run(["get", f"{server.url}/json/601", "--jsonpath", "$..a"], env=env)
    assert result.code == 12, result
    assert result.err == f"afcli: error: the body is {message(600)} at offset 600\n"
    assert run(["--max-depth", "601", "get", f"{server.url}/json/601", "--jsonpath", "$..a"], env=env).code == 0


def http_file(tmp_path, server, levels, checks=True):
    path = tmp_path / "deep.http"
    assertions = "?? jsonpath $[0] exists\n?? jsonpath $..[?length(@) == 0] exists\n" if checks else ""
    path.write_text(f"""# @name deep
GET {server.url}/json/{levels}

{assertions}
###
GET {server.url}/json/1?{{{{deep.response.body.$..[?length(@) == 0]}}}}
""")
    return str(path)


def lines(result):
    return [json.loads(line) for line in result.out.splitlines()]


@pytest.mark.parametrize("limit", [700, HARDEST])
def test_a_run_reads_assertions_and_references_to_its_limit(server, tmp_path, limit):
    server.handler = deep
    fits = run_on_a_small_stack(["run", http_file(tmp_path, server, limit), "--max-depth", str(limit)])
    assert fits.code == 0, fits
    assert [line["exit"] for line in lines(fits)] == [0, 0]
    assert server.requests[-1].target == "/json/1?[]"
    checked = run(["run", http_file(tmp_path, server, limit + 1), "--max-depth", str(limit)], timeout=120)
    assert checked.code == 16, checked
    assert [a["problem"] for a in lines(checked)[0]["assertions"]] == [f"the body is {message(limit)}"] * 2
    taken = run(["run", http_file(tmp_path, server, limit + 1, checks=False), "--max-depth", str(limit)],
                timeout=120)
    assert taken.code != 0, taken
    first, second = lines(taken)
    assert first["exit"] == 0
    assert second["error"].endswith(
        ".http:6: {{deep.response.body.$..[?length(@) == 0]}}: deep's response body is " + message(limit)), second


def test_the_default_options_reach_a_run_and_a_line_of_run_dash_refuses_it(server, tmp_path):
    server.handler = deep
    env = config_env(tmp_path, ["--max-depth", "700"])
    assert run(["run", http_file(tmp_path, server, 700)], env=env).code == 0
    stdin = f"# @name deep\nget {server.url}/json/700\nget {server.url}/json/1 X-V:{{{{deep.response.body.$[0]}}}}\n"
    assert run(["run", "-"], input=stdin.encode(), env=env).code == 0
    assert run(["run", "-"], input=stdin.encode()).code != 0
    line = run(["run", "-"], input=f"get {server.url}/json/1 --max-depth 700\n".encode())
    assert line.code == 2, line
    assert line.err == ("afcli: error: stdin:1: --max-depth applies to the whole run: give it on the afcli run "
                        "command line, not on a request's line\n")
