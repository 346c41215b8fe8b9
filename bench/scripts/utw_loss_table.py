"""Summarize the runs of utw_loss.sh as the Markdown tables of
docs/results/utw.md: for the LDL sets, twl cv's mean +- sd over the
10 x 3 folds; for AAPD, the mean +- sample sd over the seeds of each
measure of twl eval --multilabel, and a paired t statistic of each loss
against KL + TW over the seeds.

  python3 bench/scripts/utw_loss_table.py utw-loss
"""
import glob
import json
import math
import os
import sys


def mean_sd(xs):
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, float("nan")
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def cell(m, s, digits=4):
    return f"{m:.{digits}f} ± {s:.{digits}f}"


def main(d):
    ldl = ["wasserstein", "kl", "chebyshev", "clark", "canberra", "cosine", "intersection"]
    for data in ("FG-Net", "Yeast_alpha"):
        files = sorted(glob.glob(os.path.join(d, f"ldl-{data}-*.json")))
        if not files:
            continue
        print(f"\n{data} (chain), twl cv 10 × 3\n")
        print("| loss | " + " | ".join(ldl) + " |")
        print("|---" * (len(ldl) + 1) + "|")
        for f in files:
            name = os.path.basename(f)[len(f"ldl-{data}-"):-5]
            r = json.load(open(f))
            print(f"| {name} | " + " | ".join(cell(r[k]["mean"], r[k]["std"]) for k in ldl) + " |")
    keys = ["pseudo_recall", "top_k_cost", "roc_auc", "roc_auc_samples", "wasserstein", "kl", "intersection"]
    runs = {}
    for f in glob.glob(os.path.join(d, "aapd-*-seed*.json")):
        base = os.path.basename(f)[len("aapd-"):-5]
        name, seed = base.rsplit("-seed", 1)
        runs.setdefault(name, {})[int(seed)] = json.load(open(f))
    if not runs:
        return
    print("\nAAPD, seeds " + ", ".join(str(s) for s in sorted(next(iter(runs.values())))) + "\n")
    print("| loss | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    for name in sorted(runs):
        rs = runs[name]
        print(f"| {name} | " + " | ".join(cell(*mean_sd([rs[s][k] for s in sorted(rs)])) for k in keys) + " |")
    if "kl+tw" in runs:
        print("\npaired t against kl+tw over the seeds (positive: higher than kl+tw)\n")
        print("| loss | " + " | ".join(keys) + " |")
        print("|---" * (len(keys) + 1) + "|")
        base = runs["kl+tw"]
        for name in sorted(runs):
            if name == "kl+tw":
                continue
            ts = []
            for k in keys:
                diffs = [runs[name][s][k] - base[s][k] for s in sorted(runs[name]) if s in base]
                m, sd = mean_sd(diffs)
                ts.append("n/a" if not sd or math.isnan(sd) else f"{m / (sd / math.sqrt(len(diffs))):+.2f}")
            print(f"| {name} | " + " | ".join(ts) + " |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "utw-loss")
