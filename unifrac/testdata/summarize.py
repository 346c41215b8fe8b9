#!/usr/bin/python3
"""Markdown tables from the lines of scaling.sh:

    /usr/bin/python3 summarize.py LOG

one row per case and method: ssu's and twl's wall time and peak memory
(ranges over the runs) and the range of ssu's wall time over twl's, run by
run (each ssu run is paired with the twl run that followed it). Lines of
options.sh, which also give the system time, add the ratio of CPU times
(user + system), run by run.
"""
import sys
from collections import OrderedDict

runs = OrderedDict()
notes = []
for line in open(sys.argv[1]):
    f = line.split()
    if not f or f[0] == "#":
        notes.append(line.rstrip())
        continue
    if len(f) not in (6, 7) or f[2] not in ("ssu", "twl"):
        continue
    key = (f[0], f[1])
    cpu = float(f[4]) + (float(f[5]) if len(f) == 7 else 0)
    runs.setdefault(key, {"ssu": [], "twl": [], "sys": len(f) == 7})[f[2]].append((float(f[3]), cpu, int(f[-1])))


def rng(xs, fmt):
    lo, hi = min(xs), max(xs)
    return fmt % lo if fmt % lo == fmt % hi else (fmt + "–" + fmt) % (lo, hi)


withsys = any(r["sys"] for r in runs.values())
print("| tips | samples | tips a sample | method | ssu wall | ssu peak | twl wall | twl peak | ssu / twl (wall) |" + (" ssu / twl (CPU) |" if withsys else ""))
print("|---:|---:|---:|---|---:|---:|---:|---:|---:|" + ("---:|" if withsys else ""))
for (case, method), r in runs.items():
    tips, n, k, _ = case.split(":")
    s, t = r["ssu"], r["twl"]
    ratios = [a[0] / b[0] for a, b in zip(s, t)]
    line = "| %s | %s | %s | %s | %s s | %s MB | %s s | %s MB | %s× |" % (
        f"{int(tips):,}", f"{int(n):,}", k, method,
        rng([x[0] for x in s], "%.2f"), rng([x[2] / 1000 for x in s], "%.0f"),
        rng([x[0] for x in t], "%.2f"), rng([x[2] / 1000 for x in t], "%.0f"),
        rng(ratios, "%.1f"))
    if withsys:
        line += " %s× |" % rng([a[1] / max(b[1], 0.005) for a, b in zip(s, t)], "%.1f")
    print(line)
for n in notes:
    print(n)
