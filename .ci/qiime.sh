#!/usr/bin/env bash
# QIIME 2 end to end on twl: with links named ssu and faithpd to twl first on
# PATH, q2-diversity-lib's beta-phylogenetic-passthrough and faith-pd (which
# run ssu and faithpd as subprocesses) must give the artifacts the real tools
# give, to 1e-5 relative; and QIIME 2 must accept the artifacts that twl
# writes itself (--out D.qza). Skipped when qiime or the real tools are
# absent: the project never needs QIIME 2.
#
#   .ci/qiime.sh
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in qiime ssu faithpd; do
  if ! command -v "$tool" >/dev/null; then
    echo "skipped: $tool is absent"
    exit 0
  fi
done
if ! /usr/bin/python3 -c 'import qiime2, q2_diversity_lib' 2>/dev/null; then
  echo "skipped: QIIME 2's Python packages (qiime2, q2_diversity_lib) are absent"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
go build -o "$work/bin/twl" ./cmd/twl
ln -s twl "$work/bin/ssu"
twl="$work/bin/twl"
table=cmd/twl/testdata/ssu/small.biom
tree=cmd/twl/testdata/ssu/small.nwk

# What the build supports beyond the four methods: variance adjustment,
# bypassing tips, Faith's PD.
extra=""
"$twl" ssu --help | grep -q -- '^  --vaw  ' && extra="$extra vaw"
"$twl" ssu --help | grep -q -- '^  -f  ' && extra="$extra bypass"
if "$twl" faithpd --help >/dev/null 2>&1; then
  ln -s twl "$work/bin/faithpd"
  extra="$extra faith"
fi

echo "-- q2-diversity-lib through ssu/faithpd: twl against the real tools"
TWL_QIIME_EXTRA="$extra" /usr/bin/python3 .ci/qiime_check.py "$work/bin" "$table" "$tree"

echo "-- the command line: qiime diversity-lib beta-phylogenetic-passthrough on twl"
qiime tools import --type 'FeatureTable[Frequency]' --input-path "$table" --output-path "$work/table.qza" >/dev/null
qiime tools import --type 'Phylogeny[Rooted]' --input-path "$tree" --output-path "$work/tree.qza" >/dev/null
PATH="$work/bin:$PATH" qiime diversity-lib beta-phylogenetic-passthrough --i-table "$work/table.qza" \
  --i-phylogeny "$work/tree.qza" --p-metric weighted_normalized_unifrac --o-distance-matrix "$work/q2.qza" >/dev/null
qiime tools export --input-path "$work/q2.qza" --output-path "$work/q2" >/dev/null
"$twl" ssu -i "$table" -t "$tree" -m weighted_normalized -o "$work/ssu.tsv"
cmp "$work/q2/distance-matrix.tsv" "$work/ssu.tsv"
echo "ok: the matrix in QIIME 2's artifact is twl ssu's, byte for byte"

echo "-- artifacts written by twl: qiime tools peek, validate, export"
"$twl" unifrac --table "$table" --tree "$tree" --method unweighted --out "$work/twl.qza"
"$twl" unifrac --table "$table" --tree "$tree" --method unweighted --out "$work/twl.tsv"
qiime tools peek "$work/twl.qza" | grep -q '^Type: *DistanceMatrix$'
qiime tools validate "$work/twl.qza" >/dev/null
qiime tools export --input-path "$work/twl.qza" --output-path "$work/exp" >/dev/null
cmp "$work/exp/distance-matrix.tsv" "$work/twl.tsv"
echo "ok: DistanceMatrix artifact"
if [[ " $extra " == *" faith "* ]]; then
  "$twl" faithpd -i "$table" -t "$tree" -o "$work/faith.qza"
  "$twl" faithpd -i "$table" -t "$tree" -o "$work/faith.tsv"
  qiime tools peek "$work/faith.qza" | grep -q '^Type: *SampleData\[AlphaDiversity\]$'
  qiime tools validate "$work/faith.qza" >/dev/null
  qiime tools export --input-path "$work/faith.qza" --output-path "$work/expf" >/dev/null
  cmp "$work/expf/alpha-diversity.tsv" "$work/faith.tsv"
  echo "ok: SampleData[AlphaDiversity] artifact"
fi
echo "ok: QIIME 2 on twl"
