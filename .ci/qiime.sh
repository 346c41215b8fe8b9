#!/usr/bin/env bash
# QIIME 2 end to end on twl: with links named ssu and faithpd to twl first on
# PATH, q2-diversity-lib's beta-phylogenetic-passthrough (the four metrics,
# variance adjusted, bypassing tips) and faith-pd, which run ssu and faithpd
# as subprocesses, must give the artifacts the real tools give, to 1e-5
# relative; and QIIME 2 must accept the artifacts that twl
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
ln -s twl "$work/bin/faithpd"
twl="$work/bin/twl"
table=cmd/twl/testdata/ssu/small.biom
tree=cmd/twl/testdata/ssu/small.nwk

# What twl writes itself: artifacts, and the matrix the command line must give.
"$twl" unifrac --table "$table" --tree "$tree" --method unweighted --out "$work/dm.qza"
"$twl" unifrac --table "$table" --tree "$tree" --method unweighted --out "$work/dm.tsv"
"$twl" faithpd -i "$table" -t "$tree" -o "$work/pd.qza"
"$twl" faithpd -i "$table" -t "$tree" -o "$work/pd.tsv"
"$twl" ssu -i "$table" -t "$tree" -m weighted_normalized -o "$work/ssu.tsv"

echo "-- q2-diversity-lib through ssu and faithpd, twl against the real tools; qiime on twl's artifacts"
/usr/bin/python3 .ci/qiime_check.py "$work/bin" "$table" "$tree" "$work"
echo "ok: QIIME 2 on twl"
