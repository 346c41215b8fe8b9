package treesliced

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
)

// Protocol names.
const (
	ProtocolReduced = "reduced" // the default: 70–80 s on 2 cores
	ProtocolLarge   = "large"   // T up to 64, 50 pairs, n up to 3000: over an hour
)

// Builders of the trees (Config.Builders).
const (
	BuilderCluster    = "cluster"     // pointtree.Cluster
	BuilderQuad       = "quad"        // pointtree.Quad
	BuilderClusterFit = "cluster+fit" // pointtree.Cluster, then pointtree.FitWeights
)

// Builders lists every builder, in the order of the report.
var Builders = []string{BuilderCluster, BuilderQuad, BuilderClusterFit}

// ErrConfig is wrapped by the errors that report an invalid Config.
var ErrConfig = errors.New("treesliced: invalid configuration")

// Settings are the numbers of a protocol.
type Settings struct {
	Dims  []int `json:"dims"`  // dimensions d
	Sizes []int `json:"sizes"` // points n per cloud
	Trees []int `json:"trees"` // numbers of trees T, ascending
	Pairs int   `json:"pairs"` // pairs of clouds per cell (d, n)
	// FitPairs is the number of point pairs FitWeights samples per point
	// of the union (pointtree.FitOptions.Pairs = FitPairs·2n).
	FitPairs int `json:"fit_pairs_per_point"`
}

// Reduced is the default protocol: every dimension and both sizes of the
// study, 20 pairs, up to 16 trees, and FitWeights on 4 sampled pairs per
// point (a fifth of its default). 70–80 s on 2 cores, most of it in
// the clustering trees of d = 300 and the exact solves at n = 1000.
var Reduced = Settings{Dims: []int{2, 10, 100, 300}, Sizes: []int{100, 1000}, Trees: []int{1, 4, 16}, Pairs: 20, FitPairs: 4}

// Large is the full protocol: 50 pairs, up to 64 trees, n up to 3000,
// FitWeights with its default 20 sampled pairs per point.
var Large = Settings{Dims: []int{2, 10, 100, 300}, Sizes: []int{100, 1000, 3000}, Trees: []int{1, 4, 16, 64}, Pairs: 50, FitPairs: 20}

// Config controls Run. The zero value runs the reduced protocol with seed
// 0.
type Config struct {
	// Protocol is ProtocolReduced ("" means it) or ProtocolLarge. It sets
	// the defaults of the fields below that are zero or nil.
	Protocol string
	// Dims, Sizes and Trees override the protocol's lists when not nil;
	// every value must be at least 1 (Sizes at least 2). Trees is sorted
	// and duplicates dropped; its largest value is the number of trees
	// built per pair and builder.
	Dims, Sizes, Trees []int
	// Pairs and FitPairs override the protocol's values when not zero.
	Pairs, FitPairs int
	// Builders are the tree builders run, a subset of Builders; nil means
	// all three.
	Builders []string
	// Masses is MassesUniform ("" means it) or MassesRandom.
	Masses string
	// Components is the number of mixture components of a cloud; 0 means 4.
	Components int
	// ClusterK and ClusterDepth are the branching and depth of the
	// clustering trees, QuadDepth the depth of the quadtrees; 0 means
	// pointtree's defaults (4, 6 and 12).
	ClusterK, ClusterDepth, QuadDepth int
	// Seed seeds the clouds and the trees (see the package documentation).
	Seed uint64
	// Workers is the number of pairs processed at once, each on one
	// goroutine; 0 means 1, so that every timing is that of one core
	// undisturbed.
	Workers int
	// Progress receives a line per cell; nil means none.
	Progress io.Writer
	// Context, when not nil, stops Run before the next pair once it is
	// done; Run then returns its error.
	Context context.Context
}

// Resolved is what a Result records of its Config.
type Resolved struct {
	Protocol     string   `json:"protocol"`
	Settings     Settings `json:"settings"`
	Builders     []string `json:"builders"`
	Masses       string   `json:"masses"`
	Components   int      `json:"components"`
	Spread       float64  `json:"spread"`
	ClusterK     int      `json:"cluster_k"`
	ClusterDepth int      `json:"cluster_depth"`
	ClusterIters int      `json:"cluster_iters"`
	QuadDepth    int      `json:"quad_depth"`
	Seed         uint64   `json:"seed"`
	Workers      int      `json:"workers"`
}

// maxSize bounds n: the n×n cost matrix of a pair takes 8n² bytes.
const maxSize = 20000

// Resolve fills in the defaults of cfg and checks it. Errors wrap
// ErrConfig.
func (cfg Config) Resolve() (Resolved, error) {
	bad := func(format string, args ...any) (Resolved, error) {
		return Resolved{}, fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	var s Settings
	switch cfg.Protocol {
	case "", ProtocolReduced:
		s, cfg.Protocol = Reduced, ProtocolReduced
	case ProtocolLarge:
		s = Large
	default:
		return bad("unknown protocol %q (want %s or %s)", cfg.Protocol, ProtocolReduced, ProtocolLarge)
	}
	s.Dims, s.Sizes, s.Trees = slices.Clone(s.Dims), slices.Clone(s.Sizes), slices.Clone(s.Trees)
	for _, f := range []struct {
		dst  *[]int
		v    []int
		name string
		min  int
		max  int
	}{{&s.Dims, cfg.Dims, "Dims", 1, 1 << 16}, {&s.Sizes, cfg.Sizes, "Sizes", 2, maxSize}, {&s.Trees, cfg.Trees, "Trees", 1, 1 << 12}} {
		if f.v != nil {
			*f.dst = slices.Clone(f.v)
		}
		if len(*f.dst) == 0 {
			return bad("%s is empty", f.name)
		}
		for _, v := range *f.dst {
			if v < f.min || v > f.max {
				return bad("%s holds %d: each must be from %d to %d", f.name, v, f.min, f.max)
			}
		}
	}
	slices.Sort(s.Trees)
	s.Trees = slices.Compact(s.Trees)
	for _, f := range []struct {
		dst  *int
		v    int
		name string
	}{{&s.Pairs, cfg.Pairs, "Pairs"}, {&s.FitPairs, cfg.FitPairs, "FitPairs"}} {
		if f.v < 0 || f.v > 1e6 {
			return bad("%s must be from 0 (the protocol's value) to 10^6, got %d", f.name, f.v)
		}
		if f.v > 0 {
			*f.dst = f.v
		}
	}
	r := Resolved{Protocol: cfg.Protocol, Settings: s, Masses: cfg.Masses, Components: cfg.Components,
		Spread: Spread, ClusterK: cfg.ClusterK, ClusterDepth: cfg.ClusterDepth, ClusterIters: 10,
		QuadDepth: cfg.QuadDepth, Seed: cfg.Seed, Workers: cfg.Workers}
	if cfg.Builders == nil {
		r.Builders = slices.Clone(Builders)
	} else {
		if len(cfg.Builders) == 0 {
			return bad("no builders")
		}
		for _, b := range cfg.Builders {
			if !slices.Contains(Builders, b) {
				return bad("unknown builder %q (want some of %s, %s, %s)", b, BuilderCluster, BuilderQuad, BuilderClusterFit)
			}
			if slices.Contains(r.Builders, b) {
				return bad("builder %q named twice", b)
			}
			r.Builders = append(r.Builders, b)
		}
	}
	switch r.Masses {
	case "":
		r.Masses = MassesUniform
	case MassesUniform, MassesRandom:
	default:
		return bad("unknown masses %q (want %s or %s)", r.Masses, MassesUniform, MassesRandom)
	}
	for _, f := range []struct {
		dst  *int
		def  int
		name string
		min  int
		max  int
	}{{&r.Components, 4, "Components", 1, 1000}, {&r.ClusterK, 4, "ClusterK", 2, 1000},
		{&r.ClusterDepth, 6, "ClusterDepth", 1, 64}, {&r.QuadDepth, 12, "QuadDepth", 1, 50}, {&r.Workers, 1, "Workers", 1, 1024}} {
		if *f.dst == 0 {
			*f.dst = f.def
		}
		if *f.dst < f.min || *f.dst > f.max {
			return bad("%s must be 0 (the default, %d) or from %d to %d, got %d", f.name, f.def, f.min, f.max, *f.dst)
		}
	}
	return r, nil
}
