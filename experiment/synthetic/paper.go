package synthetic

import "github.com/twl-ldl/twl/experiment/report"

// PaperTable is Table 1 of the paper: per loss and metric, the mean and the
// standard deviation over its 10 seeds, as printed (1000 nodes, 1000
// training and 1000 test samples, 500 epochs).
var PaperTable = map[string]map[string]report.Stat{
	"kl":       paperRow(9.701, .050, 0.431, .001, 0.209, .001, 1.777, .011, 14.512, .060, 0.877, .000, 0.754, .001),
	"kl+0.5w1": paperRow(10.831, .044, 0.452, .001, 0.230, .001, 1.666, .009, 13.834, .064, 0.868, .000, 0.739, .001),
	"kl+w1":    paperRow(11.631, .048, 0.475, .001, 0.244, .001, 1.618, .008, 13.474, .063, 0.859, .000, 0.727, .001),
	"kl+0.5tw": paperRow(7.257, .110, 0.595, .007, 0.193, .001, 2.098, .040, 19.636, .171, 0.833, .002, 0.729, .003),
	"kl+tw":    paperRow(7.158, .117, 0.631, .007, 0.195, .001, 2.143, .030, 19.923, .441, 0.825, .003, 0.721, .004),
}

// paperRow makes a row of PaperTable from (mean, std) pairs in the order
// of metric.Names.
func paperRow(v ...float64) map[string]report.Stat {
	names := []string{"wasserstein", "kl", "chebyshev", "clark", "canberra", "cosine", "intersection"}
	row := make(map[string]report.Stat, len(names))
	for i, n := range names {
		row[n] = report.Stat{Mean: report.Float(v[2*i]), Std: report.Float(v[2*i+1])}
	}
	return row
}
