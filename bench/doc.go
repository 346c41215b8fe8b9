// Package bench measures twl's kernels and commands the way 'twl bench'
// reports them: the tree-Wasserstein kernels of package tw on random trees,
// the exact and entropic transport solvers of packages ot/emd and
// ot/sinkhorn in the settings of the reference tables, training steps of
// the LSTM, and whole 'twl distance' and 'twl eval' runs as child
// processes with their peak resident memory.
//
// Each measurement is a Case (what to set up, what to time) and Measure
// (how long, and how much it allocates); the records are what 'twl bench
// --format json' writes, one per line. For regression benchmarks in Go,
// use the testing.B benchmarks of each package instead: these are for
// reporting sizes no test suite would run.
//
// Runner runs the cases by kernel name (Kernels, DefaultLabels) and writes
// their records as 'twl bench' prints them, a table or JSON Lines, skipping
// the cases over its memory limit.
package bench
