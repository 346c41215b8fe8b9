"""Time an optimal transport plan on a tree metric: POT's ot.emd against
twl's tw.Planner (twl bench plan), side by side, alternating round by
round.

The problem: a uniformly random labelled tree of L nodes (Pruefer
sequence, numpy seed = the round) with unit weights, and two random
distributions with mass on every node, internal ones included. POT gets
the dense L x L shortest-path matrix, built untimed, and ot.emd returns
the plan; only the ot.emd call is timed. twl's side is 'twl bench plan
--labels L --order random', which times Planner.Plan in process on trees
and distributions drawn the same way (its own seeded generator, so not the
same draws), over --time. Both are one thread. Each round times one of
each, and the ratio is taken round by round. Round 1 also checks POT's
plan against 'twl transport' on the same files: equal costs, and twl's
plan no larger.

Run with Debian's Python (POT 0.8.2), under the benchmark lock:

  flock /work/.bench.lock /usr/bin/python3 bench/scripts/pot_plan.py \
      --twl ./twl --labels 3000 --rounds 7
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import ot


def pruefer_tree(L, rng):
    """Parent array (root 0) of the tree of a uniformly random Pruefer
    sequence."""
    seq = rng.integers(0, L, size=L - 2)
    degree = np.ones(L, dtype=np.int64)
    for x in seq:
        degree[x] += 1
    import heapq
    leaves = [i for i in range(L) if degree[i] == 1]
    heapq.heapify(leaves)
    adj = [[] for _ in range(L)]
    for x in seq:
        leaf = heapq.heappop(leaves)
        adj[leaf].append(int(x))
        adj[int(x)].append(leaf)
        degree[x] -= 1
        if degree[x] == 1:
            heapq.heappush(leaves, int(x))
    u, v = heapq.heappop(leaves), heapq.heappop(leaves)
    adj[u].append(v)
    adj[v].append(u)
    parent = [-2] * L
    parent[0] = -1
    order = [0]
    for x in order:
        for y in adj[x]:
            if parent[y] == -2:
                parent[y] = x
                order.append(y)
    return parent, order


def tree_metric(parent, order):
    """Shortest-path distances (unit weights) by a breadth-first search
    from every node over the adjacency lists: O(L^2)."""
    L = len(parent)
    adj = [[] for _ in range(L)]
    for i in range(1, L):
        adj[i].append(parent[i])
        adj[parent[i]].append(i)
    M = np.zeros((L, L))
    for s in range(L):
        d = M[s]
        seen = np.zeros(L, dtype=bool)
        seen[s] = True
        q = [s]
        for x in q:
            for y in adj[x]:
                if not seen[y]:
                    seen[y] = True
                    d[y] = d[x] + 1
                    q.append(y)
    return M


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--twl", default="twl")
    ap.add_argument("--labels", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    L = args.labels
    pot, twl = [], []
    check = {}
    for r in range(args.rounds):
        rng = np.random.default_rng(r + 1)
        parent, order = pruefer_tree(L, rng)
        a = rng.random(L) + 0.05
        b = rng.random(L) + 0.05
        a /= a.sum()
        b /= b.sum()
        M = tree_metric(parent, order)
        t0 = time.perf_counter()
        P = ot.emd(a, b, M, numItermax=100_000_000)
        pot.append(time.perf_counter() - t0)
        out = subprocess.run([args.twl, "bench", "plan", "--labels", str(L), "--order", "random",
                              "--seed", str(r + 1), "--format", "json"],
                             check=True, capture_output=True, text=True).stdout
        twl.append(json.loads(out.splitlines()[0])["seconds_per_op"])
        print(f"round {r + 1}: ot.emd {pot[-1] * 1e3:.1f} ms, twl plan {twl[-1] * 1e6:.0f} us, "
              f"ratio {pot[-1] / twl[-1]:.0f}x, load {os.getloadavg()[0]:.2f}", file=sys.stderr)
        if r == 0:
            d = tempfile.mkdtemp()
            with open(os.path.join(d, "t.tree"), "w") as f:
                for i in range(1, L):
                    f.write(f"{parent[i]}\t{i}\n")
            for name, x in (("a.jsonl", a), ("b.jsonl", b)):
                with open(os.path.join(d, name), "w") as f:
                    f.write(json.dumps({str(i): float(v) for i, v in enumerate(x)}) + "\n")
            subprocess.run([args.twl, "transport", "--tree", os.path.join(d, "t.tree"), "--out",
                            os.path.join(d, "p.jsonl"), os.path.join(d, "a.jsonl"), os.path.join(d, "b.jsonl")],
                           check=True)
            with open(os.path.join(d, "p.jsonl")) as f:
                plan = json.loads(f.readline())
            check = {"pot_cost": float((P * M).sum()), "twl_cost": plan["cost"],
                     "pot_moves": int((P > 0).sum()), "twl_moves": len(plan["plan"])}
    ratios = sorted(p / t for p, t in zip(pot, twl))
    print(json.dumps({
        "labels": L, "rounds": args.rounds, "load": os.getloadavg(),
        "pot_ms": [min(pot) * 1e3, float(np.median(pot)) * 1e3, max(pot) * 1e3],
        "twl_us": [min(twl) * 1e6, float(np.median(twl)) * 1e6, max(twl) * 1e6],
        "ratio": [ratios[0], float(np.median(ratios)), ratios[-1]], **check,
    }))


if __name__ == "__main__":
    main()
