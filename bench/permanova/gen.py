#!/usr/bin/python3
"""gen.py N GROUPS EFFECT OUT: a distance matrix and its metadata for
PERMANOVA benchmarks and cross-checks.

N points in 20 dimensions, standard normal, sample i in group i % GROUPS;
group g's points are shifted by EFFECT along axis g (EFFECT 0: no group
difference, the null). Writes OUT.tsv, the Euclidean distances in the TSV
layout of ssu and scikit-bio (each value as printf %.16g), and OUT.meta.tsv,
QIIME 2 metadata with one column "group" (values g0, g1, ...). Seeded, so
the same arguments give the same files.
"""
import sys

import numpy as np

n, groups, effect, out = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
rng = np.random.default_rng(20011)
x = rng.standard_normal((n, 20))
g = np.arange(n) % groups
x[np.arange(n), g % 20] += effect
sq = (x * x).sum(axis=1)
d2 = np.maximum(sq[:, None] + sq[None, :] - 2 * x @ x.T, 0)
d = np.sqrt(d2)
d = (d + d.T) / 2  # symmetric bit for bit
np.fill_diagonal(d, 0)
ids = ["S%d" % i for i in range(n)]
with open(out + ".tsv", "w") as f:
    f.write("\t" + "\t".join(ids) + "\n")
    for i in range(n):
        f.write(ids[i] + "\t" + "\t".join("%.16g" % v for v in d[i]) + "\n")
with open(out + ".meta.tsv", "w") as f:
    f.write("sample-id\tgroup\n")
    for i in range(n):
        f.write("%s\tg%d\n" % (ids[i], g[i]))
