// Package report holds what the reports of twl's experiments share.
//
// Numbers: Float, a float64 that JSON holds whatever its value (NaN and
// the infinities as the strings "NaN", "+Inf" and "-Inf"); Stat, a mean
// and a sample standard deviation across seeds, written as a table Cell
// ("0.123 ± 0.004"); PairedT, the paired t-test of two conditions across
// seeds, t = mean(d)/(sd(d)/√n) on the differences d_k = B_k − A_k with a
// two-sided p-value under Student's t with n − 1 degrees of freedom; and
// Summarize, which makes an experiment's table, best conditions and
// comparisons from its per-seed values in O(conditions × measures × seeds).
//
// Measures: the labels (MeasureLabel), directions (LowerIsBetter, Arrow)
// of the measures of package metric as the text experiments report them.
//
// Runs: Machine, where they ran; Curves and MeanCurve, the training
// curves a run records and their mean across seeds; EpochFilter, which
// thins training progress; HashCorpora and KeyHash, fingerprints of the
// data and of a run's settings; and Store, the folder of run files that
// makes an experiment resumable: a finished run is kept by a later call
// with the same settings, a run of other settings is an error; Each, the
// loop that loads or trains every (condition, seed) run; Outcome, Summary
// (SummarizeRuns) and Timing, what the results of such experiments share;
// Header (NewHeader), what the results of the others begin with.
//
// Settings: ProtocolReduced and ProtocolPaper, the protocol names the
// experiments share; the settings of an experiment's Config that replace a
// protocol's value are pointers, nil for the protocol's; Checker checks
// them (Int, Positive, Ints, Subset, Protocol, TreeOptions.Resolve) into a
// *ConfigError wrapping the experiment's ErrConfig (ErrConfigOf), naming
// the setting, the value and the problem, which a command prints in its
// own words (twl: "--seeds 0: must be from 1 to 10000000").
//
// Reports: MeasureTable, ComparisonTable (TP: t and p, "n/a" where t is
// undefined), TableHead; MeanCurves, StatGroup and ErrorBarFigure for the
// plots; Plural, Differences (Count, TrainingDifferences) for the prose; Gather, which gathers
// reports into one document; ReadDocuments, the labelled documents of an
// experiment on text.
//
// Files: WriteJSON, the indented JSON of every report, and WriteReport,
// which writes a report's JSON, Markdown and figures atomically.
//
// Shape mistakes by the caller (PairedT's samples of different sizes)
// panic; everything that depends on files returns an error.
package report
