#!/bin/sh
# gen.sh regenerates the fastText fixtures of package embedding with the
# official fastText tool (tested with 0.9.2, the Debian package). Run it from
# anywhere: sh embedding/testdata/gen.sh. Training uses random numbers and
# threads, so every run gives new models; the expected outputs are recorded
# from the models of the same run, so the fixtures stay consistent.
#
# Inputs (written by hand): train.txt (skip-gram training text, with
# non-ASCII words and curly apostrophes), tiny.txt (three lines, for a model
# of a few hundred bytes that the fuzz test mutates), sup.txt (supervised,
# with labels), queries.txt (one word a line: in-vocabulary and
# out-of-vocabulary words).
#
# Outputs, per model NAME:
#   NAME.bin     the model
#   NAME.vec     the .vec the tool writes beside it
#   NAME.words   echo WORDS | fasttext print-word-vectors NAME.bin
#   NAME.ngrams  fasttext print-ngrams NAME.bin WORD, each word's block
#                introduced by a line "== WORD"
#   NAME.input   the first rows of fasttext dump NAME.bin input
#   NAME.exact   the vectors of the same words and of every word of the
#                vocabulary, from fastText's library (FastText::getWordVector)
#                with 9 significant digits, which give each float exactly:
#                made by exact.cc, when a C++ compiler and libfasttext-dev
#                (Debian) are installed, and otherwise left as they are
# and sup.ftz, the supervised model quantized with -cutoff (a pruned,
# quantized model, which package embedding refuses).
#
# -thread 10: fastText 0.9.2 initializes the input matrix in ten blocks, one
# per thread, and leaves the blocks of missing threads at zero; ten threads
# give every n-gram row a random start, so a wrong hash shows in the tests.
set -eu
cd "$(dirname "$0")"
FASTTEXT=${FASTTEXT:-fasttext}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

record() { # record NAME: the expected outputs of NAME.bin
	grep -v '^__label__' queries.txt >"$tmp/q"
	if [ "$1" = sup ]; then
		# print-word-vectors aborts on a label (an assertion in fastText).
		cp "$tmp/q" "$tmp/qw"
	else
		cp queries.txt "$tmp/qw"
	fi
	"$FASTTEXT" print-word-vectors "$1.bin" <"$tmp/qw" >"$1.words"
	: >"$1.ngrams"
	for w in the café 東京 it’s 😀 '</s>' cafés 東京都 “quoted” q ß 😀😀; do
		echo "== $w" >>"$1.ngrams"
		"$FASTTEXT" print-ngrams "$1.bin" "$w" >>"$1.ngrams"
	done
	"$FASTTEXT" dump "$1.bin" input | head -n 81 >"$1.input"
	if [ -n "$exact" ]; then
		{ cat "$tmp/qw"; tail -n +2 "$1.vec" | cut -d' ' -f1; } | "$exact" "$1.bin" >"$1.exact"
	fi
}

exact=
if command -v c++ >/dev/null && pkg-config --exists fasttext 2>/dev/null; then
	exact=$tmp/exact
	c++ -O2 -o "$exact" exact.cc $(pkg-config --cflags --libs fasttext)
else
	echo "gen.sh: no C++ compiler or no libfasttext-dev: NAME.exact not remade" >&2
fi

# sg: skip-gram, n-grams of 2 to 4 characters.
"$FASTTEXT" skipgram -input train.txt -output "$tmp/sg" -dim 8 -minCount 1 \
	-bucket 2000 -minn 2 -maxn 4 -epoch 1 -thread 10 >/dev/null
# def: the default n-gram lengths, 3 to 6.
"$FASTTEXT" skipgram -input train.txt -output "$tmp/def" -dim 4 -minCount 1 \
	-bucket 3000 -epoch 1 -thread 10 >/dev/null
# tiny: nine words, ten buckets, two dimensions.
"$FASTTEXT" skipgram -input tiny.txt -output "$tmp/tiny" -dim 2 -minCount 1 \
	-bucket 10 -minn 2 -maxn 3 -epoch 1 -thread 10 >/dev/null
# nongram: no n-grams (-maxn 0; fastText then sets bucket to 0).
"$FASTTEXT" cbow -input train.txt -output "$tmp/nongram" -dim 6 -minCount 1 \
	-maxn 0 -epoch 1 -thread 10 >/dev/null
# sup: supervised, with labels; sup.ftz: the same quantized and pruned.
"$FASTTEXT" supervised -input sup.txt -output "$tmp/sup" -dim 4 -minCount 1 \
	-minn 2 -maxn 3 -bucket 400 -epoch 5 -thread 1 >/dev/null
"$FASTTEXT" quantize -input sup.txt -output "$tmp/sup" -cutoff 300 -retrain \
	-epoch 1 -thread 1 >/dev/null

for m in sg def tiny nongram sup; do
	cp "$tmp/$m.bin" "$tmp/$m.vec" .
	record "$m"
done
cp "$tmp/sup.ftz" .
