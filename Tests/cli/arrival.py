"""One scenario, run the ways a setting arrives (Hurl's suite layout): typed on the command line,
in the config's `default_options`, from the config environment, on a line of `afcli run -`, and
as a directive of a `.http` file. The test_arrival_*.py files each take one shared option and
check its effect on the wire or in the output, against a loopback server, every way it may come.

Every way runs with a home, config directory and cache directory of its own under tmp_path, so
nothing of one way leaks into the next."""

import json

from conftest import run


class Arrival:
    """Runs afcli for one test, with the config file written from what each way needs."""

    def __init__(self, tmp_path):
        self.tmp_path = tmp_path
        self.home = tmp_path / "home"
        self.home.mkdir(exist_ok=True)

    def env(self, default_options=(), environment=None, **extra):
        """The process environment: a config with `default_options` and, when given, the
        environment `dev` holding the keys `environment`."""
        directory = self.tmp_path / "config"
        directory.mkdir(exist_ok=True)
        config = {"default_options": list(default_options)}
        if environment is not None:
            config["environments"] = {"dev": environment}
        (directory / "config.json").write_text(json.dumps(config))
        (directory / "config.json").chmod(0o600)
        env = {"AFCLI_CONFIG_DIR": str(directory), "HOME": str(self.home),
               "XDG_CACHE_HOME": str(self.tmp_path / "cache")}
        env.update(extra)
        return env

    def typed(self, words, args, **kwargs):
        """`afcli WORDS ARGS`: the option typed."""
        return run([*words, *args], env=self.env(), cwd=self.tmp_path, **kwargs)

    def default_options(self, words, args, **kwargs):
        """`afcli ARGS` with WORDS in the config's default_options."""
        return run(list(args), env=self.env(default_options=words), cwd=self.tmp_path, **kwargs)

    def environment(self, keys, args, words=(), **kwargs):
        """`afcli --env dev WORDS ARGS` with the environment `dev` holding `keys`."""
        return run(["--env", "dev", *words, *args], env=self.env(environment=keys), cwd=self.tmp_path,
                   **kwargs)

    def run_lines(self, lines, run_words=(), environment=None, default_options=(), **kwargs):
        """`afcli run - RUN_WORDS --output-dir OUT` fed `lines` (with `--env dev` when an
        `environment` is given); returns the result, with `records` (the NDJSON lines) and
        `bodies` (request name → saved body) set."""
        out = self.tmp_path / "bodies"
        words = ["--env", "dev"] if environment is not None else []
        result = run([*words, "run", "-", *run_words, "--output-dir", str(out)], input="".join(
            line + "\n" for line in lines).encode(), env=self.env(default_options, environment),
            cwd=self.tmp_path, **kwargs)
        return self._collect(result, out)

    def http_file(self, text, run_words=(), environment=None, default_options=(), **kwargs):
        """`afcli run api.http RUN_WORDS --output-dir OUT` with the file holding `text` (and
        `--env dev` when an `environment` is given)."""
        path = self.tmp_path / "api.http"
        path.write_text(text)
        out = self.tmp_path / "bodies"
        words = ["--env", "dev"] if environment is not None else []
        result = run([*words, "run", str(path), *run_words, "--output-dir", str(out)],
                     env=self.env(default_options, environment), cwd=self.tmp_path, **kwargs)
        return self._collect(result, out)

    @staticmethod
    def _collect(result, out):
        result.records = []
        for line in result.out.splitlines():
            try:
                result.records.append(json.loads(line))
            except ValueError:
                pass
        result.bodies = {}
        for record in result.records:
            if record.get("file"):
                result.bodies[record["name"]] = open(record["file"], "rb").read()
        return result


def refused_on_a_line(result, option):
    """Whether `result` is a run's refusal of OPTION on its first line: status 2, nothing on
    standard output, the one line naming the option."""
    return (result.code == 2 and result.stdout == b""
            and result.err == (f"afcli: error: stdin:1: {option} applies to the whole run: give it on the "
                               "afcli run command line, not on a request's line\n"))
