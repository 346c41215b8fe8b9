package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDemo(t *testing.T) {
	start := time.Now()
	dir := filepath.Join(t.TempDir(), "demo")
	code, out, errOut := twl(t, "", "demo", "--labels", "1000", "--dir", dir)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("demo took %v", d)
	}
	// TW by hand on Figure 1 (unit weights): dog → mammal → cat is 2 edges,
	// snake → cat 4, mammal → cat 1; half the mass moving 2 or 4 edges
	// costs 1 or 2; 0.05·2 + 0.05·4 = 0.3. TV = ½Σ|p−q|, KL = −log p(cat).
	for _, want := range []string{
		"  animal\n  ├── mammal\n  │   ├── dog\n  │   └── cat\n  └── reptile\n      ├── lizard\n      └── snake\n",
		`{"dog": 1}                                    2                1         +Inf`,
		`{"snake": 1}                                  4                1         +Inf`,
		`{"mammal": 1}                                 1                1         +Inf`,
		`{"cat": 0.5, "dog": 0.5}                      1              0.5       0.6931`,
		`{"cat": 0.5, "snake": 0.5}                    2              0.5       0.6931`,
		`{"cat": 0.9, "dog": 0.05, "snake": 0.05}    0.3              0.1       0.1054`,
		"random tree of 1000 labels take",
		"Wrote figure1.tree, predictions.jsonl, targets.jsonl to " + dir,
		"Try next:\n  twl distance --tree " + dir + "/figure1.tree",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}

	// The files it wrote work with the distance command.
	code, out, errOut = twl(t, "", "distance", "--tree", filepath.Join(dir, "figure1.tree"),
		filepath.Join(dir, "predictions.jsonl"), filepath.Join(dir, "targets.jsonl"))
	if want := "2\n4\n1\n1\n2\n0.29999999999999993\n"; code != 0 || out != want {
		t.Errorf("distance on the demo files: exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}
