"""The black-box helpers themselves: a death by signal fails the case, an interrupt is an exit,
and a start can be pinned to one CPU."""

import os
import signal
import subprocess
import time

import pytest

from conftest import BINARY, ONE_CPU, check_started, command, exited, run_interrupted, start


def killed_afcli():
    """An afcli that waits for its standard input, ended by SIGKILL (which it cannot answer)."""
    proc = subprocess.Popen(command(["run", "-"]), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    proc.kill()
    proc.wait(timeout=10)
    proc.stdin.close()
    return proc


def test_a_death_by_signal_fails_the_case_unless_the_test_expects_it():
    proc = killed_afcli()
    assert proc.returncode == -signal.SIGKILL
    with pytest.raises(pytest.fail.Exception, match="afcli died of SIGKILL"):
        exited(proc.returncode)
    assert exited(proc.returncode, may_die_of=[signal.SIGKILL]) == -signal.SIGKILL
    # A shell reports 128 + N; 130 there is afcli's own status for an interrupt.
    with pytest.raises(pytest.fail.Exception, match="afcli died of SIGSEGV"):
        exited(128 + signal.SIGSEGV, through_shell=True)
    assert exited(130, through_shell=True) == 130
    assert exited(137) == 137


def test_start_checks_its_process_when_the_case_ends():
    proc = start(["run", "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    proc.kill()
    proc.wait(timeout=10)
    proc.stdin.close()
    # What the autouse fixture does as this case ends, done here so that the case sees it fail.
    with pytest.raises(pytest.fail.Exception, match=rf"afcli died of SIGKILL \(returncode -9\) \(pid {proc.pid}\)"):
        check_started()


def test_sigint_is_answered_with_an_exit_not_a_death():
    result = run_interrupted(["run", "-"], pending=b"")
    assert (result.code, result.stdout) == (130, b""), result


def test_a_start_pinned_to_one_cpu_runs_there():
    proc = start(["run", "-"], cpus=ONE_CPU, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                 stderr=subprocess.PIPE)
    try:
        # taskset sets the affinity and replaces itself with afcli, under the same pid.
        deadline = time.monotonic() + 10
        while os.readlink(f"/proc/{proc.pid}/exe") != str(BINARY) and time.monotonic() < deadline:
            time.sleep(0.01)
        with open(f"/proc/{proc.pid}/status") as status:
            allowed = next(line for line in status if line.startswith("Cpus_allowed_list:"))
        assert allowed.split()[1] == ONE_CPU
    finally:
        out, err = proc.communicate(b"", timeout=10)
    assert (proc.returncode, err) == (0, b""), err
