package synth

import (
	"errors"
	"fmt"
	"math"
)

// ErrConfig is wrapped by the errors that report an invalid Config.
var ErrConfig = errors.New("synth: invalid configuration")

// Dist is the distribution of the entries of x, W₁ or W₂.
type Dist int

const (
	// Normal is the standard normal N(0, 1) (numpy.random.randn,
	// torch.randn). The default.
	Normal Dist = iota
	// Uniform is U[0, 1) (numpy.random.rand, torch.rand).
	Uniform
	// Symmetric is U[−1, 1).
	Symmetric
)

var distNames = []string{"normal", "uniform", "symmetric"}

// String returns "normal", "uniform" or "symmetric".
func (d Dist) String() string { return enumName(distNames, int(d), "Dist") }

// MarshalText implements encoding.TextMarshaler.
func (d Dist) MarshalText() ([]byte, error) { return marshalEnum(distNames, int(d), "Dist") }

// UnmarshalText implements encoding.TextUnmarshaler; it accepts the names
// String returns.
func (d *Dist) UnmarshalText(b []byte) error {
	return unmarshalEnum(distNames, (*int)(d), b, "distribution")
}

// Input says which vector of Algorithm 1 is returned as the features.
type Input int

const (
	// Raw is the random n-vector x before the two layers. The default.
	Raw Input = iota
	// Hidden is the m-vector h = sigmoid(W₁ᵀx) after the first layer.
	Hidden
	// Output is the (l+1)-vector o = sigmoid(W₂ᵀh), which Algorithm 1 as
	// printed returns. Its arg-max and arg-min name v and u and its last
	// entry is σ/Scale, so it leaks the target's parameters into the
	// features.
	Output
)

var inputNames = []string{"raw", "hidden", "output"}

// String returns "raw", "hidden" or "output".
func (in Input) String() string { return enumName(inputNames, int(in), "Input") }

// MarshalText implements encoding.TextMarshaler.
func (in Input) MarshalText() ([]byte, error) { return marshalEnum(inputNames, int(in), "Input") }

// UnmarshalText implements encoding.TextUnmarshaler; it accepts the names
// String returns.
func (in *Input) UnmarshalText(b []byte) error {
	return unmarshalEnum(inputNames, (*int)(in), b, "input")
}

// Sign is the sign of the exponent in F_vuσ(s) ∝ exp(±d(v,s)/σ²) + exp(±d(u,s)/σ²).
type Sign int

const (
	// Decay is −: mass decays with the distance from v and u, a kernel
	// centred on them. The default.
	Decay Sign = iota
	// Grow is +, the formula as printed in the paper: mass grows with the
	// distance from v and u, most of it on the nodes farthest from them.
	Grow
)

var signNames = []string{"decay", "grow"}

// String returns "decay" or "grow".
func (s Sign) String() string { return enumName(signNames, int(s), "Sign") }

// MarshalText implements encoding.TextMarshaler.
func (s Sign) MarshalText() ([]byte, error) { return marshalEnum(signNames, int(s), "Sign") }

// UnmarshalText implements encoding.TextUnmarshaler; it accepts the names
// String returns.
func (s *Sign) UnmarshalText(b []byte) error { return unmarshalEnum(signNames, (*int)(s), b, "sign") }

// factor returns −1 for Decay and +1 for Grow.
func (s Sign) factor() float64 {
	if s == Grow {
		return 1
	}
	return -1
}

func enumName(names []string, i int, typ string) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", typ, i)
}

func marshalEnum(names []string, i int, typ string) ([]byte, error) {
	if i < 0 || i >= len(names) {
		return nil, fmt.Errorf("%w: %s(%d) is not defined", ErrConfig, typ, i)
	}
	return []byte(names[i]), nil
}

func unmarshalEnum(names []string, dst *int, b []byte, what string) error {
	for i, n := range names {
		if string(b) == n {
			*dst = i
			return nil
		}
	}
	return fmt.Errorf("%w: unknown %s %q (want %s)", ErrConfig, what, b, Choices(names))
}

// Choices joins names as "a, b or c", for messages.
func Choices(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	s := names[0]
	for _, n := range names[1 : len(names)-1] {
		s += ", " + n
	}
	return s + " or " + names[len(names)-1]
}

// DistNames, InputNames and SignNames list the names that the
// UnmarshalText methods accept, in the order of the constants.
var (
	DistNames  = append([]string(nil), distNames...)
	InputNames = append([]string(nil), inputNames...)
	SignNames  = append([]string(nil), signNames...)
)

// Config holds the choices of Algorithm 1 that the paper leaves open. The
// zero value gives the defaults listed per field; see the package
// documentation for the reasons.
type Config struct {
	// Nodes is l, the number of tree nodes and labels. 0 means 1000, the
	// paper's value.
	Nodes int `json:"nodes"`
	// Features is n, the length of the random vector x. 0 means 100.
	Features int `json:"features"`
	// Hidden is m, the width of the first layer. 0 means 100.
	Hidden int `json:"hidden"`

	// X, W1 and W2 are the distributions of the entries of x, W₁ and W₂.
	// The zero value is Normal.
	X  Dist `json:"x_dist"`
	W1 Dist `json:"w1_dist"`
	W2 Dist `json:"w2_dist"`

	// Input is the vector returned as the features. The zero value is Raw.
	Input Input `json:"input"`
	// Sign is the sign in exp(±d/σ²). The zero value is Decay (−).
	Sign Sign `json:"sign"`
	// Scale is the factor in σ = Scale·sigmoid(z_{l+1}). 0 means 10, the
	// paper's value.
	Scale float64 `json:"scale"`
}

// Defaults returns c with every zero field replaced by its default, so that
// the result records the values used.
func (c Config) Defaults() Config {
	if c.Nodes == 0 {
		c.Nodes = 1000
	}
	if c.Features == 0 {
		c.Features = 100
	}
	if c.Hidden == 0 {
		c.Hidden = 100
	}
	if c.Scale == 0 {
		c.Scale = 10
	}
	return c
}

// Validate reports an invalid field of c (after Defaults) as an error
// wrapping ErrConfig.
func (c Config) Validate() error {
	c = c.Defaults()
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	const maxDim = 1 << 24
	switch {
	case c.Nodes < 2 || c.Nodes > maxDim:
		return bad("Nodes must be in [2, %d], got %d", maxDim, c.Nodes)
	case c.Features < 1 || c.Features > maxDim:
		return bad("Features must be in [1, %d], got %d", maxDim, c.Features)
	case c.Hidden < 1 || c.Hidden > maxDim:
		return bad("Hidden must be in [1, %d], got %d", maxDim, c.Hidden)
	case float64(c.Hidden)*float64(c.Nodes+1) > 1<<28:
		return bad("W2 would have %d×%d entries, more than 2^28", c.Hidden, c.Nodes+1)
	case float64(c.Features)*float64(c.Hidden) > 1<<28:
		return bad("W1 would have %d×%d entries, more than 2^28", c.Features, c.Hidden)
	case !(c.Scale > 0) || math.IsInf(c.Scale, 1):
		return bad("Scale must be positive and finite, got %v", c.Scale)
	}
	for _, d := range []Dist{c.X, c.W1, c.W2} {
		if d < 0 || int(d) >= len(distNames) {
			return bad("unknown distribution %v", d)
		}
	}
	if c.Input < 0 || int(c.Input) >= len(inputNames) {
		return bad("unknown input %v", c.Input)
	}
	if c.Sign < 0 || int(c.Sign) >= len(signNames) {
		return bad("unknown sign %v", c.Sign)
	}
	return nil
}

// InputDim returns the number of features of the generated samples: n, m
// or l+1 for Raw, Hidden and Output.
func (c Config) InputDim() int {
	c = c.Defaults()
	switch c.Input {
	case Hidden:
		return c.Hidden
	case Output:
		return c.Nodes + 1
	}
	return c.Features
}

func errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
}
