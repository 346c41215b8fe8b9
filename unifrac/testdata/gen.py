#!/usr/bin/python3
"""Random UniFrac inputs for the cross-checks against Striped UniFrac (ssu).

    /usr/bin/python3 gen.py TIPS SAMPLES PER_SAMPLE SEED OUTPREFIX

writes OUTPREFIX.nwk (a random binary tree: tips t0 … joined two at a time,
uniformly among the current roots, branch lengths uniform in (0, 1)),
OUTPREFIX.biom (HDF5 BIOM, for ssu) and OUTPREFIX.tsv (the same counts as
lines "sample<TAB>tip<TAB>count", for twl): each sample holds PER_SAMPLE
distinct random tips with counts 1 + geometric. Needs python3-biom-format
and python3-h5py (Debian packages); not a dependency of twl.
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

# Coalescent-like random joining; children[k] of internal node k.
names = ["t%d" % i for i in range(tips)]
length = [rng.uniform(0.01, 1) for _ in range(tips)]
children = [None] * tips
roots = list(range(tips))
while len(roots) > 1:
    i = rng.randrange(len(roots))
    a = roots[i]
    roots[i] = roots[-1]
    roots.pop()
    j = rng.randrange(len(roots))
    b = roots[j]
    k = len(names)
    names.append("n%d" % k)
    length.append(rng.uniform(0.01, 1))
    children.append((a, b))
    roots[j] = k
root = roots[0]

with open(prefix + ".nwk", "w") as f:
    f.write(newick(children, length, root, lambda v: names[v], lambda v: names[v]) + "root;\n")

rows, cols, vals = [], [], []
sids = ["S%d" % s for s in range(samples)]
with open(prefix + ".tsv", "w") as f:
    for s in range(samples):
        for t in sorted(rng.sample(range(tips), per)):
            c = 1
            while rng.random() < 0.7:
                c += 1
            rows.append(t)
            cols.append(s)
            vals.append(c)
            f.write("%s\tt%d\t%d\n" % (sids[s], t, c))
m = sp.csr_matrix((np.array(vals, dtype=float), (rows, cols)), shape=(tips, samples))
table = Table(m, ["t%d" % i for i in range(tips)], sids)
with h5py.File(prefix + ".biom", "w") as f:
    table.to_hdf5(f, "gen.py")
