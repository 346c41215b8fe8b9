#!/bin/sh
# Time and peak memory of 'twl unifrac' on a generated case: one-shot runs
# (TSV and npy), each shard of --shard I/SHARDS, and the merge:
#
#	sh shards.sh TWL DIR TIPS SAMPLES PER_SAMPLE SEED SHARDS RUNS
#
# makes DIR/case.{nwk,biom} with genclade.py (clade-biased communities on a
# Yule tree; needs python3-biom-format and python3-h5py), then prints one
# line per run from /usr/bin/time.
set -e
twl=$1 dir=$2 tips=$3 n=$4 k=$5 seed=$6 shards=$7 runs=${8:-3}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
[ -f "$dir/case.biom" ] || /usr/bin/python3 "$here/genclade.py" "$tips" "$n" "$k" "$seed" "$dir/case"
cd "$dir"
in="--tree case.nwk --table case.biom --method weighted_normalized"
for r in $(seq "$runs"); do
	/usr/bin/time -f "one-shot tsv, run $r: %e s %M KB" "$twl" unifrac $in --out d.tsv 2>&1 | grep run
	/usr/bin/time -f "one-shot npy, run $r: %e s %M KB" "$twl" unifrac $in --out d.npy 2>&1 | grep run
	for i in $(seq "$shards"); do
		/usr/bin/time -f "shard $i/$shards, run $r: %e s %M KB" "$twl" unifrac $in --shard "$i/$shards" --out "p$i.part" 2>&1 | grep run
	done
	/usr/bin/time -f "merge to tsv, run $r: %e s %M KB" "$twl" unifrac merge p*.part --out m.tsv 2>&1 | grep run
	/usr/bin/time -f "merge to npy, run $r: %e s %M KB" "$twl" unifrac merge p*.part --out m.npy 2>&1 | grep run
	cmp m.tsv d.tsv && cmp m.npy d.npy && echo "run $r: merged files identical to one-shot"
done
