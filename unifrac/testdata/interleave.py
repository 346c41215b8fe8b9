#!/usr/bin/python3
"""Interleaved whole-process timings with millisecond resolution:

    /usr/bin/python3 interleave.py ROUNDS [--remove FILE ...] LABEL=COMMAND [LABEL=COMMAND ...]

runs each command once per round, in the order given, with its output
thrown away, and prints per label the range and median of the wall times
and the range of the peak resident memory (ru_maxrss), then, for each
consecutive pair of labels (first/second, third/fourth, ...), the range
and median of the first's wall time over the second's, round by round.
Linux counts in a child's peak the forked Python's memory before the
exec, about 9 MB: smaller peaks read as that.
/usr/bin/time's centiseconds are too coarse for runs of 50 ms; this is
what the 1,000-sample rows of docs/benchmarks.md use. The commands are
split as a shell would (shlex), without a shell; put environment settings
in front with env, e.g. "ssu=env OMP_WAIT_POLICY=passive ssu -i ...".
Each --remove FILE is deleted before every command, outside the timing, so
that every run writes a file that does not exist yet, as a single run
would: a run that replaces an existing file also pays for discarding it,
which depends on how the previous run wrote it (on ext4, about 1 ms for a
19 MB file still in the page cache, 4-5 ms once an fsync has given it its
blocks).
"""
import os
import shlex
import statistics
import sys
import time

rounds = int(sys.argv[1])
args, remove = sys.argv[2:], []
while len(args) >= 2 and args[0] == "--remove":
    remove.append(args[1])
    args = args[2:]
cmds = [a.split("=", 1) for a in args]
res = {label: [] for label, _ in cmds}
for _ in range(rounds):
    for label, cmd in cmds:
        for f in remove:
            if os.path.exists(f):
                os.remove(f)
        t = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            args = shlex.split(cmd)
            os.execvp(args[0], args)
        _, status, usage = os.wait4(pid, 0)
        res[label].append(((time.perf_counter() - t) * 1000, usage.ru_maxrss / 1000, status))
for label, runs in res.items():
    wall = sorted(r[0] for r in runs)
    failed = "" if all(r[2] == 0 for r in runs) else "  (a run failed)"
    print("%-8s wall %.0f-%.0f ms (median %.0f)  peak %.0f-%.0f MB%s" % (
        label, wall[0], wall[-1], statistics.median(wall),
        min(r[1] for r in runs), max(r[1] for r in runs), failed))
labels = [label for label, _ in cmds]
for i in range(0, len(labels) - 1, 2):
    a, b = labels[i], labels[i + 1]
    ratios = sorted(x[0] / y[0] for x, y in zip(res[a], res[b]))
    print("  %s / %s, round by round: %.1f-%.1fx (median %.1fx)" % (
        a, b, ratios[0], ratios[-1], statistics.median(ratios)))
