#!/bin/sh
# Side-by-side whole-process timings of Striped UniFrac (ssu, Debian package
# unifrac-tools) and 'twl unifrac' over the cases of docs/benchmarks.md:
#
#	sh scaling.sh DIR RUNS [CASE...]
#
# A case is TIPS:SAMPLES:PER_SAMPLE:SEED; without any, the documented set
# (1,000 to 5,000 samples on 10^4 to 10^5 tips, 100 to 1,600 tips a sample).
# Each case is made once in DIR by genclade.py (clade-biased communities on
# a Yule tree). For each case and run, ssu (OMP_WAIT_POLICY=passive, its
# fastest setting on shared cores) and twl run one after the other, for the
# weighted normalized and the unweighted method, each timed whole-process by
# /usr/bin/time, each writing a file that does not exist yet (the previous
# run's output is removed first, outside the timing, as interleave.py
# --remove does); one line per run:
#
#	CASE METHOD ssu|twl WALL_S USER_S PEAK_KB
#
# then, once per case and method, the largest relative difference between
# the two matrices. summarize.py turns the lines into the tables of the
# docs. Needs python3-biom-format, python3-h5py, python3-numpy and ssu; none
# is a dependency of twl.
set -e
dir=$1 runs=${2:-3}
shift 2 || true
here=$(cd "$(dirname "$0")" && pwd)
cases=${*:-"10000:1000:300:3 20000:1000:300:1 50000:1000:400:1 50000:2000:400:1 50000:3000:400:1 50000:5000:400:1 100000:5000:400:2 50000:3000:100:1 50000:3000:1600:1"}
mkdir -p "$dir"
(cd "$here/../.." && go build -o "$dir/twl" ./cmd/twl)
cd "$dir"
echo "# $(uname -m) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); ssu from unifrac-tools $(dpkg-query -W -f '${Version}' unifrac-tools 2>/dev/null); $(date -u +%F)"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in $cases; do
	name=$(echo "$c" | tr : _)
	set -- $(echo "$c" | tr : ' ')
	[ -f "$name.biom" ] || /usr/bin/python3 "$here/genclade.py" "$1" "$2" "$3" "$4" "$name" >/dev/null
	for m in weighted_normalized unweighted; do
		for r in $(seq "$runs"); do
			rm -f ssu.tsv
			OMP_WAIT_POLICY=passive /usr/bin/time -f "$c $m ssu %e %U %M" \
				ssu -i "$name.biom" -t "$name.nwk" -m "${m}_fp64" -o ssu.tsv 2>&1 >/dev/null | tail -1
			rm -f twl.tsv
			/usr/bin/time -f "$c $m twl %e %U %M" \
				./twl unifrac --tree "$name.nwk" --table "$name.biom" --method "$m" --out twl.tsv 2>&1 | tail -1
		done
		/usr/bin/python3 - "$c" "$m" <<'PY'
import sys
import numpy as np
def load(p):
    with open(p) as f:
        ids = f.readline().rstrip("\n").split("\t")[1:]
        return ids, np.loadtxt(f, usecols=range(1, len(ids) + 1), ndmin=2)
(ia, a), (ib, b) = load("twl.tsv"), load("ssu.tsv")
assert ia == ib, "sample ids differ"
nz = b != 0
print("# %s %s largest relative difference from ssu %.2g; where ssu writes 0 off the diagonal (%d entries) twl's largest value %.2g" % (
    sys.argv[1], sys.argv[2], (abs(a - b)[nz] / abs(b)[nz]).max(), (~nz).sum() - len(ia), abs(a[~nz]).max()))
PY
	done
	rm -f ssu.tsv twl.tsv
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
