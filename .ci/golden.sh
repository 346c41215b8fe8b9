#!/usr/bin/env bash
# golden.sh BIN DIR: run the README's examples (and the commands behind its
# three tasks) with the twl binary BIN, leaving every standard output and every
# written file under DIR. Timings and progress go to standard error, which is
# not kept; what is kept must be byte-identical from one build to the next.
#
#   .ci/golden.sh /tmp/twl /tmp/out && (cd /tmp/out && sha256sum -c ../golden.sha256)
#
# .ci/golden.sha256 holds the checksums written by the build they were taken
# from; `.ci/run` compares the current build against it. After a deliberate
# change of output, regenerate it with:
#   .ci/golden.sh /tmp/twl /tmp/out && (cd /tmp/out && sha256sum * > "$OLDPWD/.ci/golden.sha256")
set -euo pipefail
bin=$(realpath "$1"); out=$2
shared=$(realpath "$(dirname "$0")/../../shared")
data=$shared/data
ucdata=$(realpath "$(dirname "$0")/../testdata/unifrac")
rm -rf "$out"; mkdir -p "$out"; cd "$out"; ln -s "$data" data
run() { # run NAME ARGS...: stdout to NAME.out
  local name=$1; shift
  "$bin" "$@" >"$name.out" 2>/dev/null || { echo "golden: '$*' failed" >&2; return 1; }
}
mkdir demo
"$bin" demo --dir demo >/dev/null 2>&1
for f in demo/*; do mv "$f" "demo-$(basename "$f")"; done; rmdir demo
T=demo-figure1.tree P=demo-predictions.jsonl Y=demo-targets.jsonl
run distance-tw        distance --tree $T $P $Y
run distance-tw-json   distance --tree $T $P $Y --format json
run distance-emd       distance --method emd --tree $T $P $Y
run distance-sinkhorn  distance --method sinkhorn --tree $T $P $Y
run distance-pairwise  distance --pairwise --tree $T $P $Y
run eval               eval --tree $T $P $Y
run eval-json          eval --tree $T $P $Y --format json
run eval-pyldl         eval --pyldl --tree $T $P $Y

# train -> predict -> eval on the synthetic data set
run synth synth --nodes 200 --samples 300 --test 100 --features 20 --seed 3 --out synth --quiet
for f in synth/*; do mv "$f" "synth-$(basename "$f")"; done; rmdir synth
run train-kl   train --data synth-train.jsonl --tree synth-tree.txt --epochs 3 --seed 1 --out model-kl.json --quiet
run train-tw   train --data synth-train.jsonl --tree synth-tree.txt --loss kl+tw --lambda 0.5 --val 0.2 --patience 2 --epochs 4 --standardize --seed 2 --out model-tw.json --quiet
run train-tw-json train --data synth-train.jsonl --tree synth-tree.txt --loss kl+tw --epochs 2 --seed 2 --format json --out model-tw2.json --quiet
run train-sk   train --data synth-train.jsonl --tree synth-tree.txt --loss kl+sinkhorn --epochs 1 --seed 4 --out model-sk.json --quiet
run predict    predict --model model-tw.json --data synth-test.jsonl --out pred.jsonl --targets target.jsonl
run predict-top predict --model model-kl.json --data synth-test.jsonl --top 5
run eval-synth eval --tree synth-tree.txt pred.jsonl target.jsonl
run cv-synth   cv --data synth-train.jsonl --tree synth-tree.txt --folds 3 --repeats 1 --epochs 2 --quiet
run cv-synth-json cv --data synth-train.jsonl --tree synth-tree.txt --loss kl+tw --folds 3 --repeats 2 --epochs 2 --format json --quiet

# LDL data from shared/
run cv-sjaffe  cv --data "data/ldl/SJAFFE.mat" --tree star --pyldl --repeats 1 --quiet
run cv-fgnet   cv --data "data/ldl/FG-Net.mat" --tree chain --loss kl+tw --lambda 0.5 --repeats 1 --folds 5 --quiet

# text: stats, train -> predict -> eval --multilabel
ng=data/text/20ng
head -n 400 "$ng/train.jsonl" > ng-train.jsonl
head -n 150 "$ng/test.jsonl" > ng-test.jsonl
run text-stats  text stats --data ng-train.jsonl --tree "$ng/20ng.tree"
run text-stats-aapd text stats --data "data/text/aapd/val.jsonl" --tree "data/text/aapd/aapd.taxonomy"
run text-train  text train --model lstm --train ng-train.jsonl --tree "$ng/20ng.tree" --loss kl+tw --epochs 2 --hidden 16 --emb-dim 12 --batch 50 --seed 1 --out ng.model --quiet
run text-predict text predict --model ng.model --data ng-test.jsonl --out ng-pred.jsonl
run eval-multilabel eval --multilabel --k 5 --tree "$ng/20ng.tree" ng-pred.jsonl ng-test.jsonl
# the bag of n-grams (the default model), with character n-grams too
run text-train-bag text train --train ng-train.jsonl --tree "$ng/20ng.tree" --loss kl+tw --epochs 3 --emb-dim 12 --maxn 4 --buckets 50000 --seed 1 --out ng-bag.model --quiet
run text-predict-bag text predict --model ng-bag.model --data ng-test.jsonl --out ng-bag-pred.jsonl
run eval-multilabel-bag eval --multilabel --k 5 --tree "$ng/20ng.tree" ng-bag-pred.jsonl ng-test.jsonl

# trees from points, the tree-sliced distance, KL + TSW
emb=data/embeddings/glove-twitter-25d-12k.txt
[ -f "$emb" ] || emb=$(ls data/embeddings/*.vec | head -n1)
run tree-cluster tree build --emb "$emb" --max-words 2000 --seed 1 --out w1.tree --quiet
run tree-quad    tree build --emb "$emb" --max-words 2000 --method quad --seed 2 --out w2.tree --quiet
run tree-fit     tree build --emb "$emb" --max-words 500 --fit --seed 3 --out w3.tree --quiet
# rows over the words (the first 50 of the vector file), compared over two trees
awk 'NR>1 && $1 ~ /^[a-z]+$/ {print $1; if (++n == 50) exit}' "$emb" > words.txt
awk 'BEGIN{srand(7)} {w[NR]=$1} END{for(i=0;i<40;i++){a=w[int(rand()*NR)+1]; b=w[int(rand()*NR)+1]; if(a==b) printf "{\"%s\": 1}\n", a; else printf "{\"%s\": 0.25, \"%s\": 0.75}\n", a, b}}' words.txt > docs-a.jsonl
awk 'BEGIN{srand(8)} {w[NR]=$1} END{for(i=0;i<40;i++){a=w[int(rand()*NR)+1]; printf "{\"%s\": 1}\n", a}}' words.txt > docs-b.jsonl
run tree-words   tree build --emb "$emb" --labels words.txt --seed 4 --out l1.tree --quiet
run tree-words2  tree build --emb "$emb" --labels words.txt --method quad --seed 5 --out l2.tree --quiet
run distance-trees distance --trees l1.tree,l2.tree docs-a.jsonl docs-b.jsonl
run distance-trees-pairwise distance --pairwise --trees l1.tree,l2.tree docs-a.jsonl docs-b.jsonl
run eval-trees     eval --trees l1.tree,l2.tree docs-a.jsonl docs-b.jsonl
# KL + TSW over the word trees: features are random, targets the docs' rows
awk 'BEGIN{srand(9)} {printf "{\"x\": [%.4f, %.4f, %.4f], \"y\": %s}\n", rand(), rand(), rand(), $0}' docs-a.jsonl > tsw-train.jsonl
run train-tsw   train --data tsw-train.jsonl --trees l1.tree,l2.tree --loss kl+tsw --lambda 0.5 --epochs 3 --seed 1 --out model-tsw.json --quiet
run predict-tsw predict --model model-tsw.json --data tsw-train.jsonl

# UniFrac on the small table of testdata/unifrac: one shot, npy, two shards merged
UT="--tree $ucdata/tree.nwk --table $ucdata/table.biom"
run unifrac-wn    unifrac $UT --method weighted_normalized --out uf-wn.tsv
run unifrac-gen   unifrac $UT --method generalized --alpha 0.5 --out uf-gen.npy
run unifrac-p1    unifrac $UT --method unweighted --shard 1/2 --out uf-uw1.part
run unifrac-p2    unifrac $UT --method unweighted --shard 2/2 --out uf-uw2.part
run unifrac-merge unifrac merge uf-uw2.part uf-uw1.part --out uf-uw.tsv

# What differs from run to run is the time things took: blank it.
rm data; export LC_ALL=C
for f in *; do
  sed -E -i 's/"seconds":[-0-9.eE+]+/"seconds":0/g' "$f"
  case $f in *.out) sed -E -i 's/[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)? ?(ns|µs|us|ms|s|min|h)\b/<time>/g' "$f";; esac
done
