#!/usr/bin/env bash
# compare.sh TWL OUTDIR ROUNDS: twl text train/predict (the bag's defaults)
# against fastText 0.9.2 on 20 Newsgroups and AAPD, side by side, for
# docs/benchmarks.md. Each round runs, for each data set, twl's training,
# then fastText's, then twl's prediction, then fastText's, each under
# /usr/bin/time -v (wall time, peak RSS); one line per run goes to
# OUTDIR/times.tsv with the load average before it. Run it under the
# benchmark lock:
#
#   flock /work/.bench.lock bench/fasttext/compare.sh /tmp/twl /tmp/cmp 3
#
# fastText sees the same documents, tokenized by twl's tokenizer, with every
# label closed under ancestors (go run ./bench/fasttext txt), 2 threads,
# the configuration of the comparison in docs/results/text.md.
set -euo pipefail
twl=$(realpath "$1"); out=$2; rounds=${3:-3}
here=$(dirname "$(realpath "$0")")
data=$(realpath "$here/../../../shared/data")
vec=$data/embeddings/novels-fasttext-100d.vec
mkdir -p "$out"; cd "$out"
(cd "$here/../.." && go build -o "$out/ftconv" ./bench/fasttext)
sets="ng aapd"
for ds in $sets; do
  case $ds in
    ng)   tr=$data/text/20ng/train.jsonl te=$data/text/20ng/test.jsonl tree=$data/text/20ng/20ng.tree ;;
    aapd) tr=$data/text/aapd/val.jsonl te=$data/text/aapd/test.jsonl tree=$data/text/aapd/aapd.taxonomy ;;
  esac
  ./ftconv txt --tree "$tree" < "$tr" > $ds-train.txt
  ./ftconv txt --tree "$tree" < "$te" > $ds-test.txt
done
run() { # run NAME CMD...: time CMD, append a line to times.tsv
  local name=$1; shift
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -v -o time.txt "$@" > /dev/null 2> stderr.txt || { cat stderr.txt >&2; return 1; }
  local wall rss
  wall=$(awk -F': ' '/Elapsed/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' time.txt)
  rss=$(awk -F': ' '/Maximum resident/ {print $2}' time.txt)
  printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$wall" "$rss" "$load" | tee -a times.tsv
}
printf 'round\trun\twall_s\tpeak_rss_kb\tload\n' > times.tsv
for round in $(seq 1 "$rounds"); do
  for ds in $sets; do
    case $ds in
      ng)   tr=$data/text/20ng/train.jsonl te=$data/text/20ng/test.jsonl tree=$data/text/20ng/20ng.tree ;;
      aapd) tr=$data/text/aapd/val.jsonl te=$data/text/aapd/test.jsonl tree=$data/text/aapd/aapd.taxonomy ;;
    esac
    run "$ds twl train" "$twl" text train --train "$tr" --tree "$tree" --emb "$vec" --loss kl+tw --out $ds.model --quiet
    run "$ds fasttext train" fasttext supervised -input $ds-train.txt -output ft-$ds -pretrainedVectors "$vec" -thread 2 -epoch 25 -lr 0.5 -wordNgrams 2 -dim 100 -loss softmax
    run "$ds twl predict" "$twl" text predict --model $ds.model --data "$te" --out $ds-twl.jsonl
    run "$ds fasttext predict" sh -c "fasttext predict-prob ft-$ds.bin $ds-test.txt -1 > $ds-ft.txt"
  done
done
# The quality of the last round's models, scored alike.
for ds in $sets; do
  case $ds in
    ng)   te=$data/text/20ng/test.jsonl tree=$data/text/20ng/20ng.tree ;;
    aapd) te=$data/text/aapd/test.jsonl tree=$data/text/aapd/aapd.taxonomy ;;
  esac
  ./ftconv json < $ds-ft.txt > $ds-ft.jsonl
  "$twl" eval --multilabel --k 5 --tree "$tree" --format json $ds-twl.jsonl "$te" > $ds-twl-eval.json
  "$twl" eval --multilabel --normalize --k 5 --tree "$tree" --format json $ds-ft.jsonl "$te" > $ds-ft-eval.json
done
