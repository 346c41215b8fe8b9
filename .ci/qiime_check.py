"""QIIME 2 on twl: q2-diversity-lib's actions, which run ssu and faithpd as
subprocesses found on PATH, run once with links to twl first on PATH and once
with the real tools; their artifacts must agree to 1e-5 relative (ssu's
default precision is float32).

    /usr/bin/python3 .ci/qiime_check.py TWL_BIN_DIR TABLE.biom TREE.nwk WORK

Run by .ci/qiime.sh, which leaves in WORK what twl wrote itself: dm.qza and
dm.tsv (twl unifrac), pd.qza and pd.tsv (twl faithpd), ssu.tsv (twl ssu -m
weighted_normalized). The actions are called through QIIME 2's Python API,
in one process (each qiime command line starts QIIME 2 anew, several seconds
each; q2cli runs the same actions), and the command line once: qiime
diversity-lib beta-phylogenetic-passthrough with twl first on PATH, whose
artifact must hold ssu.tsv byte for byte. Then twl's own artifacts go
through what qiime tools peek, validate and export call. Last, twl permanova
reads the command line's artifact and the real ssu's HDF5 matrix with QIIME
2-style metadata, and its pseudo-F must be scikit-bio's to 1e-12.
"""
import contextlib
import filecmp
import io
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import qiime2
import skbio
from qiime2.plugins import diversity_lib

twl_bin, table_path, tree_path, work = sys.argv[1:5]
real_path = os.environ["PATH"]
twl_path = twl_bin + os.pathsep + real_path

for tool in ("ssu", "faithpd"):
    found = shutil.which(tool, path=twl_path)
    if not found or os.path.dirname(found) != twl_bin:
        sys.exit("%s on the twl path is %s, not twl's link" % (tool, found))

table = qiime2.Artifact.import_data("FeatureTable[Frequency]", table_path, "BIOMV210Format")
tree = qiime2.Artifact.import_data("Phylogeny[Rooted]", tree_path, "NewickFormat")

BETA = [
    ("unweighted", dict(metric="unweighted_unifrac")),
    ("weighted_normalized", dict(metric="weighted_normalized_unifrac")),
    ("weighted_unnormalized", dict(metric="weighted_unifrac")),
    ("generalized", dict(metric="generalized_unifrac", alpha=0.5)),
    ("unweighted vaw", dict(metric="unweighted_unifrac", variance_adjusted=True)),
    ("weighted_normalized vaw", dict(metric="weighted_normalized_unifrac", variance_adjusted=True)),
    ("generalized vaw", dict(metric="generalized_unifrac", alpha=0.5, variance_adjusted=True)),
    ("unweighted -f", dict(metric="unweighted_unifrac", bypass_tips=True)),
    ("weighted_unnormalized -f", dict(metric="weighted_unifrac", bypass_tips=True)),
    ("weighted_normalized vaw -f", dict(metric="weighted_normalized_unifrac", variance_adjusted=True, bypass_tips=True)),
]


def run(path, action, **kw):
    """Runs the action with PATH set to path; its report of the command it
    runs (on standard output) is dropped."""
    os.environ["PATH"] = path
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return action(**kw)
    finally:
        os.environ["PATH"] = real_path


def close(name, got, want):
    got, want = np.asarray(got, float), np.asarray(want, float)
    err = np.abs(got - want) / np.maximum(np.abs(want), 1e-300)
    err[(got == 0) & (want == 0)] = 0
    worst = float(err.max()) if err.size else 0.0
    ok = worst <= 1e-5
    print("%-28s %s  worst relative difference %.2e" % (name, "ok  " if ok else "FAIL", worst))
    return ok


ok = True
for name, kw in BETA:
    action = diversity_lib.methods.beta_phylogenetic_passthrough
    got = run(twl_path, action, table=table, phylogeny=tree, **kw).distance_matrix.view(skbio.DistanceMatrix)
    want = run(real_path, action, table=table, phylogeny=tree, **kw).distance_matrix.view(skbio.DistanceMatrix)
    if got.ids != want.ids:
        print("%-28s FAIL  ids differ" % name)
        ok = False
        continue
    ok &= close(name, got.data, want.data)

action = diversity_lib.methods.faith_pd
got = run(twl_path, action, table=table, phylogeny=tree).vector.view(pd.Series)
want = run(real_path, action, table=table, phylogeny=tree).vector.view(pd.Series)
if list(got.index) != list(want.index) or got.name != want.name:
    print("faith_pd                     FAIL  ids or name differ")
    ok = False
else:
    ok &= close("faith_pd", got.values, want.values)


def check(name, cond):
    global ok
    print("%-28s %s" % (name, "ok" if cond else "FAIL"))
    ok &= bool(cond)


# The command line, once.
table.save(os.path.join(work, "table.qza"))
tree.save(os.path.join(work, "tree.qza"))
cli = subprocess.run(
    ["qiime", "diversity-lib", "beta-phylogenetic-passthrough",
     "--i-table", os.path.join(work, "table.qza"), "--i-phylogeny", os.path.join(work, "tree.qza"),
     "--p-metric", "weighted_normalized_unifrac", "--o-distance-matrix", os.path.join(work, "cli.qza")],
    env=dict(os.environ, PATH=twl_path), stdout=subprocess.DEVNULL)
check("qiime command line", cli.returncode == 0)
if cli.returncode == 0:
    qiime2.Artifact.load(os.path.join(work, "cli.qza")).export_data(os.path.join(work, "cli"))
    check("  holds twl ssu's matrix", filecmp.cmp(os.path.join(work, "cli", "distance-matrix.tsv"),
                                               os.path.join(work, "ssu.tsv"), shallow=False))

# twl's own artifacts: qiime tools peek, validate --level max, export.
for qza, typ, payload, tsv in (("dm.qza", "DistanceMatrix", "distance-matrix.tsv", "dm.tsv"),
                               ("pd.qza", "SampleData[AlphaDiversity]", "alpha-diversity.tsv", "pd.tsv")):
    path = os.path.join(work, qza)
    meta = qiime2.sdk.Result.peek(path)
    check("%s peek: %s" % (qza, meta.type), str(meta.type) == typ)
    art = qiime2.Artifact.load(path)
    try:
        art.validate(level="max")
        valid = True
    except Exception as e:
        print(e)
        valid = False
    check("%s validate" % qza, valid)
    out = os.path.join(work, qza + ".export")
    art.export_data(out)
    check("%s export" % qza, filecmp.cmp(os.path.join(out, payload), os.path.join(work, tsv), shallow=False))

# twl permanova reads what QIIME 2 and ssu write: the DistanceMatrix
# artifact of the command line above, and the real ssu's HDF5 matrix
# (-r hdf5_fp64), with metadata in QIIME 2's layout. Its pseudo-F must be
# scikit-bio's permanova (which QIIME 2's beta-group-significance runs) on
# the same matrix, to 1e-12 relative.
def permanova_f(dm, meta):
    r = subprocess.run([os.path.join(twl_bin, "twl"), "permanova", "--dm", dm, "--metadata", meta,
                        "--column", "group", "--permutations", "0", "--format", "json"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stderr.strip())
        return float("nan")
    return json.loads(r.stdout)["test_statistic"]


if cli.returncode == 0:
    cli_dm = qiime2.Artifact.load(os.path.join(work, "cli.qza")).view(skbio.DistanceMatrix)
    meta = os.path.join(work, "metadata.tsv")
    with open(meta, "w") as f:
        f.write("sample-id\tgroup\n#q2:types\tcategorical\n")
        for i, sid in enumerate(cli_dm.ids):
            f.write("%s\t%s\n" % (sid, "abc"[i % 3]))
    groups = ["abc"[i % 3] for i in range(len(cli_dm.ids))]
    want = skbio.stats.distance.permanova(cli_dm, groups, permutations=0)["test statistic"]
    got = permanova_f(os.path.join(work, "cli.qza"), meta)
    check("permanova --dm cli.qza", abs(got - want) <= 1e-12 * abs(want))
    h5 = os.path.join(work, "ssu.h5")
    os.environ["PATH"] = real_path
    subprocess.run(["ssu", "-i", table_path, "-t", tree_path, "-m", "unweighted_fp64", "-r", "hdf5_fp64",
                    "--pcoa", "0", "-o", h5], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["ssu", "-i", table_path, "-t", tree_path, "-m", "unweighted_fp64", "-o", h5 + ".tsv"],
                   check=True, stdout=subprocess.DEVNULL)
    real = skbio.DistanceMatrix.read(h5 + ".tsv")
    group_of = dict(zip(cli_dm.ids, groups))
    want = skbio.stats.distance.permanova(real, [group_of[i] for i in real.ids], permutations=0)["test statistic"]
    got = permanova_f(h5, meta)
    check("permanova --dm ssu's HDF5", abs(got - want) <= 1e-12 * abs(want))

sys.exit(0 if ok else 1)
