#!/usr/bin/env bash
# predict.sh TWL OUTDIR ROUNDS: twl text predict (streamed) against fasttext
# predict-prob on the 7,532 test posts of 20 Newsgroups and on ten copies of
# them (75,320 posts), alternating within each round, for
# docs/benchmarks.md. Each run is timed by /usr/bin/time (wall, user and
# system time, peak RSS), with the load average before it, appended to
# OUTDIR/predict.tsv (rounds numbered on from those already there, so that
# one round per hold of the lock adds up). The models are trained first,
# once (not timed): twl's bag with its defaults and --loss kl+tw, fastText
# with the configuration of compare.sh. Run it under the benchmark lock:
#
#   flock /work/.bench.lock bench/fasttext/predict.sh /tmp/twl /tmp/pred 1
#
# Both read the same file for the headline rows: the test posts in
# fastText's format (labels, then the words as twl's tokenizer splits
# them), written in fastText's layout: the 5 most probable labels (twl text
# predict --format fasttext --top 5, fasttext predict-prob FILE 5), and
# every label's probability (--format fasttext, predict-prob FILE -1).
set -euo pipefail
twl=$(realpath "$1"); out=$2; rounds=${3:-3}
here=$(dirname "$(realpath "$0")")
data=$(realpath "$here/../../../shared/data")
ng=$data/text/20ng vec=$data/embeddings/novels-fasttext-100d.vec
mkdir -p "$out"; cd "$out"
(cd "$here/../.." && go build -o "$out/ftconv" ./bench/fasttext)
[ -f ng-train.txt ] || ./ftconv txt --tree "$ng/20ng.tree" < "$ng/train.jsonl" > ng-train.txt
[ -f ng-test.txt ] || ./ftconv txt --tree "$ng/20ng.tree" < "$ng/test.jsonl" > ng-test.txt
[ -f ng-test10.txt ] || for i in $(seq 10); do cat ng-test.txt; done > ng-test10.txt
[ -f ng.model ] || "$twl" text train --train "$ng/train.jsonl" --tree "$ng/20ng.tree" --emb "$vec" --loss kl+tw --out ng.model --quiet
[ -f ft-ng.bin ] || fasttext supervised -input ng-train.txt -output ft-ng -pretrainedVectors "$vec" -thread 2 \
  -epoch 25 -lr 0.5 -wordNgrams 2 -dim 100 -loss softmax -verbose 0
run() { # run NAME CMD...: time CMD, append a line to predict.tsv
  local name=$1; shift
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%e %U %S %M' -o time.txt "$@" > /dev/null
  read -r wall user sys rss < time.txt
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$wall" "$user" "$sys" "$rss" "$load" | tee -a predict.tsv
}
[ -f predict.tsv ] || printf 'round\trun\twall_s\tuser_s\tsys_s\tpeak_rss_kb\tload\n' > predict.tsv
done_rounds=$(tail -n +2 predict.tsv | cut -f1 | sort -un | tail -1); done_rounds=${done_rounds:-0}
for round in $(seq $((done_rounds + 1)) $((done_rounds + rounds))); do
  run "twl top5 7532" "$twl" text predict --model ng.model --data ng-test.txt --format fasttext --top 5 --out twl5.txt
  run "fasttext top5 7532" sh -c "fasttext predict-prob ft-ng.bin ng-test.txt 5 > ft5.txt"
  run "twl top5 75320" "$twl" text predict --model ng.model --data ng-test10.txt --format fasttext --top 5 --out twl5-10.txt
  run "fasttext top5 75320" sh -c "fasttext predict-prob ft-ng.bin ng-test10.txt 5 > ft5-10.txt"
  run "twl all 7532" "$twl" text predict --model ng.model --data ng-test.txt --format fasttext --out twl.txt
  run "fasttext all 7532" sh -c "fasttext predict-prob ft-ng.bin ng-test.txt -1 > ft.txt"
  run "twl all 75320" "$twl" text predict --model ng.model --data ng-test10.txt --format fasttext --out twl10.txt
  run "fasttext all 75320" sh -c "fasttext predict-prob ft-ng.bin ng-test10.txt -1 > ft10.txt"
  run "twl 1-core top5 75320" env GOMAXPROCS=1 "$twl" text predict --model ng.model --data ng-test10.txt --format fasttext --top 5 --out twl5-10.txt
  run "twl jsonl 7532" "$twl" text predict --model ng.model --data "$ng/test.jsonl" --out twl.jsonl
done
