#!/bin/sh
# KL + TW against KL + UTW (the unbalanced tree-Wasserstein term) in
# training: label-distribution learning on two LDL benchmark sets with
# ordered labels on a chain (FG-Net: ages; Yeast_alpha: time points) by
# 10-fold cross-validation repeated 3 times (twl cv), and multi-label text
# (AAPD) with the bag-of-n-grams text model (25 epochs, --val 0.2), 5 seeds
# (twl text train, predict, eval --multilabel). Writes one JSON file per run to $OUT; summarize them
# with utw_loss_table.py. Results: docs/results/utw.md.
#
#   TWL=./twl DATA=../shared/data OUT=utw-loss sh bench/scripts/utw_loss.sh
set -eu
TWL=${TWL:-twl}
DATA=${DATA:-../shared/data}
OUT=${OUT:-utw-loss}
mkdir -p "$OUT"

# ldl DATA TREE NAME LOSS-FLAGS...
ldl() {
	d=$1 tr=$2 name=$3
	shift 3
	f="$OUT/ldl-$d-$name.json"
	[ -s "$f" ] && return
	"$TWL" cv --data "$DATA/ldl/$d.mat" --tree "$tr" --repeats 3 --format json --quiet "$@" >"$f.tmp"
	mv "$f.tmp" "$f"
}
for d in FG-Net Yeast_alpha; do
	ldl $d chain kl --loss kl
	ldl $d chain kl+0.5tw --loss kl+0.5tw
	ldl $d chain kl+tw --loss kl+tw
done
for mu in 2 5 10; do ldl FG-Net chain "kl+0.5utw-mu$mu" --loss kl+0.5utw --mass-cost $mu; done
ldl FG-Net chain kl+utw-mu5 --loss kl+utw --mass-cost 5
for mu in 2 5; do ldl Yeast_alpha chain "kl+0.5utw-mu$mu" --loss kl+0.5utw --mass-cost $mu; done

# text NAME LOSS-FLAGS...: AAPD, trained on its 1,000 validation abstracts
# (800 to fit, 200 to pick the epoch), scored on its 1,000 test abstracts,
# with the bag model as the results were made: 25 epochs, 200 of the
# 1,000 held out to pick the epoch (--val 0.2), λ = 2 unless the name
# weights the term.
text() {
	name=$1
	shift
	for seed in 1 2 3 4 5; do
		f="$OUT/aapd-$name-seed$seed.json"
		[ -s "$f" ] && continue
		"$TWL" text train --train "$DATA/text/aapd/val.jsonl" --tree "$DATA/text/aapd/aapd.taxonomy" \
			--emb "$DATA/embeddings/novels-fasttext-100d.vec" --epochs 25 --val 0.2 --seed $seed --quiet --out "$OUT/aapd.model" "$@"
		"$TWL" text predict --model "$OUT/aapd.model" --data "$DATA/text/aapd/test.jsonl" --out "$OUT/aapd-pred.jsonl"
		"$TWL" eval --multilabel --k 5 --tree "$DATA/text/aapd/aapd.taxonomy" --format json \
			"$OUT/aapd-pred.jsonl" "$DATA/text/aapd/test.jsonl" >"$f.tmp"
		mv "$f.tmp" "$f"
	done
}
text kl --loss kl
text kl+0.5tw --loss kl+0.5tw
text kl+tw --loss kl+tw
text kl+utw-mu1 --loss kl+utw --mass-cost 1
text kl+utw-sets-mu1 --loss kl+utw --utw-sets --mass-cost 1
text kl+utw-sets-mu2 --loss kl+utw --utw-sets --mass-cost 2
text kl+0.5utw-sets-mu1 --loss kl+0.5utw --utw-sets --mass-cost 1
rm -f "$OUT/aapd.model" "$OUT/aapd-pred.jsonl"
