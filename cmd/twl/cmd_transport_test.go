package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTransport checks plans worked out by hand on the tree of Figure 1
// (unit weights): dog's unit splits between cat (2 edges) and snake (4);
// shared mass stays; --top keeps the largest moves.
func TestTransport(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		args []string
		want string
	}{
		{"split", `{"dog": 1}`, `{"cat": 0.5, "snake": 0.5}`, nil,
			`{"cost":3,"plan":[{"from":"dog","to":"cat","mass":0.5},{"from":"dog","to":"snake","mass":0.5}]}` + "\n"},
		{"shared mass stays, largest first", `{"dog": 0.75, "cat": 0.25}`, `{"dog": 0.5, "mammal": 0.5}`, nil,
			// 0.5 stays on dog; 0.25 of dog and 0.25 of cat go up one edge.
			`{"cost":0.5,"plan":[{"from":"dog","to":"dog","mass":0.5},{"from":"dog","to":"mammal","mass":0.25},{"from":"cat","to":"mammal","mass":0.25}]}` + "\n"},
		{"top", `{"dog": 0.75, "cat": 0.25}` + "\n" + `{"animal": 1}`, `{"dog": 0.5, "mammal": 0.5}` + "\n" + `{"animal": 1}`, []string{"--top", "1"},
			`{"cost":0.5,"plan":[{"from":"dog","to":"dog","mass":0.5}]}` + "\n" +
				`{"cost":0,"plan":[{"from":"animal","to":"animal","mass":1}]}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := write(t, map[string]string{"t.tree": fig1Tree, "a.jsonl": tc.a, "b.jsonl": tc.b})
			args := append([]string{"transport", "--tree", filepath.Join(dir, "t.tree")}, tc.args...)
			args = append(args, filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
			code, out, errOut := twl(t, "", args...)
			if code != 0 || out != tc.want || errOut != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, tc.want)
			}
		})
	}
}

// TestTransportRandom checks the plans of random pairs on a random
// weighted tree: each plan's moves add up to the rows' masses (1e-12), its
// cost equals twl distance's value for the pair, and Σ mass × path length,
// with path lengths walked from the tree file here, equals the cost.
func TestTransportRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 60))
	const n = 30
	var tr strings.Builder
	parent := make([]int, n)
	weight := make([]float64, n)
	parent[0] = -1
	for i := 1; i < n; i++ {
		parent[i] = rng.IntN(i)
		weight[i] = float64(rng.IntN(5)) / 2
		fmt.Fprintf(&tr, "n%d\tn%d\t%g\n", parent[i], i, weight[i])
	}
	row := func() map[string]float64 {
		m := map[string]float64{}
		var s float64
		for range 1 + rng.IntN(6) {
			v := float64(1 + rng.IntN(9))
			m[fmt.Sprintf("n%d", rng.IntN(n))] += v
			s += v
		}
		for k := range m {
			m[k] /= s
		}
		return m
	}
	var A, B []map[string]float64
	var fa, fb strings.Builder
	for range 20 {
		a, b := row(), row()
		A, B = append(A, a), append(B, b)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		fa.Write(append(ja, '\n'))
		fb.Write(append(jb, '\n'))
	}
	dir := write(t, map[string]string{"t.tree": tr.String(), "a.jsonl": fa.String(), "b.jsonl": fb.String()})
	code, out, errOut := twl(t, "", "transport", "--tree", filepath.Join(dir, "t.tree"), "--out", filepath.Join(dir, "p.jsonl"),
		filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
	if code != 0 || out != "" || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, dist, errOut := twl(t, "", "distance", "--tree", filepath.Join(dir, "t.tree"), filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
	if code != 0 {
		t.Fatalf("distance: exit %d, %q", code, errOut)
	}
	dists := strings.Fields(dist)
	pathLen := func(u, v int) float64 {
		anc := map[int]float64{}
		var d float64
		for x := u; x >= 0; x = parent[x] {
			anc[x] = d
			if x > 0 {
				d += weight[x]
			}
		}
		d = 0
		for x := v; ; x = parent[x] {
			if du, ok := anc[x]; ok {
				return du + d
			}
			d += weight[x]
		}
	}
	f, err := os.Open(filepath.Join(dir, "p.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	r := 0
	for ; sc.Scan(); r++ {
		var p struct {
			Cost float64
			Plan []struct {
				From, To string
				Mass     float64
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		ma, mb := map[string]float64{}, map[string]float64{}
		var c float64
		for _, m := range p.Plan {
			ma[m.From] += m.Mass
			mb[m.To] += m.Mass
			u, _ := strconv.Atoi(m.From[1:])
			v, _ := strconv.Atoi(m.To[1:])
			c += m.Mass * pathLen(u, v)
		}
		for _, side := range []struct{ got, want map[string]float64 }{{ma, A[r]}, {mb, B[r]}} {
			for k, v := range side.want {
				if math.Abs(side.got[k]-v) > 1e-12 {
					t.Errorf("row %d: marginal at %s: %v, want %v", r+1, k, side.got[k], v)
				}
			}
			if len(side.got) != len(side.want) {
				t.Errorf("row %d: marginal on %d labels, want %d", r+1, len(side.got), len(side.want))
			}
		}
		d, _ := strconv.ParseFloat(dists[r], 64)
		if math.Abs(p.Cost-d) > 1e-12*max(1, d) || math.Abs(c-d) > 1e-12*max(1, d) {
			t.Errorf("row %d: cost %v, from the moves %v, twl distance %v", r+1, p.Cost, c, d)
		}
	}
	if r != 20 {
		t.Errorf("%d plans, want 20", r)
	}
}

func TestTransportErrors(t *testing.T) {
	const ok = `{"cat": 1}` + "\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		args  []string
		code  int
		msgs  []string
	}{
		{"unknown label", map[string]string{"a.jsonl": ok + `{"fish": 1}`}, nil, 1,
			[]string{`$D/a.jsonl:2: unknown label: "fish"`}},
		{"sum", map[string]string{"b.jsonl": `{"cat": 0.5}`}, nil, 1,
			[]string{`$D/b.jsonl:1: masses do not sum to 1`, "--normalize"}},
		{"more rows in A", map[string]string{"a.jsonl": ok + ok}, nil, 1,
			[]string{`$D/a.jsonl:2: distribution 2 has no partner`}},
		{"negative mass", map[string]string{"b.jsonl": ok + `{"cat": -1, "dog": 2}`}, nil, 1,
			[]string{`$D/b.jsonl:2: negative mass: "cat": -1`}},
		{"syntax", map[string]string{"a.jsonl": ok + `{"cat": 1,`}, nil, 1,
			[]string{`$D/a.jsonl:2: syntax error`}},
		// A line of 3 MB: a sixteenth of --max-memory 32MiB is 2 MiB.
		{"line over --max-memory", map[string]string{"a.jsonl": `{"cat": 1` + strings.Repeat(`, "dog": 0`, 300_000) + "}\n"},
			[]string{"--max-memory", "32MiB", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 1,
			[]string{`$D/a.jsonl:1: line longer than 2.00 MiB`, "(under --max-memory 32MiB)"}},
		{"bad tree", map[string]string{"t.tree": "a\tb\t-1\n"}, nil, 1,
			[]string{"$D/t.tree:1: invalid weight"}},
		{"negative --top", nil, []string{"--top", "-1", "--tree", "$D/t.tree", "$D/a.jsonl", "$D/b.jsonl"}, 2,
			[]string{"--top must be 0 (all moves) or more"}},
		{"no --tree", nil, []string{"$D/a.jsonl", "$D/b.jsonl"}, 2, []string{"--tree is required"}},
		{"one file", nil, []string{"--tree", "$D/t.tree", "$D/a.jsonl"}, 2, []string{"got 1 argument"}},
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
			full := []string{"transport", "--out", outPath}
			for _, a := range args {
				full = append(full, strings.ReplaceAll(a, "$D", dir))
			}
			code, out, errOut := twl(t, "", full...)
			expectFailure(t, code, out, errOut, tc.code, tc.msgs, dir, tc.code == 1)
			if got, _ := os.ReadFile(outPath); string(got) != "old\n" {
				t.Errorf("--out file changed to %q", got)
			}
		})
	}
}
