// Package all runs the experiments that reproduce the paper's tables into
// one report folder: efficiency (Table 3) and synthetic (Table 1), each
// writing its own files, then REPORT.md, which gathers both reports under
// one title with the paper's numbers, the options and the differences
// from the paper's protocol.
//
// Run is resumable as the synthetic experiment is: run again on the same
// folder, it keeps the synthetic runs already finished there.
package all
