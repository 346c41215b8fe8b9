#!/usr/bin/python3
"""skbio_permanova.py DM.tsv META.tsv COLUMN PERMUTATIONS: scikit-bio's
permanova as a user runs it (the matrix and the metadata read from files),
the printed Series on standard output. The reference of the comparisons in
docs/benchmarks.md and of the fixtures of package permanova."""
import sys

import numpy as np
import pandas as pd
from skbio import DistanceMatrix
from skbio.stats.distance import permanova

dm = DistanceMatrix.read(sys.argv[1])
md = pd.read_csv(sys.argv[2], sep="\t", index_col=0, dtype=str, comment=None)
np.random.seed(0)
print(permanova(dm, md, column=sys.argv[3], permutations=int(sys.argv[4])))
