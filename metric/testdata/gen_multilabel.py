#!/usr/bin/python3
"""Generate multilabel.json, the expected values of metric's multi-label tests.

Run from this directory with a Python 3 that has scikit-learn, numpy and
networkx (written against scikit-learn 1.2.1, numpy 1.24.2, networkx 2.8.8):

    /usr/bin/python3 gen_multilabel.py

The Go tests read the JSON and need no Python. Every value is computed here
independently of the Go code:

- the three ROC-AUCs by scikit-learn's roc_auc_score, with average="micro"
  on all (document, label) pairs, average="macro" on the labels that have
  both a positive and a negative document, average="samples" on the
  documents that have both (scikit-learn raises an error on a label or
  document with one class only; the Go code skips them, and so do we here);
  per label and per document by roc_auc_score on the binary problem;
- pseudo-recall and top-k cost by a full sort of the labels by
  (-score, index), the ranking the Go code defines, and networkx's
  shortest_path_length (Dijkstra) on the tree, a forest being joined by a
  virtual root with edges of weight virtual_weight.

The cases: random forests given as parent arrays (a random permutation of the
nodes, so parents often come after children), unit or random edge weights,
scores with deliberate ties (rounded, and constant rows), label sets closed
under ancestors and arbitrary ones, a document with every label and labels
that no document has.
"""

import json

import networkx as nx
import numpy as np
from sklearn.metrics import roc_auc_score


def random_parents(rng, n, roots):
    """A random forest on n nodes with the given number of roots."""
    perm = rng.permutation(n)
    parent = [0] * n
    for k, v in enumerate(perm):
        parent[v] = -1 if k < roots else int(perm[rng.integers(k)])
    return parent


def graph(parent, weight, virtual_weight):
    g = nx.Graph()
    g.add_nodes_from(range(len(parent)))
    roots = [i for i, p in enumerate(parent) if p < 0]
    for i, p in enumerate(parent):
        if p >= 0:
            g.add_edge(p, i, weight=1.0 if weight is None else weight[i])
        elif len(roots) > 1:
            g.add_edge("virtual", i, weight=virtual_weight)
    assert nx.is_tree(g)
    return g


def closed(parent, labels):
    """labels and all their ancestors."""
    out = set()
    for v in labels:
        while v >= 0 and v not in out:
            out.add(v)
            v = parent[v]
    return out


def scores(rng, Y, L, decimals, concentration=0.3):
    """Random distributions leaning towards the true labels (so that the
    AUCs are well above 1/2), rounded to the given decimals (ties)."""
    P = rng.dirichlet([concentration] * L, size=len(Y))
    for r, y in enumerate(Y):
        P[r, y] += rng.uniform(0, 0.5, len(y))
    P /= P.sum(axis=1, keepdims=True)
    if decimals is not None:
        P = np.round(P, decimals)
    return P


def expected(parent, weight, virtual_weight, k, P, Y):
    n, L = P.shape
    g = graph(parent, weight, virtual_weight)
    dist = dict(nx.all_pairs_dijkstra_path_length(g, weight="weight"))
    Yi = np.zeros((n, L), dtype=int)
    for r, y in enumerate(Y):
        Yi[r, y] = 1

    recall, cost, sample = [], [], []
    for r in range(n):
        p, y = P[r], set(Y[r])
        order = sorted(range(L), key=lambda i: (-p[i], i))
        recall.append(len(set(order[: len(y)]) & y) / len(y))
        cost.append(sum(min(nx.shortest_path_length(g, l, t, weight="weight") for t in y) for l in order[:k]) / k)
        assert abs(cost[-1] - sum(min(dist[l][t] for t in y) for l in order[:k]) / k) < 1e-12
        sample.append(float(roc_auc_score(Yi[r], p)) if 0 < len(y) < L else None)

    label_auc = []
    for l in range(L):
        npos = int(Yi[:, l].sum())
        label_auc.append(float(roc_auc_score(Yi[:, l], P[:, l])) if 0 < npos < n else None)
    cols = [l for l in range(L) if label_auc[l] is not None]
    rows = [r for r in range(n) if sample[r] is not None]

    micro = float(roc_auc_score(Yi, P, average="micro"))
    macro = float(roc_auc_score(Yi[:, cols], P[:, cols], average="macro"))
    samples = float(roc_auc_score(Yi[rows], P[rows], average="samples"))
    return {
        "pseudo_recall": recall,
        "top_k_cost": cost,
        "roc_auc_samples": sample,
        "label_auc": label_auc,
        "mean": {
            "pseudo_recall": float(np.mean(recall)),
            "top_k_cost": float(np.mean(cost)),
            "roc_auc": micro,
            "roc_auc_macro": macro,
            "roc_auc_samples": samples,
        },
        "std": {
            "pseudo_recall": float(np.std(recall, ddof=1)),
            "top_k_cost": float(np.std(cost, ddof=1)),
            "roc_auc_macro": float(np.std([label_auc[l] for l in cols], ddof=1)),
            "roc_auc_samples": float(np.std([sample[r] for r in rows], ddof=1)),
        },
        "skipped_labels": L - len(cols),
        "skipped_rows": n - len(rows),
    }


def random_chain(rng, n):
    """A chain on n nodes, numbered in random order."""
    perm = rng.permutation(n)
    parent = [0] * n
    for k, v in enumerate(perm):
        parent[v] = -1 if k == 0 else int(perm[k - 1])
    return parent


def case(name, rng, L, roots, n, k, decimals, sets, weighted=False, virtual_weight=1.0,
         every_label=(), unused=(), constant_rows=(), chain=False):
    parent = random_chain(rng, L) if chain else random_parents(rng, L, roots)
    weight = [float(w) for w in rng.uniform(0, 2, L)] if weighted else None
    allowed = [l for l in range(L) if l not in unused]
    Y = []
    for r in range(n):
        size = 1 + rng.integers(4)
        picked = [int(v) for v in rng.choice(allowed, size=size, replace=False)]
        if sets == "closed" or (sets == "mixed" and r % 2 == 0):
            y = closed(parent, picked)
            y = {v for v in y if v not in unused} or set(picked)
        else:
            y = set(picked)
        if r in every_label:
            y = set(range(L))
        Y.append(sorted(y))
    P = scores(rng, Y, L, decimals)
    for r in constant_rows:
        P[r] = 1.0 / L
    return {
        "name": name,
        "parent": parent,
        "weight": weight,
        "virtual_weight": virtual_weight,
        "k": k,
        "P": [[float(v) for v in row] for row in P],
        "Y": Y,
        "want": expected(parent, weight, virtual_weight, k, P, Y),
    }


def main():
    rng = np.random.default_rng(20211)
    cases = [
        # One root: it is in every closed set, so its label has no negatives.
        case("tree, unit weights, distinct scores, closed sets", rng, 12, 1, 30, 3, None, "closed"),
        case("forest, rounded scores, arbitrary sets, a document with every label", rng, 25, 4, 40, 5, 1,
             "arbitrary", every_label=(0, 7)),
        case("forest, weighted edges, virtual weight 0.5, unused labels", rng, 40, 3, 60, 5, 2, "mixed",
             weighted=True, virtual_weight=0.5, unused=(3, 17)),
        case("forest of 60, rounded scores, constant rows", rng, 60, 6, 200, 5, 3, "mixed",
             unused=(0,), constant_rows=(4, 5, 90)),
        case("chain, k = 1, constant rows", rng, 10, 1, 25, 1, 2, "arbitrary", constant_rows=(0, 1, 2), chain=True),
    ]
    with open("multilabel.json", "w") as f:
        f.write(dumps({"generator": "gen_multilabel.py", "cases": cases}))
        f.write("\n")


def dumps(v, indent=""):
    """JSON with one key, list row or case per line; floats in shortest
    round-trip form (Python's repr), so Go reads back the same bits."""
    inner = indent + " "
    if isinstance(v, dict) and any(isinstance(x, (dict, list)) for x in v.values()):
        items = [inner + json.dumps(k) + ": " + dumps(x, inner) for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(v, list) and v and isinstance(v[0], (dict, list)):
        return "[\n" + ",\n".join(inner + dumps(x, inner) for x in v) + "\n" + indent + "]"
    return json.dumps(v, allow_nan=False)


if __name__ == "__main__":
    main()
