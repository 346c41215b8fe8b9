package treesliced

import (
	"slices"

	"github.com/twl-ldl/twl/experiment/report"
)

// Protocol names.
const (
	ProtocolReduced = report.ProtocolReduced // the default: 70–80 s on 2 cores
	ProtocolLarge   = "large"                // T up to 64, 50 pairs, n up to 3000: over an hour
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
var ErrConfig = report.ErrConfigOf("treesliced")

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
	// the defaults of the fields below that are nil.
	Protocol string
	// Dims, Sizes and Trees override the protocol's lists when not nil;
	// every value must be at least 1 (Sizes at least 2). Trees is sorted
	// and duplicates dropped; its largest value is the number of trees
	// built per pair and builder.
	Dims, Sizes, Trees []int
	// Pairs and FitPairs, when not nil, replace the protocol's values: from
	// 1 to 10⁶.
	Pairs, FitPairs *int
	// Builders are the tree builders run, a subset of Builders; nil means
	// all three.
	Builders []string
	// Masses is MassesUniform ("" means it) or MassesRandom.
	Masses string
	// Components is the number of mixture components of a cloud; nil
	// means 4.
	Components *int
	// TreeOptions choose the clustering trees and the quadtrees.
	report.TreeOptions
	// Seed seeds the clouds and the trees (see the package documentation).
	Seed uint64
	// Workers is the number of pairs processed at once, each on one
	// goroutine; nil means 1, so that every timing is that of one core
	// undisturbed.
	Workers *int
	// RunOptions: progress: a line per cell; stopped before the next pair.
	report.RunOptions
}

// Resolved is what a Result records of its Config.
type Resolved struct {
	Protocol   string   `json:"protocol"`
	Settings   Settings `json:"settings"`
	Builders   []string `json:"builders"`
	Masses     string   `json:"masses"`
	Components int      `json:"components"`
	Spread     float64  `json:"spread"`
	report.TreeSettings
	Seed    uint64 `json:"seed"`
	Workers int    `json:"workers"`
}

// maxSize bounds n: the n×n cost matrix of a pair takes 8n² bytes.
const maxSize = 20000

// Resolve fills in the defaults of cfg and checks it. Its errors are
// *report.ConfigError, wrapping ErrConfig.
func (cfg Config) Resolve() (Resolved, error) {
	c := report.Checker{Kind: ErrConfig}
	protocol, s, err := report.Protocol(c, cfg.Protocol, []string{ProtocolReduced, ProtocolLarge}, Reduced, Large)
	if err != nil {
		return Resolved{}, err
	}
	s.Dims, s.Sizes, s.Trees = slices.Clone(s.Dims), slices.Clone(s.Sizes), slices.Clone(s.Trees)
	r := Resolved{Protocol: protocol, Masses: cfg.Masses, Components: 4, Spread: Spread, Seed: cfg.Seed, Workers: 1}
	if r.TreeSettings, err = cfg.TreeOptions.Resolve(c); err != nil {
		return Resolved{}, err
	}
	for _, err := range []error{
		c.Ints(&s.Dims, cfg.Dims, "Dims", 1, 1<<16), c.Ints(&s.Sizes, cfg.Sizes, "Sizes", 2, maxSize),
		c.Ints(&s.Trees, cfg.Trees, "Trees", 1, 1<<12),
		c.Int(&s.Pairs, cfg.Pairs, "Pairs", 1, 1e6), c.Int(&s.FitPairs, cfg.FitPairs, "FitPairs", 1, 1e6),
		c.Int(&r.Components, cfg.Components, "Components", 1, 1000), c.Int(&r.Workers, cfg.Workers, "Workers", 1, 1024),
	} {
		if err != nil {
			return Resolved{}, err
		}
	}
	r.Settings = s
	if r.Builders, err = c.Subset("Builders", cfg.Builders, Builders); err != nil {
		return Resolved{}, err
	}
	if cfg.Builders != nil {
		r.Builders = slices.Clone(cfg.Builders) // in the order given
	}
	switch r.Masses {
	case "":
		r.Masses = MassesUniform
	case MassesUniform, MassesRandom:
	default:
		return Resolved{}, c.Bad("Masses", r.Masses, "unknown masses; want %s or %s", MassesUniform, MassesRandom)
	}
	return r, nil
}
