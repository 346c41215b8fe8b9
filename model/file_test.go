package model_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/tree"
)

// sampleFile returns a valid file with awkward numbers (subnormal, huge,
// negative zero, many digits) and label names that need escaping in JSON.
func sampleFile(t testing.TB) *model.File {
	t.Helper()
	m := model.NewLinear(3, 4, rand.NewPCG(1, 2))
	m.Params[0] = 5e-324
	m.Params[1] = -1.7976931348623157e308
	m.Params[2] = math.Copysign(0, -1)
	m.Params[3] = 0.1 + 0.2
	f := model.NewFile(m, []string{"a \"quoted\" label", "<root>", "Épique & fantasy", "\\"})
	f.Tree = tree.Ref{Source: "chain:4", SHA256: strings.Repeat("0123456789abcdef", 4)}
	f.Standardize = &model.Standardization{Mean: []float64{1, -2.5, 1e-300}, Scale: []float64{0.5, 3, 1e300}}
	f.Loss = "kl+0.5·tw"
	val := 0.25
	f.Train = &model.TrainInfo{Data: "d.jsonl", Rows: 10, ValRows: 2, Epochs: 5, EpochsRun: 4, BestEpoch: 3,
		Stopped: true, Batch: 2, LR: 1e-3, WeightDecay: 0.03, Patience: 1, Seed: math.MaxUint64,
		TrainLoss: 0.5, ValLoss: &val, Seconds: 0.01}
	return f
}

func save(t testing.TB, f *model.File) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := model.Save(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sameBits reports whether two files hold the same values, floats compared
// bit for bit (so that −0 and +0 differ). The version and the checksum as
// read are left out: Save writes the current version and its own sum.
func sameBits(a, b *model.File) bool {
	a2, b2 := *a, *b
	a2.Version, b2.Version, a2.SHA256, b2.SHA256 = 0, 0, "", ""
	a, b = &a2, &b2
	bits := func(f *model.File) []uint64 {
		var out []uint64
		add := func(x []float64) {
			for _, v := range x {
				out = append(out, math.Float64bits(v))
			}
		}
		for _, row := range f.W {
			add(row)
		}
		add(f.B)
		if f.Standardize != nil {
			add(f.Standardize.Mean)
			add(f.Standardize.Scale)
		}
		return out
	}
	return reflect.DeepEqual(bits(a), bits(b)) && reflect.DeepEqual(a, b)
}

func TestFileRoundTrip(t *testing.T) {
	f := sampleFile(t)
	data := save(t, f)
	g, err := model.Load(bytes.NewReader(data), "m.model")
	if err != nil {
		t.Fatalf("Load: %v\n%s", err, data)
	}
	if !sameBits(f, g) {
		t.Errorf("round trip changed the file:\n%+v\n%+v", f, g)
	}
	if g.Version != 2 || g.SHA256 != f.ParamsSHA256() {
		t.Errorf("read version %d, checksum %q; want 2 and %q", g.Version, g.SHA256, f.ParamsSHA256())
	}
	// Saving again gives the same bytes: the format is canonical.
	if again := save(t, g); !bytes.Equal(again, data) {
		t.Errorf("second Save differs:\n%s\n%s", data, again)
	}
	// No standardization and no training record: null, and back.
	f.Standardize, f.Train = nil, nil
	data = save(t, f)
	if !bytes.Contains(data, []byte(`"standardize": null`)) || !bytes.Contains(data, []byte(`"train": null`)) {
		t.Errorf("nil fields not written as null:\n%s", data)
	}
	if g, err := model.Load(bytes.NewReader(data), "m.model"); err != nil || !sameBits(f, g) {
		t.Errorf("round trip without standardization: %v", err)
	}
}

// TestFileLayout checks the line-per-field layout that makes line numbers
// in errors useful: one row of W per line.
func TestFileLayout(t *testing.T) {
	f := sampleFile(t)
	data := string(save(t, f))
	lines := strings.Split(data, "\n")
	for _, want := range []string{`  "format": "twl-model",`, `  "version": 2,`, `  "model": "softmax-linear",`, `  "sha256": "` + f.ParamsSHA256() + `",`, `  "in": 3,`, `  "W": [`, `  ],`, "}", ""} {
		found := false
		for _, l := range lines {
			found = found || l == want
		}
		if !found {
			t.Errorf("no line %q in\n%s", want, data)
		}
	}
	if !strings.Contains(data, `"<root>"`) || !strings.Contains(data, `"Épique & fantasy"`) {
		t.Errorf("labels escaped more than JSON needs:\n%s", data)
	}
	if n := strings.Count(data, "\n    ["); n != 4 {
		t.Errorf("%d lines of W, want 4", n)
	}
}

func TestFileLinearAndPredict(t *testing.T) {
	f := sampleFile(t)
	f.W = [][]float64{{1, 2, 3}, {0, 0, 0}, {-1, 0, 1}, {0.5, 0.5, 0.5}}
	f.B = []float64{0, 1, -1, 0}
	f.Standardize = &model.Standardization{Mean: []float64{1, 2, 3}, Scale: []float64{2, 4, 0.5}}
	m := f.Linear()
	if m.In != 3 || m.Out != 4 || !reflect.DeepEqual(m.W(), []float64{1, 2, 3, 0, 0, 0, -1, 0, 1, 0.5, 0.5, 0.5}) ||
		!reflect.DeepEqual(m.B(), f.B) {
		t.Fatalf("Linear: %+v", m)
	}
	X := []float64{3, 6, 3.5, 1, 2, 3}
	orig := append([]float64(nil), X...)
	P := make([]float64, 8)
	f.Predict(P, X)
	if !reflect.DeepEqual(X, orig) {
		t.Errorf("Predict changed X")
	}
	// Row 1 standardizes to z = (1, 1, 1): logits 6, 1, −1, 1.5; row 2 to
	// z = 0: logits b. Softmax by definition.
	for r, z := range [][]float64{{6, 1, -1, 1.5}, {0, 1, -1, 0}} {
		var s float64
		for _, v := range z {
			s += math.Exp(v)
		}
		for j, v := range z {
			if want := math.Exp(v) / s; math.Abs(P[r*4+j]-want) > 1e-15 {
				t.Errorf("P[%d][%d] = %v, want %v", r, j, P[r*4+j], want)
			}
		}
	}
	if lt := f.LabelTree(); lt.Len() != 4 || lt.Name(0) != f.Labels[0] || lt.Name(3) != `\` {
		t.Errorf("LabelTree: %v %v", lt, lt.Names())
	}
}

// TestSaveInvalid checks that Save refuses what Load would reject, and
// writes nothing then.
func TestSaveInvalid(t *testing.T) {
	for name, spoil := range map[string]func(f *model.File){
		"NaN weight":     func(f *model.File) { f.W[1][2] = math.NaN() },
		"infinite bias":  func(f *model.File) { f.B[0] = math.Inf(-1) },
		"short row":      func(f *model.File) { f.W[0] = f.W[0][:2] },
		"zero scale":     func(f *model.File) { f.Standardize.Scale[1] = 0 },
		"duplicate name": func(f *model.File) { f.Labels[1] = f.Labels[0] },
		"empty loss":     func(f *model.File) { f.Loss = "" },
		"bad hash":       func(f *model.File) { f.Tree.SHA256 = "ABC" },
		"NaN val loss":   func(f *model.File) { v := math.NaN(); f.Train.ValLoss = &v },
	} {
		f := sampleFile(t)
		spoil(f)
		var b bytes.Buffer
		err := model.Save(&b, f)
		if !errors.Is(err, model.ErrInvalid) || b.Len() != 0 {
			t.Errorf("%s: Save returned %v and wrote %d bytes", name, err, b.Len())
		}
	}
}

// TestLoadErrors checks every kind of bad file: the sentinel, the line
// where the problem is (0: none), and the words of the message.
func TestLoadErrors(t *testing.T) {
	good := string(save(t, sampleFile(t)))
	replace := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("sample file lacks %q", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	lineOf := func(s, sub string) int { return 1 + strings.Count(s[:strings.Index(s, sub)], "\n") }
	wLine := lineOf(good, `  "W": [`)
	for _, tc := range []struct {
		name, text string
		err        error
		line       int
		msg        string
	}{
		{"empty", "", model.ErrNotModel, 0, "empty"},
		{"blank", " \n\t\n", model.ErrNotModel, 0, "empty"},
		{"not JSON", "hello\n", model.ErrNotModel, 1, "syntax"},
		{"array", "[1, 2]\n", model.ErrNotModel, 1, "want an object"},
		{"null", "null\n", model.ErrNotModel, 0, `no "format"`},
		{"truncated", good[:len(good)/2], model.ErrNotModel, lineOf(good, good[len(good)/2-5:len(good)/2]), "syntax"},
		{"trailing data", good + "{}\n", model.ErrNotModel, strings.Count(good, "\n") + 1, "after top-level value"},
		{"syntax error in W", replace(`  "W": [`+"\n    [", `  "W": [`+"\n    [,"), model.ErrNotModel, wLine + 1, "syntax"},
		{"other format", replace(`"twl-model"`, `"twl-checkpoint/1"`), model.ErrNotModel, 0, `"format" is "twl-checkpoint/1"`},
		{"version 3", replace(`"version": 2`, `"version": 3`), model.ErrVersion, 0, "version 3; this twl reads versions 1 to 2"},
		{"version 0", replace(`"version": 2`, `"version": 0`), model.ErrVersion, 0, "version 0"},
		{"version string", replace(`"version": 2`, `"version": "2"`), model.ErrVersion, 0, `version "2"`},
		// The checksum: any change to what predictions depend on.
		{"weight changed", replace(`[5e-324,`, `[1e-323,`), model.ErrInvalid, 0, `the checksum "sha256" does not match the parameters (a damaged file)`},
		{"label changed", replace(`"<root>"`, `"<rooT>"`), model.ErrInvalid, 0, `the checksum "sha256" does not match`},
		{"tree changed", replace(`"source":"chain:4"`, `"source":"chain:5"`), model.ErrInvalid, 0, `the checksum "sha256" does not match`},
		{"mean changed", replace(`"mean": [1,`, `"mean": [2,`), model.ErrInvalid, 0, `the checksum "sha256" does not match`},
		{"no checksum", replace(`  "sha256": "`, `  "sha257": "`), model.ErrInvalid, 0, `no "sha256"`},
		{"checksum in version 1", replace(`"version": 2`, `"version": 1`), model.ErrInvalid, 0, `"sha256" in a version 1 file, which has none`},
		{"null checksum", replace(`  "sha256": "`, `  "sha256": null, "x": "`), model.ErrInvalid, lineOf(good, `  "sha256": "`), `"sha256" is null, want a string`},
		{"other model", replace(`"softmax-linear"`, `"mlp"`), model.ErrVersion, 0, `"mlp"`},
		{"missing b", replace(`  "b": [`, `  "c": [`), model.ErrInvalid, 0, `no "b"`},
		{"unknown field", replace(`  "in": 3,`, `  "in": 3, "extra": 1,`), model.ErrInvalid, 0, `unknown field "extra"`},
		{"in is a string", replace(`"in": 3`, `"in": "3"`), model.ErrInvalid, lineOf(good, `"in": 3`), `"in"`},
		{"huge number", replace(`"lr":0.001`, `"lr":1e999`), model.ErrInvalid, lineOf(good, `"lr"`), "1e999"},
		{"in is zero", replace(`"in": 3`, `"in": 0`), model.ErrInvalid, 0, `"in" is 0`},
		{"in differs", replace(`"in": 3`, `"in": 4`), model.ErrInvalid, 0, `row 1 of "W" has 3 numbers, want "in" = 4`},
		{"no labels", replace(`"labels": [`, `"labels": [], "x": [`), model.ErrInvalid, 0, ""},
		{"empty label", replace(`"<root>"`, `""`), model.ErrInvalid, 0, "label 2: empty name"},
		{"duplicate label", replace(`"<root>"`, `"\\"`), model.ErrInvalid, 0, "label 4"},
		{"bad hash", replace(`"0123456789abcdef0123`, `"0123456789ABCDEF0123`), model.ErrInvalid, 0, "sha256"},
		{"negative scale", replace(`"scale": [0.5`, `"scale": [-0.5`), model.ErrInvalid, 0, "scale 1 is -0.5"},
		{"scale count", replace(`"scale": [0.5,`, `"scale": [`), model.ErrInvalid, 0, "2 scales"},
		{"repeated key", replace(`  "in": 3,`, `  "in": 3,`+"\n"+`  "in": 4,`), model.ErrInvalid, lineOf(good, `"in": 3`) + 1, `key "in" appears twice`},
		{"key repeated in another case", replace(`  "b": [`, `  "B": [1], "b": [`), model.ErrInvalid, lineOf(good, `  "b": [`), `keys "B" and "b"`},
		{"repeated nested key", replace(`"epochs":5`, `"epochs":5,"epochs":6`), model.ErrInvalid, lineOf(good, `"epochs":5`), `key "epochs" appears twice`},
		{"escaped repeated key", replace(`  "in": 3,`, `  "in": 3, "\u0069n": 4,`), model.ErrInvalid, lineOf(good, `"in": 3`), `key "in" appears twice`},
		{"negative epochs", replace(`"epochs":5`, `"epochs":-5`), model.ErrInvalid, 0, `"epochs" is -5`},
		// A null is read by encoding/json as if the field were absent (0,
		// "", nil); only "standardize" and "train" may be null.
		{"null weight", replace(`[5e-324,`, `[null,`), model.ErrInvalid, wLine + 1, `"W", row 1, number 1 is null, want a number`},
		{"null bias", replace(`  "b": [`, `  "b": [null, `), model.ErrInvalid, lineOf(good, `  "b": [`), `"b", number 1 is null, want a number`},
		{"null in", replace(`"in": 3`, `"in": null`), model.ErrInvalid, lineOf(good, `"in": 3`), `"in" is null, want a number`},
		{"null mean", replace(`"mean": [1,`, `"mean": [1, null,`), model.ErrInvalid, lineOf(good, `"mean"`), `"standardize", "mean", number 2 is null`},
		{"null mean list", replace(`"mean": [1,-2.5,1e-300]`, `"mean": null`), model.ErrInvalid, lineOf(good, `"mean"`), `"standardize", "mean" is null, want a number`},
		{"null lr", replace(`"lr":0.001`, `"lr":null`), model.ErrInvalid, lineOf(good, `"lr"`), `"train", "lr" is null, want a number`},
		{"null val_loss", replace(`"val_loss":0.25`, `"val_loss":null`), model.ErrInvalid, lineOf(good, `"lr"`), `"train", "val_loss" is null`},
		{"null label", replace(`"<root>"`, `null`), model.ErrInvalid, lineOf(good, `"<root>"`), `"labels", item 2 is null, want a string`},
		{"null tree", replace(`"tree": {`, `"tree": null, "x": {`), model.ErrInvalid, lineOf(good, `"tree"`), `"tree" is null, want an object`},
		{"null W row", replace(`  "W": [`+"\n    [", `  "W": [`+"\n    null, ["), model.ErrInvalid, wLine + 1, `"W", row 1 is null, want a list of numbers`},
		{"null version", replace(`"version": 2`, `"version": null`), model.ErrVersion, 0, "version null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := model.Load(strings.NewReader(tc.text), "dir/m.model")
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			msg := err.Error()
			prefix := "dir/m.model: "
			if tc.line > 0 {
				prefix = fmt.Sprintf("dir/m.model:%d: ", tc.line)
			}
			if !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q, want prefix %q and %q", msg, prefix, tc.msg)
			}
		})
	}
	// Counts that disagree with the labels.
	f := sampleFile(t)
	f.B = f.B[:3]
	f.W = f.W[:3]
	f.Labels = f.Labels[:3]
	three := string(save(t, f))
	for name, text := range map[string]string{
		"W count": strings.Replace(three, `"labels": [`, `"labels": ["x",`, 1),
	} {
		_, err := model.Load(strings.NewReader(text), "m")
		if !errors.Is(err, model.ErrInvalid) || !strings.Contains(err.Error(), `"W" has 3 rows, want one per label (4)`) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestLoadNullsAllowed checks the two places where null is the format's
// own value: "standardize" (features used as they are) and "train" (no
// record), and that a null inside a string is not mistaken for one.
func TestLoadNullsAllowed(t *testing.T) {
	f := sampleFile(t)
	f.Standardize, f.Train = nil, nil
	f.Loss = "null"
	f.Labels[1] = "null"
	data := save(t, f)
	g, err := model.Load(bytes.NewReader(data), "m.model")
	if err != nil || !sameBits(f, g) {
		t.Errorf("nulls of the format: %v\n%s", err, data)
	}
}

// TestTreeRefOf checks the reference to a tree against a hash computed
// outside Go: tree.Chain(3).Format() is "0\t1\t1\n1\t2\t1\n", whose
// SHA-256 by `printf '0\t1\t1\n1\t2\t1\n' | sha256sum` is e17aca84…3141c02.
// The reference validates in a File and matches that tree only.
func TestTreeRefOf(t *testing.T) {
	const want = "e17aca845f00659942e04a67d9e74a58872b247f7125bac9920fc514d3141c02"
	ch := tree.Chain(3)
	if got := ch.Format(); got != "0\t1\t1\n1\t2\t1\n" {
		t.Fatalf("Chain(3).Format() = %q; the expected hash is of another text", got)
	}
	ref := tree.RefOf(ch, "chain:3")
	if ref.Source != "chain:3" || ref.SHA256 != want || ch.Hash() != want {
		t.Errorf("tree.RefOf = %+v, want source chain:3 and sha256 %s", ref, want)
	}
	if !ref.Matches(ch) || !ref.Matches(tree.Chain(3)) || ref.Matches(tree.Star(3)) || ref.Matches(tree.Chain(4)) {
		t.Error("Matches: want true for Chain(3) only")
	}
	f := sampleFile(t)
	f.Tree = ref
	if err := f.Validate(); err != nil {
		t.Errorf("a file with tree.RefOf's reference: %v", err)
	}
}

// TestLoadReadError checks that an I/O error is reported with the name.
func TestLoadReadError(t *testing.T) {
	_, err := model.Load(errReader{}, "m.model")
	if err == nil || !strings.HasPrefix(err.Error(), "m.model: ") || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("error %v", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

// FuzzLoad checks that Load never panics, that every error it returns names
// the file, and that a file it accepts survives Save and Load unchanged.
func FuzzLoad(f *testing.F) {
	good := save(f, sampleFile(f))
	f.Add(good)
	f.Add(good[:len(good)/3])
	f.Add([]byte(`{"format":"twl-model","version":1}`))
	f.Add([]byte(`{"format":"twl-model","version":1,"model":"softmax-linear","in":1,"labels":["a"],` +
		`"tree":{"source":"s","sha256":"` + strings.Repeat("ab", 32) + `"},"standardize":null,"loss":"kl","train":null,"W":[[1]],"b":[0]}`))
	f.Add([]byte("null"))
	f.Add([]byte(`{"W": [[1e999]]}`))
	f.Add(bytes.Replace(good, []byte("[5e-324,"), []byte("[null,"), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := model.Load(bytes.NewReader(data), "fuzz.model")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.model") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		var b bytes.Buffer
		if err := model.Save(&b, m); err != nil {
			t.Fatalf("Save of a loaded file: %v", err)
		}
		m2, err := model.Load(&b, "again")
		if err != nil || !sameBits(m, m2) {
			t.Fatalf("Save/Load changed a loaded file: %v", err)
		}
		// A loaded file is usable.
		P := make([]float64, len(m.Labels))
		m.Predict(P, make([]float64, m.In))
	})
}

func ExampleSave() {
	m := &model.Linear{In: 2, Out: 3, Params: []float64{0.5, -1, 0, 2, 0.25, 0.125, 0, 0.1, -0.1}}
	f := model.NewFile(m, []string{"low", "mid", "high"})
	f.Tree = tree.Ref{Source: "chain:3", SHA256: strings.Repeat("0", 64)}
	f.Loss = "kl"
	if err := model.Save(os.Stdout, f); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "format": "twl-model",
	//   "version": 2,
	//   "model": "softmax-linear",
	//   "sha256": "339e7ec51dc8076c2cb26a3ac97b59e28be1ed8a42fb91b398a67073965439d4",
	//   "in": 2,
	//   "labels": ["low","mid","high"],
	//   "tree": {"source":"chain:3","sha256":"0000000000000000000000000000000000000000000000000000000000000000"},
	//   "standardize": null,
	//   "loss": "kl",
	//   "train": null,
	//   "W": [
	//     [0.5,-1],
	//     [0,2],
	//     [0.25,0.125]
	//   ],
	//   "b": [0,0.1,-0.1]
	// }
}
