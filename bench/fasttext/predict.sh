#!/usr/bin/env bash
# predict.sh TWL OUTDIR ROUNDS: twl text predict (streamed) against fasttext
# predict-prob on the 7,532 test posts of 20 Newsgroups and on ten copies of
# them (75,320 posts), alternating within each round, for
# docs/benchmarks.md. Each run is timed by /usr/bin/time (wall, user and
# system time, peak RSS), with the load average before it, into
# OUTDIR/predict.tsv. The models are trained first, once (not timed): twl's
# bag with its defaults and --loss kl+tw, fastText with the configuration of
# compare.sh. Run it under the benchmark lock:
#
#   flock /work/.bench.lock bench/fasttext/predict.sh /tmp/twl /tmp/pred 3
#
# Both read the same file for the headline rows: the test posts in
# fastText's format (labels, then the words as twl's tokenizer splits
# them), all labels' probabilities written in fastText's layout (twl text
# predict --format fasttext, fasttext predict-prob FILE -1).
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
printf 'round\trun\twall_s\tuser_s\tsys_s\tpeak_rss_kb\tload\n' > predict.tsv
for round in $(seq 1 "$rounds"); do
  run "twl jsonl 7532" "$twl" text predict --model ng.model --data "$ng/test.jsonl" --out twl.jsonl
  run "twl fasttext-layout 7532" "$twl" text predict --model ng.model --data ng-test.txt --format fasttext --out twl.txt
  run "fasttext 7532" sh -c "fasttext predict-prob ft-ng.bin ng-test.txt -1 > ft.txt"
  run "twl fasttext-layout 75320" "$twl" text predict --model ng.model --data ng-test10.txt --format fasttext --out twl10.txt
  run "fasttext 75320" sh -c "fasttext predict-prob ft-ng.bin ng-test10.txt -1 > ft10.txt"
  run "twl 1-core fasttext-layout 75320" env GOMAXPROCS=1 "$twl" text predict --model ng.model --data ng-test10.txt --format fasttext --out twl10.txt
done
