"""--log=cj and --log-file, by how they arrive: typed, in default_options, for a run (`afcli run -`
and a `.http` file: the run's options; a line may not give them, as they shape the run's output).
(The config environment has no key for them.) Each checks the log's blocks and where they went."""

import pytest

from arrival import Arrival, refused_on_a_line

START = "网络请求Start"


def test_typed(server, tmp_path):
    arrival = Arrival(tmp_path)
    to_stderr = arrival.typed(["--log=cj"], ["get", f"{server.url}/a"])
    assert to_stderr.code == 0 and to_stderr.err.count(START) == 1 and f"{server.url}/a" in to_stderr.err
    log = tmp_path / "log.txt"
    to_file = arrival.typed(["--log=cj", "--log-file", str(log)], ["get", f"{server.url}/b"])
    assert to_file.code == 0 and START not in to_file.err, to_file
    assert log.read_text().count(START) == 1 and f"{server.url}/b" in log.read_text()


def test_in_default_options(server, tmp_path):
    log = tmp_path / "log.txt"
    result = Arrival(tmp_path).default_options(["--log=cj", "--log-file", str(log)], ["get", f"{server.url}/a"])
    assert result.code == 0 and result.out == '{"ok":true}', result
    assert log.read_text().count(START) == 1 and f"{server.url}/a" in log.read_text()


@pytest.mark.parametrize("words", [["--log=cj"], ["--log-file", "log.txt"]])
def test_on_a_run_line_it_is_refused(server, tmp_path, words):
    result = Arrival(tmp_path).run_lines([f"get {server.url}/a {' '.join(words)}"], run_words=["--log=cj"])
    assert refused_on_a_line(result, words[0].split("=")[0]), result
    assert server.requests == [] and not (tmp_path / "log.txt").exists()


@pytest.mark.parametrize("way", ["option", "default_options"])
def test_for_a_run_of_lines_and_a_http_run(server, tmp_path, way):
    arrival = Arrival(tmp_path)
    log, http_log = tmp_path / "log.txt", tmp_path / "http-log.txt"
    lines = [f"get {server.url}/a", f"get {server.url}/b"]
    text = f"GET {server.url}/c\n"
    if way == "option":
        ran = arrival.run_lines(lines, run_words=["--log=cj", "--log-file", str(log)])
        http = arrival.http_file(text, run_words=["--log=cj", "--log-file", str(http_log)])
    else:
        ran = arrival.run_lines(lines, default_options=["--log=cj", "--log-file", str(log)])
        http = arrival.http_file(text, default_options=["--log=cj", "--log-file", str(http_log)])
    assert ran.code == 0 and http.code == 0, (ran, http)
    text_log = log.read_text()
    assert text_log.count(START) == 2 and f"{server.url}/a" in text_log and f"{server.url}/b" in text_log
    assert http_log.read_text().count(START) == 1 and f"{server.url}/c" in http_log.read_text()
