#!/usr/bin/python3
"""skbio_fixtures.py > skbio.json: the pseudo-F and p-value of scikit-bio 0.5.8's
permanova (Debian python3-skbio, run with /usr/bin/python3) on the cases of
its own test suite (skbio/stats/distance/tests/test_permanova.py at tag
0.5.8) and on seeded random matrices, recorded as fixtures for
permanova_test.go. Each case is the call

    np.random.seed(0)
    permanova(DistanceMatrix(matrix, ids), grouping, permutations=999)

and its record holds the matrix, the grouping, and the Series' values.
"""
import json

import numpy as np
import skbio
from skbio import DistanceMatrix
from skbio.stats.distance import permanova


def case(name, matrix, grouping, note):
    matrix = np.asarray(matrix, dtype=float)
    ids = ["s%d" % (i + 1) for i in range(len(matrix))]
    np.random.seed(0)
    r = permanova(DistanceMatrix(matrix, ids), grouping, permutations=999)
    return {
        "name": name,
        "note": note,
        "matrix": matrix.tolist(),
        "grouping": [str(g) for g in grouping],
        "sample_size": int(r["sample size"]),
        "groups": int(r["number of groups"]),
        "f": float(r["test statistic"]),
        "p": float(r["p-value"]),
    }


def random_matrix(rng, n, dims, shift, grouping, integer=False):
    x = rng.standard_normal((n, dims))
    labels = sorted(set(grouping))
    for i, g in enumerate(grouping):
        x[i, labels.index(g) % dims] += shift
    d = np.sqrt(((x[:, None, :] - x[None, :, :]) ** 2).sum(axis=2))
    if integer:
        d = np.round(d * 2)
    d = (d + d.T) / 2
    np.fill_diagonal(d, 0)
    return d


cases = [
    case("ties", [[0, 1, 1, 4], [1, 0, 3, 2], [1, 3, 0, 3], [4, 2, 3, 0]],
         ["Control", "Control", "Fast", "Fast"],
         "test_call_ties: the suite expects F 2.0, p 0.671"),
    case("no_ties", [[0, 1, 5, 4], [1, 0, 3, 2], [5, 3, 0, 3], [4, 2, 3, 0]],
         ["Control", "Control", "Fast", "Fast"],
         "test_call_no_ties: the suite expects F 4.4, p 0.332"),
    case("unequal", [[0.0, 1.0, 0.1, 0.5678, 1.0, 1.0],
                     [1.0, 0.0, 0.002, 0.42, 0.998, 0.0],
                     [0.1, 0.002, 0.0, 1.0, 0.123, 1.0],
                     [0.5678, 0.42, 1.0, 0.0, 0.123, 0.43],
                     [1.0, 0.998, 0.123, 0.123, 0.0, 0.5],
                     [1.0, 0.0, 1.0, 0.43, 0.5, 0.0]],
         ["Control", "Treatment1", "Treatment2", "Treatment1", "Control", "Control"],
         "test_call_unequal_group_sizes: the suite expects F 0.578848, p 0.645"),
]
rng = np.random.default_rng(29)
g = ["a"] * 5 + ["b"] * 4 + ["c"] * 2 + ["d"]
cases.append(case("random12_singleton", random_matrix(rng, 12, 3, 0.8, g), g,
                  "12 samples, groups of 5, 4, 2 and 1"))
g = ["x" if i % 2 else "y" for i in range(25)]
cases.append(case("random25_two", random_matrix(rng, 25, 6, 0.5, g), g,
                  "25 samples, two interleaved groups of 13 and 12, a small effect"))
g = ["g%d" % (i % 5) for i in range(40)]
cases.append(case("random40_five", random_matrix(rng, 40, 4, 0.0, g), g,
                  "40 samples, five groups, no effect"))
g = ["p", "q"] + ["r"] * 7
cases.append(case("random9_two_singletons", random_matrix(rng, 9, 2, 1.0, g), g,
                  "9 samples, two groups of one and one of seven"))
g = ["u"] * 6 + ["v"] * 6 + ["w"] * 6
cases.append(case("random18_integer_ties", random_matrix(rng, 18, 3, 1.5, g, integer=True), g,
                  "18 samples, integer distances with many ties, a large effect"))
print(json.dumps({"skbio": skbio.__version__, "cases": cases}, indent=1))
