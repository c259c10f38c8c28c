#!/usr/bin/env python3
"""Times whole commands run round-robin, so that a machine whose speed drifts during the run
(other processes, frequency changes) slows every tool alike; hyperfine runs each command's
batch one after the other, and on a shared machine its ratios between two ~10 ms commands
wander by ±10% from run to run. Every other round runs the tools in the reverse order.

    interleave.py [--rounds N] [--warmup N] [--reference NAME] NAME=COMMAND [NAME=COMMAND ...]

A NAME ending in '~' is a slow peer (HTTPie, xh): it runs in at most 30 of the rounds, spread
evenly, and the '~' is dropped from its name. Standard output goes to /dev/null, as hyperfine's
does; standard input is /dev/null. Prints each tool's mean and median wall time, the ratio of
its median and mean to the reference's, and the median of its ratios to the reference round by
round ("paired"): a round's runs follow each other within a second or so, and so share most of
the machine's drift, which the ratio of the medians of two tools does not cancel.
"""

import argparse
import os
import shlex
import statistics
import sys
import time

SLOW_RUNS = 30


def run_once(argv, devnull):
    """Wall time in seconds of one spawn-to-exit of argv; exits the benchmark if it fails."""
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1)]
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"interleave: {shlex.join(argv)} failed (exit {os.waitstatus_to_exitcode(status)})")
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--reference", default="curl")
    parser.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    args = parser.parse_args()

    tools = []
    for spec in args.commands:
        name, _, command = spec.partition("=")
        slow = name.endswith("~")
        tools.append({"name": name.rstrip("~"), "argv": shlex.split(command), "slow": slow, "times": {}})
    if not any(t["name"] == args.reference for t in tools):
        sys.exit(f"interleave: no command named {args.reference}")

    devnull = os.open(os.devnull, os.O_RDWR)
    slow_every = max(1, args.rounds // SLOW_RUNS)
    for round_number in range(-args.warmup, args.rounds):
        # Every other round runs the tools in the reverse order: none always runs first.
        for tool in tools if round_number % 2 == 0 else reversed(tools):
            if tool["slow"] and (round_number < -2 or round_number % slow_every != 0):
                continue
            elapsed = run_once(tool["argv"], devnull)
            if round_number >= 0:
                tool["times"][round_number] = elapsed

    reference = next(t for t in tools if t["name"] == args.reference)
    ref_times = reference["times"]
    ref_median = statistics.median(ref_times.values())
    ref_mean = statistics.fmean(ref_times.values())
    print(f"{'tool':<11}{'runs':>5}{'mean':>10}{'median':>10}{'median ratio':>14}{'mean ratio':>12}{'paired':>9}")
    for tool in tools:
        times = tool["times"]
        mean, median = statistics.fmean(times.values()), statistics.median(times.values())
        paired = statistics.median(elapsed / ref_times[r] for r, elapsed in times.items() if r in ref_times)
        print(f"{tool['name']:<11}{len(times):>5}{mean * 1000:>8.2f}ms{median * 1000:>8.2f}ms"
              f"{median / ref_median:>13.2f}x{mean / ref_mean:>11.2f}x{paired:>8.2f}x")


if __name__ == "__main__":
    main()
