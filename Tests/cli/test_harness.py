"""The black-box helpers themselves: a death by signal fails the case, an interrupt is an exit."""

import signal
import subprocess

import pytest

from conftest import check_started, command, exited, run_interrupted, start


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
