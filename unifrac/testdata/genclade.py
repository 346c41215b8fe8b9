#!/usr/bin/python3
"""Clade-biased random UniFrac inputs for the cross-checks against ssu.

    /usr/bin/python3 genclade.py TIPS SAMPLES PER_SAMPLE SEED OUTPREFIX

writes OUTPREFIX.nwk (a Yule tree: starting from two tips, a uniformly
chosen tip splits in two until there are TIPS; branch lengths exponential
with mean 1) and OUTPREFIX.biom (HDF5 BIOM 2.1): each sample draws one clade
(a node chosen uniformly among those with between PER_SAMPLE and
4·PER_SAMPLE tips below it) and holds PER_SAMPLE distinct tips of it, counts
1 + geometric. Communities of related taxa, as real samples are. Needs
python3-biom-format, python3-h5py and python3-numpy (Debian packages); not
a dependency of twl.
"""
import random
import sys

import h5py
import numpy as np
import scipy.sparse as sp
from biom.table import Table

from newickout import newick

tips, samples, per, seed, prefix = (int(sys.argv[1]), int(sys.argv[2]),
                                    int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
rng = random.Random(seed)

# Yule process: children[v] of node v (None for a tip); node 0 is the root.
children = [None]
length = [0.0]
leaves = [0]
while len(leaves) < tips:
    i = rng.randrange(len(leaves))
    v = leaves[i]
    a, b = len(children), len(children) + 1
    children[v] = (a, b)
    children += [None, None]
    length += [rng.expovariate(1.0), rng.expovariate(1.0)]
    leaves[i] = a
    leaves.append(b)

# Tips below each node, in postorder (children have larger indices).
below = [[] for _ in children]
names = {}
for k, v in enumerate(sorted(leaves)):
    names[v] = "t%d" % k
for v in range(len(children) - 1, -1, -1):
    if children[v] is None:
        below[v] = [v]
    else:
        a, b = children[v]
        below[v] = below[a] + below[b]
        below[a] = below[a] if len(below[a]) <= 4 * per else []  # keep memory small
        below[b] = below[b] if len(below[b]) <= 4 * per else []
clades = [v for v in range(len(children))
          if children[v] is not None and per <= len(below[v]) <= 4 * per]

with open(prefix + ".nwk", "w") as f:
    f.write(newick(children, length, 0, lambda v: names[v], lambda v: "") + ";\n")

order = {v: k for k, v in enumerate(sorted(leaves))}
rows, cols, vals = [], [], []
sids = ["S%d" % s for s in range(samples)]
for s in range(samples):
    c = rng.choice(clades)
    for t in sorted(rng.sample(below[c], per)):
        n = 1
        while rng.random() < 0.7:
            n += 1
        rows.append(order[t])
        cols.append(s)
        vals.append(n)
m = sp.csr_matrix((np.array(vals, dtype=float), (rows, cols)), shape=(tips, samples))
table = Table(m, ["t%d" % i for i in range(tips)], sids)
with h5py.File(prefix + ".biom", "w") as f:
    table.to_hdf5(f, "genclade.py")
