#!/usr/bin/env python3
"""The PyTorch counterpart of

    twl train --data DIR/train.jsonl --tree DIR/tree.txt --loss kl+tw \\
        --epochs 30 --batch 10 --out MODEL

for timing them side by side (a reference program, run by hand; no test or
command runs it, and twl does not depend on it):

    /usr/bin/time -f '%e s %M KB' /usr/bin/python3 \\
        experiment/efficiency/train_torch.py DIR [--out MODEL.json]

DIR is written by 'twl synth --nodes 1000 --samples 1000 --features 100
--out DIR'. The same work as twl, step by step, as a PyTorch user would
write it:

  - read the tree (parent<TAB>child<TAB>weight lines) and the JSON Lines
    training file with Python's json module, "y" as an object of label
    masses (or a dense array), into float64 tensors;
  - standardize the features with the training rows' mean and population
    standard deviation;
  - the model softmax(W x + b), 100 -> 1000, float64, W and b drawn
    uniformly from [-1/sqrt(d), 1/sqrt(d)];
  - the loss KL(y || p) + lambda * TW(p, y), averaged over each mini-batch of
    10 rows shuffled per epoch; TW in the Euler-tour form, the strongest
    PyTorch form measured (REFERENCE.md): nodes in depth-first preorder, so
    that every subtree is a contiguous range, and the subtree masses are
    differences of one cumulative sum, c[end[v]] - c[start[v]]: one gather,
    one cumsum, two gathers, autograd for the gradient;
  - Adam, lr 1e-3, with twl's default L2 weight decay 0.03 added to the
    gradient of W but not of b, 30 epochs;
  - write W and b as JSON.

torch.set_num_threads(2) (--threads). It prints the time of each phase
(import torch, reading, training loop, writing) and the final training
loss; the whole process's time is what /usr/bin/time reports.
"""
import time

t_start = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402

import torch  # noqa: E402

t_import = time.perf_counter()

ap = argparse.ArgumentParser()
ap.add_argument("dir")
ap.add_argument("--epochs", type=int, default=30)
ap.add_argument("--batch", type=int, default=10)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--weight-decay", type=float, default=0.03)
ap.add_argument("--lam", type=float, default=1.0)
ap.add_argument("--threads", type=int, default=2)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--out", default="")
ap.add_argument("--flush-denormal", action="store_true")
a = ap.parse_args()
torch.set_num_threads(a.threads)
torch.set_flush_denormal(a.flush_denormal)
torch.manual_seed(a.seed)


def read_tree(path):
    """Labels in order of first appearance, and the Euler-tour arrays:
    perm[k] the label at preorder position k, end[k] one past the last
    position of its subtree, w[k] the weight of the edge above it."""
    names, index, parent, weight, children = [], {}, {}, {}, {}
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            p, c = fields[0], fields[1]
            for n in (p, c):
                if n not in index:
                    index[n] = len(names)
                    names.append(n)
            parent[c] = p
            weight[c] = float(fields[2]) if len(fields) > 2 else 1.0
            children.setdefault(p, []).append(c)
    root = next(n for n in names if n not in parent)
    order, stack = [], [root]
    while stack:
        v = stack.pop()
        order.append(v)
        stack.extend(reversed(children.get(v, [])))
    pos = {v: k for k, v in enumerate(order)}
    size = [1] * len(order)
    for k in range(len(order) - 1, 0, -1):
        size[pos[parent[order[k]]]] += size[k]
    perm = torch.tensor([index[v] for v in order])
    start = torch.arange(1, len(order))  # every node but the root
    end = torch.tensor([k + size[k] for k in range(1, len(order))])
    w = torch.tensor([weight[order[k]] for k in range(1, len(order))], dtype=torch.float64)
    return names, index, perm, start, end, w


def read_data(path, index):
    L = len(index)
    xs, ys = [], []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            obj = json.loads(line)
            xs.append(obj["x"])
            y = obj["y"]
            if isinstance(y, dict):
                row = [0.0] * L
                for name, mass in y.items():
                    row[index[name]] = mass
                y = row
            ys.append(y)
    X = torch.tensor(xs, dtype=torch.float64)
    Y = torch.tensor(ys, dtype=torch.float64)
    Y = Y / Y.sum(1, keepdim=True)
    return X, Y


names, index, perm, start, end, w = read_tree(a.dir + "/tree.txt")
X, Y = read_data(a.dir + "/train.jsonl", index)
mean = X.mean(0)
scale = X.std(0, unbiased=False)
scale[scale == 0] = 1
X = (X - mean) / scale
t_read = time.perf_counter()

n, d = X.shape
L = Y.shape[1]
bound = 1 / d**0.5
W = ((torch.rand(L, d, dtype=torch.float64) * 2 - 1) * bound).requires_grad_()
b = ((torch.rand(L, dtype=torch.float64) * 2 - 1) * bound).requires_grad_()
opt = torch.optim.Adam(
    [{"params": [W], "weight_decay": a.weight_decay}, {"params": [b], "weight_decay": 0.0}],
    lr=a.lr,
)
ylogy = torch.xlogy(Y, Y).sum(1)  # the constant part of KL(y || p)


def tw(p, y):
    """TW(p, y) per row: the weighted sum over non-root nodes of the absolute
    difference of subtree masses, in the Euler-tour form."""
    diff = (p - y)[:, perm]
    c = torch.nn.functional.pad(torch.cumsum(diff, 1), (1, 0))
    return ((c[:, end] - c[:, start]).abs() * w).sum(1)


for epoch in range(a.epochs):
    order = torch.randperm(n)
    total = 0.0
    for s in range(0, n, a.batch):
        rows = order[s : s + a.batch]
        x, y = X[rows], Y[rows]
        logp = torch.log_softmax(x @ W.T + b, 1)
        kl = ylogy[rows] - (y * logp).sum(1)
        loss = (kl + a.lam * tw(logp.exp(), y)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(rows)
t_train = time.perf_counter()

if a.out:
    with open(a.out, "w") as f:
        json.dump({"labels": names, "W": W.detach().tolist(), "b": b.detach().tolist()}, f)
t_write = time.perf_counter()

print(
    f"import torch {t_import - t_start:.2f} s, read {t_read - t_import:.2f} s, "
    f"train {t_train - t_read:.2f} s ({(t_train - t_read) / a.epochs:.3f} s/epoch), "
    f"write {t_write - t_train:.2f} s; total {t_write - t_start:.2f} s; "
    f"final training loss {total / n:.5f}"
)
