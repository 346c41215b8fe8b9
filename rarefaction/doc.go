// Package rarefaction subsamples the samples of a table of counts to one
// depth (rarefaction), as microbiome studies do before comparing samples
// sequenced to different depths, and as Striped UniFrac (ssu 1.3 and
// later, --subsample-depth) does before computing distances.
//
// # Method
//
// A sample whose counts add up to T ≥ d is replaced by d of its T counted
// individuals, drawn at random:
//
//   - without replacement, a uniformly random subset of d of the T
//     individuals: the new count of observation i is hypergeometric,
//     with mean d·cᵢ/T. The d positions are drawn among 0…T−1 by Floyd's
//     algorithm (each subset of d equally likely), or the T−d positions
//     left out when d > T/2, and mapped to observations through the
//     cumulative counts.
//   - with replacement, d independent draws, each observation with
//     probability cᵢ/T: the new counts are multinomial.
//
// A sample with T < d is left out of the result, as ssu and biom-format's
// Table.subsample leave it out. Observations keep their ids and order,
// also those that no sample keeps any count of.
//
// # Randomness
//
// The caller passes a math/rand/v2 source. One 64-bit seed is drawn from
// it per sample, in sample order, and each sample is drawn from a PCG
// generator of its own seeded with it, so the result depends on the
// source alone, not on the number of goroutines. ssu draws with C++'s
// std::mt19937 and std::sample or std::discrete_distribution, whose
// sequences are not reproduced here: the same seed gives a different
// table than ssu's, with the same distribution.
//
// # Cost
//
// O(d log d) time per kept sample without replacement (O(min(d, T−d))
// draws, a sort, a sweep over the sample's observations) and O(d log k)
// with replacement (k observations), on all processors; memory for the
// result and one workspace per goroutine.
//
// Reference: Sanders (1968), Am. Nat. 102:243–282 (rarefaction); Floyd's
// sampling algorithm in Bentley and Floyd (1987), Commun. ACM 30:754–757.
package rarefaction
