#!/bin/sh
# Side-by-side whole-process timings of Striped UniFrac (ssu, Debian package
# unifrac-tools) and package unifrac on the same inputs and cores:
#
#	sh sidebyside.sh DIR TIPS SAMPLES PER_SAMPLE SEED RUNS
#
# makes DIR/case.{nwk,biom,tsv} with gen.py, then times RUNS runs of each
# method with /usr/bin/time (wall seconds, user seconds, peak RSS) and
# reports the largest difference between the two outputs. Needs
# python3-biom-format, python3-h5py and python3-numpy; none is a dependency
# of twl.
set -e
dir=$1 tips=$2 n=$3 k=$4 seed=$5 runs=${6:-3}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
/usr/bin/python3 "$here/gen.py" "$tips" "$n" "$k" "$seed" "$dir/case"
(cd "$here/../.." && go build -o "$dir/twlcmp" unifrac/testdata/compare.go)
for m in weighted_normalized unweighted; do
	for r in $(seq "$runs"); do
		OMP_NUM_THREADS=2 /usr/bin/time -f "ssu $m run $r: %e s wall, %U s user, %M KB" \
			ssu -i "$dir/case.biom" -t "$dir/case.nwk" -m "${m}_fp64" -o "$dir/ssu.$m.tsv"
		GOMAXPROCS=2 /usr/bin/time -f "twl $m run $r: %e s wall, %U s user, %M KB" \
			"$dir/twlcmp" -t "$dir/case.nwk" -i "$dir/case.tsv" -m "$m" -o "$dir/twl.$m.tsv"
	done
	/usr/bin/python3 - "$dir/twl.$m.tsv" "$dir/ssu.$m.tsv" <<'PY'
import sys
import numpy as np
def load(p):
    with open(p) as f:
        ids = f.readline().rstrip("\n").split("\t")[1:]
        return ids, np.loadtxt(f, usecols=range(1, len(ids) + 1))
(ia, a), (ib, b) = load(sys.argv[1]), load(sys.argv[2])
assert ia == ib
print("%s vs ssu: largest relative difference %.3g" % (sys.argv[1], (abs(a - b) / np.maximum(abs(b), 1e-300)).max()))
PY
done
