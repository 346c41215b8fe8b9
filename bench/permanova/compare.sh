#!/usr/bin/env bash
# compare.sh TWL OUTDIR ROUNDS [N]: twl permanova against scikit-bio 0.5.8's
# permanova (Debian python3-skbio, /usr/bin/python3) on the same N-sample
# distance matrix (default 3000; gen.py: Euclidean distances of random
# points in 4 groups, written as ssu writes them, 161 MB at N = 3000), 999
# permutations, whole process: reading the matrix and the metadata, the
# test, printing the result. Each round runs twl, then scikit-bio, each
# under /usr/bin/time -v (wall time, user + system CPU time, peak RSS); one
# line per run goes to OUTDIR/times.tsv with the 1-minute load average
# before it. Run it under the benchmark lock:
#
#   flock /work/.bench.lock bench/permanova/compare.sh /tmp/twl /tmp/cmp 5
#
# twl uses all cores (2 on the development machine); scikit-bio's
# permutations run on as many OpenMP threads (its Cython kernel's prange),
# its reading of the matrix on one.
set -euo pipefail
twl=$(realpath "$1"); out=$2; rounds=${3:-3}; n=${4:-3000}
here=$(dirname "$(realpath "$0")")
mkdir -p "$out"; cd "$out"
[ -f dm$n.tsv ] || /usr/bin/python3 "$here/gen.py" "$n" 4 0.3 dm$n
run() { # run NAME CMD...: time CMD, append a line to times.tsv
  local name=$1; shift
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -v -o time.txt "$@" > "$name.out" 2> stderr.txt || { cat stderr.txt >&2; return 1; }
  local wall cpu rss
  wall=$(awk -F': ' '/Elapsed/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' time.txt)
  cpu=$(awk -F': ' '/User time|System time/ {s+=$2} END {print s}' time.txt)
  rss=$(awk -F': ' '/Maximum resident/ {print $2}' time.txt)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$wall" "$cpu" "$rss" "$load" | tee -a times.tsv
}
printf 'round\trun\twall_s\tcpu_s\tpeak_rss_kb\tload\n' > times.tsv
for round in $(seq 1 "$rounds"); do
  run twl "$twl" permanova --dm dm$n.tsv --metadata dm$n.meta.tsv --column group --permutations 999
  run skbio /usr/bin/python3 "$here/skbio_permanova.py" dm$n.tsv dm$n.meta.tsv group 999
done
# The statistics of the last round, side by side.
grep -h "test statistic \|p-value" twl.out skbio.out
