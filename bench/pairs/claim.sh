#!/usr/bin/env bash
# claim.sh TWL OUTDIR SEEDS: the bag of n-grams with its defaults, trained
# with kl and with kl+tw on 20 Newsgroups (train.jsonl; test.jsonl) and AAPD
# (val.jsonl, the only labelled abstracts besides the test set; test.jsonl)
# with seeds 1 … SEEDS, each scored by twl eval --multilabel --k 5; then
# bench/pairs compares the two losses seed by seed. For docs/results/text.md:
#
#   bench/pairs/claim.sh /tmp/twl /tmp/claim 5
set -euo pipefail
twl=$(realpath "$1"); out=$2; seeds=${3:-5}
here=$(dirname "$(realpath "$0")")
data=$(realpath "$here/../../../shared/data")
vec=$data/embeddings/novels-fasttext-100d.vec
mkdir -p "$out"
for ds in aapd ng; do
  case $ds in
    ng)   tr=$data/text/20ng/train.jsonl te=$data/text/20ng/test.jsonl tree=$data/text/20ng/20ng.tree ;;
    aapd) tr=$data/text/aapd/val.jsonl te=$data/text/aapd/test.jsonl tree=$data/text/aapd/aapd.taxonomy ;;
  esac
  mkdir -p "$out/$ds"
  for seed in $(seq 1 "$seeds"); do
    for l in kl kl+tw; do
      name=${l/+/}-$seed
      [ -f "$out/$ds/$name.json" ] && continue
      "$twl" text train --train "$tr" --tree "$tree" --emb "$vec" --loss $l --seed $seed --out "$out/$ds/m.model" --quiet > /dev/null
      "$twl" text predict --model "$out/$ds/m.model" --data "$te" --out "$out/$ds/p.jsonl"
      "$twl" eval --multilabel --k 5 --tree "$tree" --format json "$out/$ds/p.jsonl" "$te" > "$out/$ds/$name.json"
      echo "$ds $name done"
    done
  done
  rm -f "$out/$ds/m.model" "$out/$ds/p.jsonl"
  (cd "$here/../.." && go run ./bench/pairs "$out/$ds"/kl-*.json "$out/$ds"/kltw-*.json) | tee "$out/$ds.md"
done
