#!/bin/sh
# Side-by-side whole-process timings of Striped UniFrac (ssu, Debian package
# unifrac-tools) and 'twl unifrac' on the same inputs and cores:
#
#	sh sidebyside.sh DIR clade|uniform TIPS SAMPLES PER_SAMPLE SEED RUNS
#
# makes DIR/case.{nwk,biom} with genclade.py (clade-biased communities on a
# Yule tree) or gen.py (uniformly random tips), builds twl, then times RUNS
# interleaved runs of ssu in its two OpenMP wait policies (the default, and
# passive, which is much faster when the cores are shared) and of twl, with
# /usr/bin/time (wall seconds, user seconds, peak RSS), for the weighted
# normalized and unweighted methods, and reports the largest relative
# difference between ssu's and twl's matrices. Needs python3-biom-format,
# python3-h5py and python3-numpy; none is a dependency of twl.
set -e
dir=$1 kind=$2 tips=$3 n=$4 k=$5 seed=$6 runs=${7:-3}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
gen=gen.py
[ "$kind" = clade ] && gen=genclade.py
[ -f "$dir/case.biom" ] || /usr/bin/python3 "$here/$gen" "$tips" "$n" "$k" "$seed" "$dir/case"
(cd "$here/../.." && go build -o "$dir/twl" ./cmd/twl)
cd "$dir"
uptime
for m in weighted_normalized unweighted; do
	for r in $(seq "$runs"); do
		/usr/bin/time -f "ssu $m run $r: %e s wall, %U s user, %M KB" \
			ssu -i case.biom -t case.nwk -m "${m}_fp64" -o "ssu.$m.tsv" 2>&1 | tail -1
		OMP_WAIT_POLICY=passive /usr/bin/time -f "ssu passive $m run $r: %e s wall, %U s user, %M KB" \
			ssu -i case.biom -t case.nwk -m "${m}_fp64" -o "ssu.$m.tsv" 2>&1 | tail -1
		/usr/bin/time -f "twl $m run $r: %e s wall, %U s user, %M KB" \
			./twl unifrac --tree case.nwk --table case.biom --method "$m" --out "twl.$m.tsv" 2>&1 | tail -1
	done
	/usr/bin/python3 - "twl.$m.tsv" "ssu.$m.tsv" <<'PY'
import sys
import numpy as np
def load(p):
    with open(p) as f:
        ids = f.readline().rstrip("\n").split("\t")[1:]
        return ids, np.loadtxt(f, usecols=range(1, len(ids) + 1), ndmin=2)
(ia, a), (ib, b) = load(sys.argv[1]), load(sys.argv[2])
assert ia == ib
print("%s vs ssu: largest relative difference %.3g" % (sys.argv[1], (abs(a - b) / np.maximum(abs(b), 1e-300)).max()))
PY
done
uptime
