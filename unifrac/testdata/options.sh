#!/bin/sh
# Side-by-side whole-process timings of ssu's options and methods beyond
# scaling.sh's two, and of Faith's PD, on the cases of scaling.sh:
#
#	sh options.sh DIR RUNS "VARIANT..." [CASE...]
#
# VARIANT is one of
#
#	wn+vaw  u+vaw   ssu -m weighted_normalized_fp64|unweighted_fp64 --vaw,
#	                twl unifrac --variance-adjusted
#	wn+f    u+f     ssu … -f, twl unifrac --bypass-tips
#	uu              twl unifrac --method unweighted_unnormalized against
#	                ssu -m unweighted_fp64 (ssu 1.2 has no
#	                unweighted_unnormalized; later ssu computes it with the
#	                unweighted kernel, less the division)
#	wn+abs          twl unifrac --absolute against ssu -m
#	                weighted_normalized_fp64 (ssu 1.2 has no
#	                --normalize-sample-counts; later ssu computes the same
#	                sums on the counts)
#	faith           faithpd against 'twl faithpd' ($TWL_FAITHPD, a twl
#	                binary with that command)
#
# CASE is TIPS:SAMPLES:PER_SAMPLE:SEED as in scaling.sh (default
# 10000:1000:300:3). For each case, variant and run, ssu (or faithpd) then
# twl, each timed whole-process by /usr/bin/time with
# OMP_WAIT_POLICY=passive, each writing a file that does not exist yet;
# one line per run, CASE VARIANT ssu|twl WALL_S USER_S SYS_S PEAK_KB
# (summarize.py makes the tables), then the largest relative difference
# of the two outputs. Needs
# what scaling.sh needs.
set -e
dir=$1 runs=${2:-3} variants=$3
shift 3 || true
here=$(cd "$(dirname "$0")" && pwd)
cases=${*:-"10000:1000:300:3"}
mkdir -p "$dir"
(cd "$here/../.." && go build -o "$dir/twl" ./cmd/twl)
cd "$dir"
echo "# $(uname -m) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); ssu from unifrac-tools $(dpkg-query -W -f '${Version}' unifrac-tools 2>/dev/null); $(date -u +%F)"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in $cases; do
	name=$(echo "$c" | tr : _)
	set -- $(echo "$c" | tr : ' ')
	[ -f "$name.biom" ] || /usr/bin/python3 "$here/genclade.py" "$1" "$2" "$3" "$4" "$name" >/dev/null
	for v in $variants; do
		case $v in
		wn+vaw) s="-m weighted_normalized_fp64 --vaw" t="--method weighted_normalized --variance-adjusted" ;;
		u+vaw) s="-m unweighted_fp64 --vaw" t="--method unweighted --variance-adjusted" ;;
		wn+f) s="-m weighted_normalized_fp64 -f" t="--method weighted_normalized --bypass-tips" ;;
		u+f) s="-m unweighted_fp64 -f" t="--method unweighted --bypass-tips" ;;
		uu) s="-m unweighted_fp64" t="--method unweighted_unnormalized" ;;
		wn+abs) s="-m weighted_normalized_fp64" t="--method weighted_normalized --absolute" ;;
		faith) ;;
		*) echo "unknown variant $v" >&2; exit 2 ;;
		esac
		for r in $(seq "$runs"); do
			rm -f ssu.tsv twl.tsv
			if [ "$v" = faith ]; then
				OMP_WAIT_POLICY=passive /usr/bin/time -f "$c $v ssu %e %U %S %M" \
					faithpd -i "$name.biom" -t "$name.nwk" -o ssu.tsv 2>&1 >/dev/null | tail -1
				/usr/bin/time -f "$c $v twl %e %U %S %M" \
					"$TWL_FAITHPD" faithpd -i "$name.biom" -t "$name.nwk" -o twl.tsv 2>&1 | tail -1
			else
				OMP_WAIT_POLICY=passive /usr/bin/time -f "$c $v ssu %e %U %S %M" \
					ssu -i "$name.biom" -t "$name.nwk" $s -o ssu.tsv 2>&1 >/dev/null | tail -1
				/usr/bin/time -f "$c $v twl %e %U %S %M" \
					./twl unifrac --tree "$name.nwk" --table "$name.biom" $t --out twl.tsv 2>&1 | tail -1
			fi
		done
		/usr/bin/python3 - "$c" "$v" <<'PY'
import sys
import numpy as np
def load(p):
    with open(p) as f:
        ids = f.readline().rstrip("\n").split("\t")[1:]
        if ids == ["faith_pd"]:
            rows = [l.rstrip("\n").split("\t") for l in f]
            return [r[0] for r in rows], np.array([float(r[1]) for r in rows])
        return ids, np.loadtxt(f, usecols=range(1, len(ids) + 1), ndmin=2)
(ia, a), (ib, b) = load("twl.tsv"), load("ssu.tsv")
assert ia == ib, "sample ids differ"
if sys.argv[2] in ("uu", "wn+abs"):
    print("# %s %s: not compared (ssu computed another quantity)" % (sys.argv[1], sys.argv[2]))
    sys.exit(0)
nz = b != 0
print("# %s %s largest relative difference from ssu %.2g (where ssu's value is not 0)" % (
    sys.argv[1], sys.argv[2], (abs(a - b)[nz] / abs(b)[nz]).max()))
PY
	done
	rm -f ssu.tsv twl.tsv
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
