package main

import (
	"flag"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoOutputOverwrites runs every command that writes files with an
// output that is one of its inputs or another of its outputs: by the same
// name, through a symbolic link, a hard link or "..", and the files a
// command writes beside the one named (the ids of an npy matrix, the
// default PCoA table), and each file of an output folder. Each run must be
// refused as a mistake on the command line (exit 2; 1 for ssu's and
// faithpd's command lines, whose every error exits 1, as the tools' do)
// with the message naming both, and leave the folder exactly as it was:
// every input byte for byte, no file added (no temporary file either).
//
// The unifrac cases read a valid tree and table, so that without the
// check they would run and overwrite (as they did: exit 0); the other
// commands' inputs need not be valid, as the check comes before reading.
func TestNoOutputOverwrites(t *testing.T) {
	tree1, _ := demoFiles.ReadFile("demo/figure1.tree")
	pred, _ := demoFiles.ReadFile("demo/predictions.jsonl")
	for _, c := range overwriteCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			tp, bp := randomCase(t, dir, 12, 6, 5)
			table, _ := os.ReadFile(bp)
			os.Rename(tp, filepath.Join(dir, "t.nwk"))
			os.Rename(bp, filepath.Join(dir, "table.tsv"))
			meta := "sample-id\tgroup\nS0\ta\nS1\ta\nS2\tb\nS3\tb\nS4\tc\nS5\tc\n"
			files := map[string]string{
				"table.ids.txt": string(table), "counts.svg": string(table), "x.pcoa.tsv": string(table), "meta.png": meta,
				"g.tree": string(tree1), "h.tree": string(tree1), "p.jsonl": string(pred), "q.jsonl": string(pred),
				"p1.part": "part 1", "p2.part": "part 2", "m.ids.txt": "S0\n",
				"data.jsonl": `{"x": [1], "y": {"cat": 1}}` + "\n", "model.json": "{}\n", "docs.jsonl": "{}\n", "dev.jsonl": "{}\n",
				"emb.vec": "1 1\ncat 1\n", "labels.txt": "cat\n", "ck": "state\n",
			}
			for name, text := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, s := range c.setup {
				s(t, dir)
			}
			before := snapshot(t, dir)
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "$D", dir)
			}
			code, stdout, errOut := twl(t, "", args...)
			if c.msg == "" {
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				// The runs that succeed are of unifrac, ssu and faithpd:
				// their inputs are as they were.
				after := snapshot(t, dir)
				for _, name := range []string{"t.nwk", "table.tsv"} {
					if after[name] != before[name] {
						t.Errorf("%s changed", name)
					}
				}
				return
			}
			want := "twl " + strings.Join(c.args[:commandWords(c.args)], " ") + ": " + strings.ReplaceAll(c.msg, "$D", dir)
			status := 2
			if lookupCompat(c.args[0]) != nil {
				status = 1
			}
			if code != status || stdout != "" || !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != 2 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q, then the help line", code, stdout, errOut, status, want)
			}
			if after := snapshot(t, dir); !maps.Equal(before, after) {
				t.Errorf("the folder changed:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

// overwriteCase is a run of twl with an output that is an input or
// another output: its name, the links or folders it makes first, its
// arguments ($D the test's folder) and the start of the message, after
// "twl COMMAND: " ("" for a run that must succeed).
type overwriteCase struct {
	name  string
	setup []func(t *testing.T, dir string)
	args  []string
	msg   string
}

// overwriteCases returns the cases of TestNoOutputOverwrites: every case
// of the kind found by hand, and one or more for each command that writes
// files and reads some (TestEveryWriterHasOverwriteCase).
func overwriteCases() []overwriteCase {
	link := func(target, name string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Skip("no symbolic links here:", err)
			}
		}
	}
	hard := func(target, name string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := os.Link(filepath.Join(dir, target), filepath.Join(dir, name)); err != nil {
				t.Skip("no hard links here:", err)
			}
		}
	}
	mkdir := func(name string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	executable := func(name string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	uni := func(extra ...string) []string {
		return append([]string{"unifrac", "--tree", "$D/t.nwk", "--table", "$D/table.tsv", "--method", "unweighted"}, extra...)
	}
	ssu := func(extra ...string) []string {
		return append([]string{"ssu", "-i", "$D/table.tsv", "-t", "$D/t.nwk", "-m", "unweighted"}, extra...)
	}
	exp := func(name string, extra ...string) []string {
		return append([]string{"experiment", name, "--quiet"}, extra...)
	}
	return []overwriteCase{
		// twl unifrac: the cases found by hand (each ran, exit 0, and
		// destroyed the input), then the ways of naming a file twice.
		{"unifrac: the npy's ids over the table", nil,
			[]string{"unifrac", "--tree", "$D/t.nwk", "--table", "$D/table.ids.txt", "--method", "unweighted", "--out", "$D/table.npy"},
			"the ids of --out $D/table.ids.txt would overwrite --table $D/table.ids.txt"},
		{"unifrac: --pcoa-out over the tree", nil, uni("--out", "$D/d.tsv", "--pcoa", "2", "--pcoa-out", "$D/t.nwk"),
			"--pcoa-out $D/t.nwk would overwrite --tree $D/t.nwk"},
		{"unifrac: --pcoa-out over --out", nil, uni("--out", "$D/w.tsv", "--pcoa", "2", "--pcoa-out", "$D/w.tsv"),
			"--pcoa-out $D/w.tsv would overwrite --out $D/w.tsv"},
		{"unifrac: --plot over the table", nil,
			[]string{"unifrac", "--tree", "$D/t.nwk", "--table", "$D/counts.svg", "--method", "unweighted", "--out", "$D/d.tsv", "--pcoa", "2", "--plot", "$D/counts.svg"},
			"--plot $D/counts.svg would overwrite --table $D/counts.svg"},
		{"unifrac: --plot over the metadata", nil,
			uni("--out", "$D/d.tsv", "--pcoa", "2", "--metadata", "$D/meta.png", "--color-by", "group", "--plot", "$D/meta.png"),
			"--plot $D/meta.png would overwrite --metadata $D/meta.png"},
		{"unifrac: --plot over --out", nil, uni("--out", "$D/d.svg", "--pcoa", "2", "--plot", "$D/d.svg"),
			"--plot $D/d.svg would overwrite --out $D/d.svg"},
		{"unifrac: the default PCoA table over the table", nil,
			[]string{"unifrac", "--tree", "$D/t.nwk", "--table", "$D/x.pcoa.tsv", "--method", "unweighted", "--out", "$D/x.tsv", "--pcoa", "2"},
			"the PCoA table (default --pcoa-out) $D/x.pcoa.tsv would overwrite --table $D/x.pcoa.tsv"},
		{"unifrac: the default PCoA table over --plot", nil,
			uni("--out", "$D/x.tsv", "--pcoa", "2", "--plot", "$D/x.pcoa.tsv.svg"), ""}, // a distinct name: runs
		{"unifrac: through a symbolic link", []func(*testing.T, string){link("t.nwk", "l.tsv")}, uni("--out", "$D/l.tsv"),
			"--out $D/l.tsv would overwrite --tree $D/t.nwk (the same file)"},
		{"unifrac: through a hard link", []func(*testing.T, string){hard("table.tsv", "h.tsv")}, uni("--out", "$D/d.tsv", "--pcoa", "1", "--pcoa-out", "$D/h.tsv"),
			"--pcoa-out $D/h.tsv would overwrite --table $D/table.tsv (the same file)"},
		{"unifrac: through ..", []func(*testing.T, string){mkdir("sub")}, uni("--out", "$D/sub/../t.nwk"),
			"--out $D/sub/../t.nwk would overwrite --tree $D/t.nwk"},
		// Lexically $D/b/../../t.nwk is t.nwk beside $D; the kernel goes
		// down the link b to $D/a/real, then up twice, to $D/t.nwk.
		{"unifrac: through .. after a link", []func(*testing.T, string){mkdir("a/real"), link("a/real", "b")}, uni("--out", "$D/b/../../t.nwk"),
			"--out $D/b/../../t.nwk would overwrite --tree $D/t.nwk (the same file)"},
		// b/up → ../t.nwk lies in b, a link to a/real: the kernel takes
		// the .. from a/real, so --out is a/t.nwk, a new file, not the
		// tree beside b that a lexical clean of b/../t.nwk gives.
		{"unifrac: through a link whose .. follows a linked folder",
			[]func(*testing.T, string){mkdir("a/real"), link("a/real", "b"), link("../t.nwk", "a/real/up")},
			uni("--out", "$D/b/up"), ""},
		{"unifrac: a partial file over the table", nil, uni("--shard", "1/2", "--out", "$D/table.tsv"),
			"--out $D/table.tsv would overwrite --table $D/table.tsv"},
		{"unifrac merge: over a part", nil, []string{"unifrac", "merge", "$D/p1.part", "$D/p2.part", "--out", "$D/p2.part"},
			"--out $D/p2.part would overwrite the partial file $D/p2.part"},
		{"unifrac merge: the ids over a part", nil, []string{"unifrac", "merge", "$D/m.ids.txt", "--out", "$D/m.npy"},
			"the ids of --out $D/m.ids.txt would overwrite the partial file $D/m.ids.txt"},
		{"unifrac merge: an artifact over a part", []func(*testing.T, string){link("p1.part", "m.qza")},
			[]string{"unifrac", "merge", "$D/p1.part", "$D/p2.part", "--out", "$D/m.qza"},
			"--out $D/m.qza would overwrite the partial file $D/p1.part (the same file)"},
		{"unifrac: HDF5 over the tree through ..", []func(*testing.T, string){mkdir("sub"), link("t.nwk", "t.h5")}, uni("--out", "$D/sub/../t.h5"),
			"--out $D/sub/../t.h5 would overwrite --tree $D/t.nwk (the same file)"},
		{"unifrac: an artifact over the table through a hard link", []func(*testing.T, string){hard("table.tsv", "d.qza")}, uni("--out", "$D/d.qza"),
			"--out $D/d.qza would overwrite --table $D/table.tsv (the same file)"},

		// ssu and faithpd: as the tools report every error, exit 1.
		{"ssu: -o over -i", nil, ssu("-o", "$D/table.tsv"), "-o $D/table.tsv would overwrite -i $D/table.tsv"},
		{"ssu: -o over -t through a symbolic link", []func(*testing.T, string){link("t.nwk", "l.tsv")}, ssu("-o", "$D/l.tsv"),
			"-o $D/l.tsv would overwrite -t $D/t.nwk (the same file)"},
		{"ssu: HDF5 over -t through a hard link", []func(*testing.T, string){hard("t.nwk", "d.h5")}, ssu("-r", "hdf5", "-o", "$D/d.h5"),
			"-o $D/d.h5 would overwrite -t $D/t.nwk (the same file)"},
		{"ssu: an artifact over -i through ..", []func(*testing.T, string){mkdir("sub"), link("table.tsv", "d.qza")}, ssu("-o", "$D/sub/../d.qza"),
			"-o $D/sub/../d.qza would overwrite -i $D/table.tsv (the same file)"},
		{"ssu: a partial file over -i", nil, ssu("--mode", "partial", "--start", "0", "--stop", "1", "-o", "$D/table.tsv"),
			"-o $D/table.tsv would overwrite -i $D/table.tsv"},
		{"ssu: merge-partial over a part", nil,
			[]string{"ssu", "--mode", "merge-partial", "--partial-pattern", "$D/p*.part", "-o", "$D/p2.part"},
			"-o $D/p2.part would overwrite a partial file of --partial-pattern $D/p2.part"},
		{"ssu: a distinct -o", nil, ssu("-o", "$D/d.tsv"), ""}, // runs
		{"faithpd: -o over -t", nil, []string{"faithpd", "-i", "$D/table.tsv", "-t", "$D/t.nwk", "-o", "$D/t.nwk"},
			"-o $D/t.nwk would overwrite -t $D/t.nwk"},
		{"faithpd: an artifact over -i through a symbolic link", []func(*testing.T, string){link("table.tsv", "pd.qza")},
			[]string{"faithpd", "-i", "$D/table.tsv", "-t", "$D/t.nwk", "-o", "$D/pd.qza"},
			"-o $D/pd.qza would overwrite -i $D/table.tsv (the same file)"},
		{"faithpd: a distinct -o", nil, []string{"faithpd", "-i", "$D/table.tsv", "-t", "$D/t.nwk", "-o", "$D/pd.tsv"}, ""},

		// One case or more for every other command that writes a file.
		{"distance", nil, []string{"distance", "--tree", "$D/g.tree", "--out", "$D/q.jsonl", "$D/p.jsonl", "$D/q.jsonl"},
			"--out $D/q.jsonl would overwrite B $D/q.jsonl"},
		{"distance: a taxonomy", nil, []string{"distance", "--tree", "taxonomy:$D/g.tree", "--out", "$D/g.tree", "$D/p.jsonl", "$D/q.jsonl"},
			"--out $D/g.tree would overwrite --tree $D/g.tree"},
		{"transport", nil, []string{"transport", "--tree", "$D/g.tree", "--out", "$D/p.jsonl", "$D/p.jsonl", "$D/q.jsonl"},
			"--out $D/p.jsonl would overwrite A $D/p.jsonl"},
		{"transport: over the tree through a link", []func(*testing.T, string){link("g.tree", "plans.jsonl")},
			[]string{"transport", "--tree", "$D/g.tree", "--out", "$D/plans.jsonl", "$D/p.jsonl", "$D/q.jsonl"},
			"--out $D/plans.jsonl would overwrite --tree $D/g.tree (the same file)"},
		{"barycenter", nil, []string{"barycenter", "--tree", "$D/g.tree", "--out", "$D/p.jsonl", "$D/p.jsonl"},
			"--out $D/p.jsonl would overwrite D $D/p.jsonl"},
		{"barycenter: over a taxonomy", nil, []string{"barycenter", "--tree", "taxonomy:$D/g.tree", "--out", "$D/g.tree", "$D/p.jsonl"},
			"--out $D/g.tree would overwrite --tree $D/g.tree"},
		{"eval", nil, []string{"eval", "--tree", "$D/g.tree", "--out", "$D/p.jsonl", "$D/p.jsonl", "$D/q.jsonl"},
			"--out $D/p.jsonl would overwrite PRED $D/p.jsonl"},
		{"eval: --trees", nil, []string{"eval", "--trees", "$D/g.tree,$D/h.tree", "--out", "$D/h.tree", "$D/p.jsonl", "$D/q.jsonl"},
			"--out $D/h.tree would overwrite --trees $D/h.tree"},
		{"train: --out over --data", nil, []string{"train", "--data", "$D/data.jsonl", "--tree", "$D/g.tree", "--out", "$D/data.jsonl"},
			"--out $D/data.jsonl would overwrite --data $D/data.jsonl"},
		{"train: --checkpoint over --tree", nil, []string{"train", "--data", "$D/data.jsonl", "--tree", "$D/g.tree", "--out", "$D/m.json", "--checkpoint", "$D/g.tree"},
			"--checkpoint $D/g.tree would overwrite --tree $D/g.tree"},
		{"train: --out over --checkpoint through a link", []func(*testing.T, string){link("ck", "m.json")},
			[]string{"train", "--data", "$D/data.jsonl", "--tree", "$D/g.tree", "--out", "$D/m.json", "--checkpoint", "$D/ck"},
			"--out $D/m.json would overwrite --checkpoint $D/ck (the same file)"},
		{"cv", nil, []string{"cv", "--data", "$D/data.jsonl", "--tree", "$D/g.tree", "--out", "$D/g.tree"},
			"--out $D/g.tree would overwrite --tree $D/g.tree"},
		{"predict: --targets over --model", nil, []string{"predict", "--model", "$D/model.json", "--data", "$D/data.jsonl", "--targets", "$D/model.json"},
			"--targets $D/model.json would overwrite --model $D/model.json"},
		{"predict: --out over --data", nil, []string{"predict", "--model", "$D/model.json", "--data", "$D/data.jsonl", "--out", "$D/data.jsonl"},
			"--out $D/data.jsonl would overwrite --data $D/data.jsonl"},
		{"text stats", nil, []string{"text", "stats", "--data", "$D/docs.jsonl", "--emb", "$D/emb.vec", "--out", "$D/emb.vec"},
			"--out $D/emb.vec would overwrite --emb $D/emb.vec"},
		{"text train: --checkpoint over --dev", nil, []string{"text", "train", "--train", "$D/docs.jsonl", "--dev", "$D/dev.jsonl", "--tree", "$D/g.tree", "--out", "$D/tm", "--checkpoint", "$D/dev.jsonl"},
			"--checkpoint $D/dev.jsonl would overwrite --dev $D/dev.jsonl"},
		{"text train: --out over --checkpoint", nil, []string{"text", "train", "--train", "$D/docs.jsonl", "--tree", "$D/g.tree", "--out", "$D/./ck", "--checkpoint", "$D/ck"},
			"--out $D/./ck would overwrite --checkpoint $D/ck"},
		{"text predict", nil, []string{"text", "predict", "--model", "$D/model.json", "--data", "$D/docs.jsonl", "--out", "$D/model.json"},
			"--out $D/model.json would overwrite --model $D/model.json"},
		{"text predict: --format fasttext, --out over --data through a hard link", []func(*testing.T, string){hard("docs.jsonl", "p.txt")},
			[]string{"text", "predict", "--model", "$D/model.json", "--data", "$D/docs.jsonl", "--format", "fasttext", "--top", "5", "--out", "$D/p.txt"},
			"--out $D/p.txt would overwrite --data $D/docs.jsonl (the same file)"},
		{"text predict: --consistent, --out over --tree", nil,
			[]string{"text", "predict", "--model", "$D/model.json", "--data", "$D/docs.jsonl", "--consistent", "--tree", "$D/g.tree", "--out", "$D/g.tree"},
			"--out $D/g.tree would overwrite --tree $D/g.tree"},
		{"tree build", nil, []string{"tree", "build", "--emb", "$D/emb.vec", "--labels", "$D/labels.txt", "--out", "$D/labels.txt"},
			"--out $D/labels.txt would overwrite --labels $D/labels.txt"},
		{"demo: two files of --dir made one by a link", []func(*testing.T, string){mkdir("demo"), link("targets.jsonl", "demo/figure1.tree")},
			[]string{"demo", "--dir", "$D/demo", "--labels", "10"},
			"a file of --dir $D/demo/targets.jsonl would overwrite a file of --dir $D/demo/figure1.tree (the same file)"},
		{"synth: two files of --out made one by a link", []func(*testing.T, string){mkdir("s"), link("tree.txt", "s/train.jsonl")},
			[]string{"synth", "--out", "$D/s", "--nodes", "5", "--samples", "3", "--test", "0", "--quiet"},
			"a file of --out $D/s/train.jsonl would overwrite a file of --out $D/s/tree.txt (the same file)"},
		{"experiment text: --train in --out", []func(*testing.T, string){mkdir("r"), copyFile("docs.jsonl", "r/docs.jsonl")},
			exp("text", "--train", "$D/r/docs.jsonl", "--tree", "$D/g.tree", "--out", "$D/r"),
			"--out $D/r could overwrite --train $D/r/docs.jsonl, which is inside that folder"},
		{"experiment text: --model bag, --emb in --out", []func(*testing.T, string){mkdir("r"), copyFile("emb.vec", "r/e.vec")},
			exp("text", "--model", "bag", "--fasttext", "none", "--train", "$D/docs.jsonl", "--tree", "$D/g.tree", "--emb", "$D/r/e.vec", "--out", "$D/r"),
			"--out $D/r could overwrite --emb $D/r/e.vec, which is inside that folder"},
		{"experiment text: --model bag, the fastText executable in --out", []func(*testing.T, string){mkdir("r"), executable("r/fasttext")},
			exp("text", "--model", "bag", "--fasttext", "$D/r/fasttext", "--train", "$D/docs.jsonl", "--tree", "$D/g.tree", "--out", "$D/r"),
			"--out $D/r could overwrite --fasttext $D/r/fasttext, which is inside that folder"},
		{"experiment labeltrees: --label-emb in --out through a link", []func(*testing.T, string){mkdir("r"), copyFile("emb.vec", "r/l.vec"), link("r", "rl")},
			exp("labeltrees", "--train", "$D/docs.jsonl", "--tree", "$D/g.tree", "--label-emb", "$D/r/l.vec", "--out", "$D/rl"),
			"--out $D/rl could overwrite --label-emb $D/r/l.vec, which is inside that folder"},
		{"experiment docknn: --emb in --out", []func(*testing.T, string){mkdir("r/v"), copyFile("emb.vec", "r/v/e.vec")},
			exp("docknn", "--train", "$D/docs.jsonl", "--test", "$D/dev.jsonl", "--emb", "$D/r/v/e.vec", "--out", "$D/r"),
			"--out $D/r could overwrite --emb $D/r/v/e.vec, which is inside that folder"},
	}
}

// writersWithoutInputs are the commands that write files but read none
// of the user's: no output of theirs can overwrite an input, so they have
// no case in overwriteCases (their report folders still go through the
// check, which finds nothing to refuse).
var writersWithoutInputs = map[string]bool{
	"experiment efficiency": true, "experiment synthetic": true, "experiment tsw": true, "experiment all": true,
}

// TestEveryWriterHasOverwriteCase: every command with an output flag
// (OutFile or OutDir) has a case in overwriteCases, so that a command
// added later is tested, and so wired to the check (fs.files,
// fs.checkFiles: see docs/library.md), before it is called done.
func TestEveryWriterHasOverwriteCase(t *testing.T) {
	tested := map[string]bool{}
	for _, c := range overwriteCases() {
		tested[strings.Join(c.args[:commandWords(c.args)], " ")] = true
	}
	for _, l := range leaves(t) {
		name := strings.Join(l.path, " ")
		var outputs []string
		l.fs.VisitAll(func(f *flag.Flag) {
			if _, ok := f.Value.(*outPath); ok {
				outputs = append(outputs, "--"+f.Name)
			}
		})
		if len(outputs) > 0 && !tested[name] && !writersWithoutInputs[name] {
			t.Errorf("twl %s writes %s but has no case in overwriteCases: check its files with fs.files and fs.checkFiles, and add one", name, strings.Join(outputs, ", "))
		}
	}
	// The tools' command lines (ssu, faithpd) parse no flags of twl's:
	// each writes -o, so each has a case.
	for _, c := range compatCommands {
		if !tested[c.name] {
			t.Errorf("twl %s writes -o but has no case in overwriteCases: check its files with checkCompatFiles, and add one", c.name)
		}
	}
}

// commandWords returns how many of args name the command: 2 for a
// subcommand (text train, unifrac merge, experiment docknn), else 1 (and
// for ssu and faithpd, whose arguments are the tools').
func commandWords(args []string) int {
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && lookupCompat(args[0]) == nil {
		return 2
	}
	return 1
}

// copyFile returns a setup step copying the file from to to, in the
// test's folder.
func copyFile(from, to string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		b, err := os.ReadFile(filepath.Join(dir, from))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, to), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot returns every entry under dir, by its path relative to dir:
// a file's contents, a link's target, "dir" for a folder.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			m[rel] = "link to " + target
			return err
		case d.IsDir():
			m[rel] = "dir"
		default:
			b, err := os.ReadFile(path)
			m[rel] = string(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
