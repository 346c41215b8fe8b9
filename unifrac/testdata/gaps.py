#!/usr/bin/python3
"""How often a busy processor is taken away from a program:

    /usr/bin/python3 gaps.py [SECONDS] [PROCESSES]

runs PROCESSES processes (default: one per core) that each read the clock
in a loop for SECONDS (default 10) and count the gaps between two readings
longer than 0.2, 1 and 5 ms: stretches in which the process did not run
although it never waited (on a virtual machine, mostly the host running
something else on that core). A run of 40 ms that meets one of them
takes that much longer, while a run of 0.5 s averages over them; that is
what spreads the millisecond timings of docs/benchmarks.md.
"""
import multiprocessing
import os
import sys
import time


def probe(seconds, out):
    start = last = time.perf_counter()
    gaps = []
    while last - start < seconds:
        now = time.perf_counter()
        if now - last > 2e-4:
            gaps.append(now - last)
        last = now
    out.put(gaps)


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10
    procs = int(sys.argv[2]) if len(sys.argv) > 2 else os.cpu_count()
    q = multiprocessing.Queue()
    ps = [multiprocessing.Process(target=probe, args=(seconds, q)) for _ in range(procs)]
    for p in ps:
        p.start()
    for i in range(procs):
        g = q.get()
        print("process %d: %d gaps > 0.2 ms (%.0f ms in all), %d > 1 ms, %d > 5 ms, longest %.1f ms"
              % (i, len(g), 1000 * sum(g), sum(x > 1e-3 for x in g), sum(x > 5e-3 for x in g),
                 1000 * max(g, default=0)))
    for p in ps:
        p.join()
