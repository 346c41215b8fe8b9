#!/usr/bin/python3
"""Write numpy_pcoa.json: a classical PCoA of the 6×6 matrix below with
numpy's symmetric eigensolver (numpy.linalg.eigh), for the tests of package
ordination. Run with /usr/bin/python3 numpy_pcoa.py in this directory
(Debian python3-numpy 1.24.2 wrote the committed file).

The matrix is not Euclidean (entry (1, 6) breaks the triangle inequality),
so the centred matrix has negative eigenvalues. Coordinates use the sign
convention of package ordination: in each axis the component of largest
magnitude is positive.
"""
import json

import numpy as np

ids = ["A", "B", "C", "D", "E", "F"]
d = np.array([
    [0.0, 0.3, 0.5, 0.7, 0.6, 2.9],
    [0.3, 0.0, 0.4, 0.6, 0.8, 0.9],
    [0.5, 0.4, 0.0, 0.35, 0.45, 0.7],
    [0.7, 0.6, 0.35, 0.0, 0.2, 0.5],
    [0.6, 0.8, 0.45, 0.2, 0.0, 0.55],
    [2.9, 0.9, 0.7, 0.5, 0.55, 0.0],
])
n = len(d)
j = np.eye(n) - np.ones((n, n)) / n
b = -0.5 * j @ (d * d) @ j
vals, vecs = np.linalg.eigh(b)
order = np.argsort(vals)[::-1]
vals, vecs = vals[order], vecs[:, order]
pos = vals[vals > 0].sum()
coords = np.zeros((n, n))
for c in range(n):
    v = vecs[:, c]
    if v[np.argmax(np.abs(v))] < 0:
        v = -v
    coords[:, c] = v * np.sqrt(max(vals[c], 0))
json.dump({
    "ids": ids,
    "distances": d.tolist(),
    "eigenvalues": vals.tolist(),
    "proportion": [v / pos if v > 0 else 0 for v in vals],
    "coordinates": coords.tolist(),
}, open("numpy_pcoa.json", "w"), indent=1)
