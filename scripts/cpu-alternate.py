#!/usr/bin/env python3
"""CPU time of whole commands, run alternately, medians: steadier than the wall clock on a host
shared with other work, and finer than /usr/bin/time's 10 ms steps (user + system time of each
child, by wait4, in microseconds).

    scripts/cpu-alternate.py RUNS LABEL 'COMMAND' [LABEL 'COMMAND' ...]

Each COMMAND is run by sh (so it may redirect its input), its output discarded; one run of each
in turn, RUNS times; then each label's median, least and greatest, and every run, and how many
times the last command's time each other's is: the median of the ratios within each round
(neighbouring runs share the host's load of the moment), beside the ratio of the medians.
"""
import os
import statistics
import sys


def cpu_ms(command):
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.execvp("sh", ["sh", "-c", "exec " + command])
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"cpu-alternate: {command!r} failed ({status})")
    return (usage.ru_utime + usage.ru_stime) * 1000


def main():
    if len(sys.argv) < 4 or len(sys.argv) % 2 != 0:
        sys.exit(__doc__)
    runs = int(sys.argv[1])
    commands = list(zip(sys.argv[2::2], sys.argv[3::2]))
    times = {label: [] for label, _ in commands}
    for _ in range(runs):
        for label, command in commands:
            times[label].append(cpu_ms(command))
    for label, _ in commands:
        t = times[label]
        print(f"{label}: median {statistics.median(t):.1f} ms, {min(t):.1f}-{max(t):.1f} ({' '.join(f'{x:.0f}' for x in t)})")
    last_label = commands[-1][0]
    last = times[last_label]
    for label, _ in commands[:-1]:
        rounds = statistics.median(b / a for a, b in zip(times[label], last))
        print(f"{last_label} / {label}: {rounds:.2f} (median of the rounds' ratios), "
              f"{statistics.median(last) / statistics.median(times[label]):.2f} (ratio of the medians)")
    print("load average:", " ".join(open("/proc/loadavg").read().split()[:3]))


main()
