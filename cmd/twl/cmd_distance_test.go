package main

import (
	"context"
	"github.com/twl-ldl/twl/internal/race"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fig1Tree is the tree of Figure 1 of the paper with unit weights; fig1W the
// same tree with the weights written beside each edge.
const (
	fig1Tree = "animal\tmammal\nanimal\treptile\nmammal\tdog\nmammal\tcat\nreptile\tlizard\nreptile\tsnake\n"
	fig1W    = "animal\tmammal\t2\nanimal\treptile\t3\nmammal\tdog\t0.5\nmammal\tcat\t0.25\nreptile\tlizard\t1\nreptile\tsnake\t4\n"
)

func TestDistance(t *testing.T) {
	// Expected values by hand: the mass moves along the tree's paths, and
	// TW is the mass times the path length (unit weights unless fig1W).
	for _, tc := range []struct {
		name string
		tree string
		a, b string
		args []string
		want string
	}{
		{"point masses", fig1Tree,
			`{"dog": 1}` + "\n" + `{"snake": 1}` + "\n" + `{"animal": 1}`,
			`{"cat": 1}` + "\n" + `{"cat": 1}` + "\n" + `{"lizard": 1}`,
			nil,
			// dog→mammal→cat; snake→reptile→animal→mammal→cat; animal→reptile→lizard.
			"2\n4\n2\n"},
		{"split mass, array form", fig1Tree,
			`{"dog": 0.5, "cat": 0.5}` + "\n" + `[0.5, 0, 0, 0, 0, 0, 0.5]`,
			`{"mammal": 1}` + "\n" + `{"reptile": 1}`,
			nil,
			// each half moves one edge.
			"1\n1\n"},
		{"weighted tree", fig1W,
			`{"dog": 1}` + "\n" + `{"cat": 1}` + "\n" + `{"dog": 0.5, "cat": 0.5}`,
			`{"snake": 1}` + "\n" + `{"lizard": 1}` + "\n" + `{"mammal": 1}`,
			nil,
			// 0.5+2+3+4; 0.25+2+3+1; 0.5·0.5 + 0.5·0.25.
			"9.5\n6.25\n0.375\n"},
		{"normalize", fig1Tree,
			`{"dog": 2, "cat": 2}`,
			`{"mammal": 5}`,
			[]string{"--normalize"},
			"1\n"},
		{"pairwise", fig1Tree,
			`{"dog": 1}` + "\n\n" + `{"snake": 1}` + "\n",
			`{"cat": 1}` + "\n" + `{"lizard": 1}` + "\n" + `{"mammal": 1}`,
			[]string{"--pairwise"},
			"2\t4\t1\n4\t2\t3\n"},
		{"pairwise allows different counts", fig1Tree,
			`{"dog": 1}`,
			`{"cat": 1}` + "\n" + `{"dog": 1}`,
			[]string{"--pairwise", "--method", "tw"},
			"2\t0\n"},
		// utw: moving a unit over d costs d, destroying or creating one
		// costs λ; mass moves only when d < 2λ.
		{"utw", fig1Tree,
			`{"dog": 1}` + "\n" + `{"dog": 2, "cat": 1}` + "\n{}\n" + `[0, 0, 0, 1, 0, 0, 0]`,
			`{"cat": 1}` + "\n" + `{"mammal": 1}` + "\n" + `{"snake": 2}` + "\n" + `{"dog": 1}`,
			[]string{"--method", "utw", "--mass-cost", "2"},
			// dog→cat (2 < 4); one unit to mammal (1), two destroyed (4);
			// two created (4); nothing.
			"2\n5\n4\n0\n"},
		{"utw, small mass cost", fig1Tree,
			`{"dog": 1}` + "\n" + `{"dog": 2, "cat": 1}`,
			`{"cat": 1}` + "\n" + `{"mammal": 1}`,
			[]string{"--method=utw", "--mass-cost=0.5", "--pairwise"},
			// Row 1: destroy dog and create cat (0.5 + 0.5) rather than
			// move 2 edges; destroy dog and create mammal (1). Row 2: cat
			// stays on cat, the two units of dog are destroyed (1); one
			// unit to mammal (1) or destroyed and created (1), and two
			// more destroyed (1).
			"1\t1\n1\t2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := write(t, map[string]string{"t.tree": tc.tree, "a.jsonl": tc.a, "b.jsonl": tc.b})
			args := append([]string{"distance", "--tree", filepath.Join(dir, "t.tree")}, tc.args...)
			args = append(args, filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
			code, out, errOut := twl(t, "", args...)
			if code != 0 || out != tc.want || errOut != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, tc.want)
			}
		})
	}
}

// TestDistanceArgs checks flags after positional arguments, standard input,
// "--" and --out.
func TestDistanceArgs(t *testing.T) {
	dir := write(t, map[string]string{"t.tree": fig1Tree, "a.jsonl": `{"dog": 1}`, "-b.jsonl": `{"cat": 1}`})
	tr, a := filepath.Join(dir, "t.tree"), filepath.Join(dir, "a.jsonl")
	for _, tc := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"distance", a, "--tree", tr, filepath.Join(dir, "-b.jsonl")}},
		{`{"cat": 1}`, []string{"distance", "-tree=" + tr, a, "-"}},
		{`{"dog": 1}`, []string{"distance", "-", filepath.Join(dir, "-b.jsonl"), "--tree", tr}},
		{"", []string{"distance", "--tree", tr, a, "--", filepath.Join(dir, "-b.jsonl")}},
	} {
		code, out, errOut := twl(t, tc.stdin, tc.args...)
		if code != 0 || out != "2\n" {
			t.Errorf("twl %q: exit %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
	}

	outPath := filepath.Join(dir, "out.txt")
	code, out, errOut := twl(t, "", "distance", "--tree", tr, "--out", outPath, a, a)
	if got, _ := os.ReadFile(outPath); code != 0 || out != "" || string(got) != "0\n" {
		t.Errorf("--out: exit %d, stdout %q, stderr %q, file %q", code, out, errOut, got)
	}
}

func TestDistanceErrors(t *testing.T) {
	const ok = `{"cat": 1}` + "\n"
	for _, tc := range []struct {
		name  string
		files map[string]string // a.jsonl, b.jsonl, t.tree default to fine ones
		args  []string          // default: --tree t.tree a.jsonl b.jsonl
		code  int
		msgs  []string // parts of stderr; $D is the directory
	}{
		{"unknown label", map[string]string{"a.jsonl": ok + `{"fish": 1}`}, nil, 1,
			[]string{`$D/a.jsonl:2: unknown label: "fish"`}},
		{"negative mass", map[string]string{"b.jsonl": `{"dog": -0.5, "cat": 1.5}`}, nil, 1,
			[]string{`$D/b.jsonl:1: negative mass: "dog": -0.5`}},
		{"overflow", map[string]string{"a.jsonl": ok + ok + `{"cat": 1e999}`}, nil, 1,
			[]string{`$D/a.jsonl:3: non-finite mass`}},
		{"malformed JSON", map[string]string{"a.jsonl": `{"cat": 1`}, nil, 1,
			[]string{`$D/a.jsonl:1: syntax error: column 10:`}},
		{"NaN", map[string]string{"a.jsonl": `{"cat": NaN}`}, nil, 1,
			[]string{`$D/a.jsonl:1: syntax error`}},
		{"duplicate label", map[string]string{"a.jsonl": `{"cat": 0.5, "cat": 0.5}`}, nil, 1,
			[]string{`$D/a.jsonl:1: duplicate label: "cat"`}},
		{"all-zero row", map[string]string{"a.jsonl": "\n" + `{"cat": 0}`}, nil, 1,
			[]string{`$D/a.jsonl:2: all masses are zero`}},
		{"all-zero row with --normalize", map[string]string{"a.jsonl": `{}`},
			[]string{"--normalize", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 1,
			[]string{`$D/a.jsonl:1: all masses are zero`}},
		{"sum", map[string]string{"a.jsonl": `{"cat": 0.5}`}, nil, 1,
			[]string{`$D/a.jsonl:1: masses do not sum to 1: sum is 0.5`, "--normalize"}},
		{"wrong array length", map[string]string{"a.jsonl": `[1, 0]`}, nil, 1,
			[]string{`$D/a.jsonl:1: wrong number of masses: the array has 2 masses, the tree has 7 labels`}},
		{"more rows in A", map[string]string{"a.jsonl": ok + "\n" + ok + ok, "b.jsonl": ok + ok}, nil, 1,
			[]string{`$D/a.jsonl:4: distribution 3 has no partner: $D/a.jsonl has 3 distributions, $D/b.jsonl has 2`}},
		{"more rows in B", map[string]string{"a.jsonl": ok, "b.jsonl": ok + ok}, nil, 1,
			[]string{`$D/b.jsonl:2: distribution 2 has no partner: $D/a.jsonl has 1 distribution, $D/b.jsonl has 2`}},
		{"A empty", map[string]string{"a.jsonl": "", "b.jsonl": "\n" + ok}, nil, 1,
			[]string{`$D/b.jsonl:2: distribution 1 has no partner`}},
		{"both empty", map[string]string{"a.jsonl": "", "b.jsonl": "\n \n"}, nil, 1,
			[]string{`$D/a.jsonl: no distributions`}},
		{"pairwise, B empty", map[string]string{"b.jsonl": "\n"},
			[]string{"--pairwise", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 1,
			[]string{`$D/b.jsonl: no distributions`}},
		{"missing file", nil, []string{"--tree", "$D/t.tree", "$D/a.jsonl", "$D/missing.jsonl"}, 1,
			[]string{"$D/missing.jsonl", "no such file"}},
		{"directory as file", nil, []string{"--tree", "$D/t.tree", "$D/a.jsonl", "$D"}, 1,
			[]string{"$D: is a directory, not a file"}},
		{"missing tree", nil, []string{"--tree", "$D/nope.tree", "$D/a.jsonl", "$D/b.jsonl"}, 1,
			[]string{"$D/nope.tree", "no such file"}},
		{"bad tree", map[string]string{"t.tree": "a\tb\nb\ta\n"}, nil, 1,
			[]string{"$D/t.tree:2: "}},
		{"bad tree weight", map[string]string{"t.tree": "a\tb\t-1\n"}, nil, 1,
			[]string{"$D/t.tree:1: invalid weight"}},
		{"label of another tree", map[string]string{"t.tree": "x\ty\n"}, nil, 1,
			[]string{`$D/a.jsonl:1: unknown label: "cat"`}},
		{"no --tree", nil, []string{"$D/a.jsonl", "$D/b.jsonl"}, 2, []string{"--tree is required"}},
		{"one file", nil, []string{"--tree", "$D/t.tree", "$D/a.jsonl"}, 2, []string{"got 1 argument\n"}},
		{"three files", nil, []string{"--tree", "$D/t.tree", "$D/a.jsonl", "$D/a.jsonl", "$D/a.jsonl"}, 2, []string{"got 3 arguments"}},
		{"stdin twice", nil, []string{"--tree", "$D/t.tree", "-", "-"}, 2, []string{"only one of A and B"}},
		{"zero reg", nil, []string{"--method=sinkhorn", "--reg", "0", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 2,
			[]string{"--reg must be a positive number"}},
		{"infinite reg", nil, []string{"--method=sinkhorn", "--reg", "Inf", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 2,
			[]string{"--reg must be a positive number"}},
		{"zero iters", nil, []string{"--method=sinkhorn", "--iters", "0", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 2,
			[]string{"--iters must be at least 1"}},
		{"NaN tol", nil, []string{"--method=sinkhorn", "--tol", "NaN", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 2,
			[]string{"--tol must be a number"}},
		{"unknown method", nil, []string{"--method", "kl", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 2,
			[]string{`unknown --method "kl" (available: tw, emd, sinkhorn, utw)`}},
		{"utw without --mass-cost", nil, []string{"--method", "utw", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 2,
			[]string{"--method utw needs --mass-cost"}},
		{"--mass-cost without utw", nil, []string{"--mass-cost", "1", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 2,
			[]string{"--mass-cost applies only with --method utw, not --method tw"}},
		{"zero --mass-cost", nil, []string{"--method", "utw", "--mass-cost", "0", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 2,
			[]string{"--mass-cost must be a positive number, not 0"}},
		{"utw with --normalize", nil, []string{"--method", "utw", "--mass-cost", "1", "--normalize", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 2,
			[]string{"--normalize does not apply to --method utw"}},
		{"utw, negative mass", map[string]string{"b.jsonl": `{"dog": -0.5}`}, []string{"--method", "utw", "--mass-cost", "1", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 1,
			[]string{`$D/b.jsonl:1: negative mass: "dog": -0.5`}},
		{"unknown flag", nil, []string{"--tree", "$D/t.tree", "--pairwize", "$D/a.jsonl", "$D/b.jsonl"}, 2,
			[]string{"flag provided but not defined: --pairwize", "see 'twl distance --help'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"t.tree": fig1Tree, "a.jsonl": ok, "b.jsonl": ok}
			for k, v := range tc.files {
				files[k] = v
			}
			dir := write(t, files)
			outPath := filepath.Join(dir, "out.txt")
			if err := os.WriteFile(outPath, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			args := tc.args
			if args == nil {
				args = []string{"--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}
			}
			full := []string{"distance", "--out", outPath}
			for _, a := range args {
				full = append(full, strings.ReplaceAll(a, "$D", dir))
			}
			code, out, errOut := twl(t, "", full...)
			// A missing or empty file has no line to point at.
			withLine := !strings.Contains(tc.name, "missing") && !strings.Contains(tc.name, "empty") && !strings.Contains(tc.name, "directory")
			expectFailure(t, code, out, errOut, tc.code, tc.msgs, dir, withLine)
			if got, _ := os.ReadFile(outPath); string(got) != "old\n" {
				t.Errorf("--out file changed to %q", got)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != len(files)+1 {
				t.Errorf("%d files left in the directory, want %d", len(entries), len(files)+1)
			}
		})
	}
}

// TestDistanceGarbage feeds random mixtures of JSON fragments and bytes as A
// and as the tree, and checks that twl answers with a status, never a
// panic (twl fails the test on a panic).
func TestDistanceGarbage(t *testing.T) {
	frags := []string{`{`, `}`, `[`, `]`, `"cat"`, `"dog"`, `:`, `,`, `1`, `0.5`, `-1`, `1e999`, `NaN`,
		`null`, "\n", "\r\n", "\t", " ", "\x00", "\xff", "\ufeff", `"\u0063at"`, `"\`, `0`, `[0,0,0,0,1,0,0]`, "#", "a\tb"}
	rng := rand.New(rand.NewPCG(3, 4))
	dir := write(t, map[string]string{"t.tree": fig1Tree, "b.jsonl": `{"cat": 1}`})
	runs := 500
	if testing.Short() || race.Enabled {
		runs = 100 // a child process each, several times slower under race
	}
	for i := range runs {
		var sb strings.Builder
		for range rng.IntN(12) {
			sb.WriteString(frags[rng.IntN(len(frags))])
		}
		garbage := sb.String()
		args := []string{"distance", "--tree", filepath.Join(dir, "t.tree"), "-", filepath.Join(dir, "b.jsonl")}
		if i%5 == 4 {
			if err := os.WriteFile(filepath.Join(dir, "g.tree"), []byte(garbage), 0o644); err != nil {
				t.Fatal(err)
			}
			args[2] = filepath.Join(dir, "g.tree")
		}
		if i%7 == 6 {
			args = append(args, "--pairwise", "--normalize")
		}
		code, _, errOut := twl(t, garbage, args...)
		// Warnings (about the tree) may come first; the error is last.
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 0 && (code != 1 || !strings.HasPrefix(lines[len(lines)-1], "twl: ")) {
			t.Fatalf("input %q: exit %d, stderr %q", garbage, code, errOut)
		}
	}
}

// FuzzDistance runs "twl distance" on arbitrary standard input.
func FuzzDistance(f *testing.F) {
	for _, s := range []string{`{"cat": 1}`, `{"dog": 0.5, "cat": 0.5}`, "[0,0,0,0,1,0,0]\n\n", `{"cat": 1e999}`, "\xff{"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	dir := write(f, map[string]string{"t.tree": fig1Tree, "b.jsonl": `{"cat": 1}`})
	f.Fuzz(func(t *testing.T, in string, pairwise bool) {
		args := []string{"distance", "--tree", filepath.Join(dir, "t.tree"), "-", filepath.Join(dir, "b.jsonl")}
		if pairwise {
			args = append(args, "--pairwise")
		}
		code, out, errOut := twl(t, in, args...)
		switch {
		case code == 0 && errOut == "":
		case code == 1 && out == "" && strings.HasPrefix(errOut, "twl: "):
		default:
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
}

// TestDistancePairwiseBlocks checks --pairwise over more rows of A than tw
// computes at once (blocks of 256): 600 point masses on the leaves of fig1W
// against the four leaves, each distance the path length between two
// leaves, by hand from the weights beside the edges (all exact in binary).
func TestDistancePairwiseBlocks(t *testing.T) {
	leaves := []string{"dog", "cat", "lizard", "snake"}
	path := [4][4]string{
		{"0", "0.75", "6.5", "9.5"},
		{"0.75", "0", "6.25", "9.25"},
		{"6.5", "6.25", "0", "5"},
		{"9.5", "9.25", "5", "0"},
	}
	rng := rand.New(rand.NewPCG(3, 600))
	var a, want strings.Builder
	for range 600 {
		k := rng.IntN(4)
		a.WriteString(`{"` + leaves[k] + `": 1}` + "\n")
		want.WriteString(strings.Join(path[k][:], "\t") + "\n")
	}
	var b strings.Builder
	for _, l := range leaves {
		b.WriteString(`{"` + l + `": 1}` + "\n")
	}
	dir := write(t, map[string]string{"t.tree": fig1W, "a.jsonl": a.String(), "b.jsonl": b.String()})
	code, out, errOut := twl(t, "", "distance", "--pairwise", "--tree", filepath.Join(dir, "t.tree"),
		filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
	if code != 0 || out != want.String() || errOut != "" {
		t.Errorf("exit %d, stderr %q, stdout equal to the path lengths: %v", code, errOut, out == want.String())
	}
}

// TestDistancePairwiseSelf checks --pairwise --tree with A and B one file
// (the same path, or another path to the same file), whose pairs are
// computed once: 600 point masses on the leaves of fig1W against
// themselves, each distance the path length between two leaves, by hand
// (as TestDistancePairwiseBlocks); the same bytes as for a copy of the
// file, which goes a row of A at a time, in text and JSON; the same under
// a --max-memory that holds the prepared rows but not the 600×599/2
// distances (1.4 MB), which then go a row of A at a time; and a stop by
// SIGINT that leaves no file.
func TestDistancePairwiseSelf(t *testing.T) {
	leaves := []string{"dog", "cat", "lizard", "snake"}
	path := [4][4]string{
		{"0", "0.75", "6.5", "9.5"},
		{"0.75", "0", "6.25", "9.25"},
		{"6.5", "6.25", "0", "5"},
		{"9.5", "9.25", "5", "0"},
	}
	rng := rand.New(rand.NewPCG(5, 600))
	var a, want strings.Builder
	ks := make([]int, 600)
	for r := range ks {
		ks[r] = rng.IntN(4)
		a.WriteString(`{"` + leaves[ks[r]] + `": 1}` + "\n")
	}
	for _, k := range ks {
		for j, l := range ks {
			if j > 0 {
				want.WriteByte('\t')
			}
			want.WriteString(path[k][l])
		}
		want.WriteByte('\n')
	}
	dir := write(t, map[string]string{"t.tree": fig1W, "a.jsonl": a.String(), "copy.jsonl": a.String()})
	if err := os.Link(filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	run := func(flags []string, files ...string) string {
		t.Helper()
		args := append([]string{"distance", "--pairwise", "--tree", filepath.Join(dir, "t.tree")}, flags...)
		for _, f := range files {
			args = append(args, filepath.Join(dir, f))
		}
		code, out, errOut := twl(t, "", args...)
		if code != 0 || errOut != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errOut)
		}
		return out
	}
	if got := run(nil, "a.jsonl", "a.jsonl"); got != want.String() {
		t.Errorf("A = B: the matrix is not that of the path lengths")
	}
	for _, format := range []string{"text", "json"} {
		f := []string{"--format", format}
		ref := run(f, "a.jsonl", "copy.jsonl")
		for _, c := range []struct {
			flags []string
			files []string
		}{
			{f, []string{"a.jsonl", "a.jsonl"}},
			{f, []string{"link.jsonl", "a.jsonl"}},
			{append(f, "--max-memory", "1MB"), []string{"a.jsonl", "a.jsonl"}},
		} {
			if got := run(c.flags, c.files...); got != ref {
				t.Errorf("%v %v: not the bytes of A and a copy of it", c.flags, c.files)
			}
		}
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&stopSignal{os.Interrupt})
	var out, errb strings.Builder
	code := runContext(ctx, []string{"distance", "--pairwise", "--tree", filepath.Join(dir, "t.tree"), "--out", filepath.Join(dir, "d.tsv"),
		filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "a.jsonl")}, strings.NewReader(""), &out, &errb)
	if ents, _ := os.ReadDir(dir); code != 130 || len(ents) != 4 {
		t.Errorf("stopped: exit %d, %d files (want the 4 inputs), stderr %q", code, len(ents), errb.String())
	}
}
