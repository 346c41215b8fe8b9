package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The protocol names the experiments share: the reduced protocol, their
// default, and the paper's.
const (
	ProtocolReduced = "reduced"
	ProtocolPaper   = "paper"
)

// ErrConfigOf returns a new error for the ErrConfig of the experiment
// package named name: "name: invalid configuration". Each call returns a
// distinct error, so that errors.Is tells the experiments apart.
func ErrConfigOf(name string) error {
	return errors.New(name + ": invalid configuration")
}

// ConfigError is an invalid setting of an experiment's Config. Setting is
// the Config field ("Seeds"), Value the value given as text ("0"; empty
// when the problem is not one value, such as a missing input) and Problem
// what is wrong with it ("must be at least 1"). Kind is the experiment's
// ErrConfig, which errors.Is finds through it. A command that maps the
// Config fields to its flags prints it in its own words: "--seeds 0: must
// be at least 1".
type ConfigError struct {
	Kind    error
	Setting string
	Value   string
	Problem string
}

func (e *ConfigError) Error() string {
	s := e.Problem
	if e.Setting != "" {
		if e.Value != "" {
			s = e.Setting + " = " + e.Value + ": " + s
		} else {
			s = e.Setting + ": " + s
		}
	}
	if e.Kind != nil {
		s = e.Kind.Error() + ": " + s
	}
	return s
}

func (e *ConfigError) Unwrap() error { return e.Kind }

// Checker makes the ConfigErrors of one experiment's Resolve: Kind is its
// ErrConfig. Its methods return nil when the setting is valid.
type Checker struct{ Kind error }

// Bad returns the ConfigError of setting with value v (any value, written
// with %v; nil for none).
func (c Checker) Bad(setting string, v any, format string, args ...any) *ConfigError {
	e := &ConfigError{Kind: c.Kind, Setting: setting, Problem: fmt.Sprintf(format, args...)}
	switch v := v.(type) {
	case nil:
	case []int:
		e.Value = intsText(v)
	case []string:
		e.Value = strings.Join(v, ",")
	default:
		e.Value = fmt.Sprint(v)
	}
	return e
}

func intsText(v []int) string {
	b := []byte{}
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}

// Int sets *dst to *v when v is not nil (an unset setting keeps the
// protocol's value in *dst), and checks that the value set lies in
// [lo, hi].
func (c Checker) Int(dst *int, v *int, setting string, lo, hi int) error {
	if v == nil {
		return nil
	}
	if *v < lo || *v > hi {
		return c.Bad(setting, *v, "%s", rangeText(lo, hi))
	}
	*dst = *v
	return nil
}

// Positive sets *dst to *v when v is not nil, and checks that the value
// set is positive and finite.
func (c Checker) Positive(dst *float64, v *float64, setting string) error {
	if v == nil {
		return nil
	}
	if !(*v > 0) || math.IsInf(*v, 1) {
		return c.Bad(setting, *v, "must be positive and finite")
	}
	*dst = *v
	return nil
}

// Ints sets *dst to a sorted copy of v without duplicates when v is not
// nil, and checks that the list is not empty and each value lies in
// [lo, hi].
func (c Checker) Ints(dst *[]int, v []int, setting string, lo, hi int) error {
	if v != nil {
		*dst = slices.Clone(v)
	}
	if len(*dst) == 0 {
		return c.Bad(setting, nil, "is empty")
	}
	for _, x := range *dst {
		if x < lo || x > hi {
			return c.Bad(setting, v, "each must be %s", rangeText(lo, hi)[len("must be "):])
		}
	}
	slices.Sort(*dst)
	*dst = slices.Compact(*dst)
	return nil
}

// Subset returns the ids of all that ids names, in the order of all, or
// all when ids is nil. Empty lists, unknown and repeated names are errors.
func (c Checker) Subset(setting string, ids, all []string) ([]string, error) {
	if ids == nil {
		return slices.Clone(all), nil
	}
	if len(ids) == 0 {
		return nil, c.Bad(setting, nil, "names none; want some of %s", strings.Join(all, ", "))
	}
	for i, id := range ids {
		if !slices.Contains(all, id) {
			return nil, c.Bad(setting, ids, "unknown %q; want some of %s", id, strings.Join(all, ", "))
		}
		if slices.Contains(ids[:i], id) {
			return nil, c.Bad(setting, ids, "%q named twice", id)
		}
	}
	var out []string
	for _, id := range all {
		if slices.Contains(ids, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// rangeText says which values [lo, hi] holds.
func rangeText(lo, hi int) string {
	if hi == math.MaxInt {
		return fmt.Sprintf("must be at least %d", lo)
	}
	return fmt.Sprintf("must be from %d to %d", lo, hi)
}

// List writes ids as "a, b or c".
func List(ids []string) string {
	switch len(ids) {
	case 0:
		return ""
	case 1:
		return ids[0]
	}
	s := ""
	for i, id := range ids[:len(ids)-1] {
		if i > 0 {
			s += ", "
		}
		s += id
	}
	return s + " or " + ids[len(ids)-1]
}

// Setup is what every experiment's Run starts with: the progress writer
// (io.Discard for nil) and the context (context.Background for nil),
// returning the context's error when it is already done.
func Setup(progress io.Writer, ctx context.Context) (io.Writer, context.Context, error) {
	if progress == nil {
		progress = io.Discard
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return progress, ctx, ctx.Err()
}

// AsConfigError returns the ConfigError in err's chain, or nil.
func AsConfigError(err error) *ConfigError {
	var ce *ConfigError
	if errors.As(err, &ce) {
		return ce
	}
	return nil
}

// Protocol returns the protocol called name and its settings, the first of
// names for "" (values[i] being the settings of names[i]); a copy, so that
// the caller may change it.
func Protocol[S any](c Checker, name string, names []string, values ...S) (string, S, error) {
	if name == "" {
		name = names[0]
	}
	i := slices.Index(names, name)
	if i < 0 {
		var zero S
		return "", zero, c.Bad("Protocol", name, "unknown protocol; want %s", List(names))
	}
	return name, values[i], nil
}

// Difference is a number of a protocol beside the paper's: Phrase holds
// one %s for the number ("%s epochs", "learning rate %s"), and One, when
// not empty, is the phrase for Got = 1 ("%s epoch").
type Difference struct {
	Phrase, One string
	Got, Want   float64
}

// Differences returns, for each d whose Got is not its Want, the phrase
// "Got epochs instead of Want".
func Differences(ds ...Difference) []string {
	var out []string
	num := func(v float64) string {
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for _, d := range ds {
		if phrase := d.Phrase; d.Got != d.Want {
			if d.Got == 1 && d.One != "" {
				phrase = d.One
			}
			out = append(out, fmt.Sprintf(phrase, num(d.Got))+" instead of "+num(d.Want))
		}
	}
	return out
}

// Count is the Difference of a count: many and one are its phrases for
// other numbers and for 1 ("%s epochs", "%s epoch").
func Count(many, one string, got, want int) Difference {
	return Difference{Phrase: many, One: one, Got: float64(got), Want: float64(want)}
}

// TrainingDifferences is what the Differences of a trained experiment end
// with: those of ds, then of the number of seeds and the learning rate,
// then "losses [a b] only" when losses names fewer than all of the n
// losses.
func TrainingDifferences(seeds, paperSeeds int, lr, paperLR float64, losses []string, n int, ds ...Difference) []string {
	ds = append(ds[:len(ds):len(ds)], Count("%s seeds", "%s seed", seeds, paperSeeds),
		Difference{Phrase: "learning rate %s", Got: lr, Want: paperLR})
	d := Differences(ds...)
	if len(losses) != n {
		d = append(d, fmt.Sprintf("losses %v only", losses))
	}
	return d
}

// Or returns *p, or def when p is nil: an optional setting's value.
func Or[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// Plural writes n and the noun, singular for 1: "1 seed", "3 seeds".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// TreeOptions choose the trees built on points (package pointtree) of the
// experiments on tree-sliced distances: the branching ClusterK and the
// depth ClusterDepth of the clustering trees, the depth QuadDepth of the
// quadtrees; nil means pointtree's defaults, 4, 6 and 12.
type TreeOptions struct {
	ClusterK, ClusterDepth, QuadDepth *int
}

// TreeSettings are TreeOptions resolved, with the Lloyd steps of the
// clustering trees.
type TreeSettings struct {
	ClusterK     int `json:"cluster_k"`
	ClusterDepth int `json:"cluster_depth"`
	ClusterIters int `json:"cluster_iters"`
	QuadDepth    int `json:"quad_depth"`
}

// Resolve returns the settings of o, checked by c.
func (o TreeOptions) Resolve(c Checker) (TreeSettings, error) {
	s := TreeSettings{ClusterK: 4, ClusterDepth: 6, ClusterIters: 10, QuadDepth: 12}
	for _, err := range []error{c.Int(&s.ClusterK, o.ClusterK, "ClusterK", 2, 1000),
		c.Int(&s.ClusterDepth, o.ClusterDepth, "ClusterDepth", 1, 64), c.Int(&s.QuadDepth, o.QuadDepth, "QuadDepth", 1, 50)} {
		if err != nil {
			return s, err
		}
	}
	return s, nil
}

// RunOptions are how a caller watches and stops an experiment's Run:
// Progress receives its progress lines (nil: none), and Context, when not
// nil, stops it at its next step once it is done (each experiment says
// which step and what stays), Run then returning the context's error.
type RunOptions struct {
	Progress io.Writer
	Context  context.Context
}
