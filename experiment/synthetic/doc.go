// Package synthetic reproduces the synthetic experiment of the
// tree-Wasserstein paper (Toyokuni et al., Sec. 5.1, Table 1): a
// softmax-linear model trained on the data of package synth with five
// losses, scored on a test set with the seven LDL metrics, over several
// seeds.
//
// # Losses
//
//	KL          KL(y ‖ p)                                    loss.NewKL
//	KL + ½W¹    KL + ½·W by Sinkhorn (the paper's baseline)   loss.NewKLSinkhorn
//	KL + W¹     KL + W by Sinkhorn                            loss.NewKLSinkhorn
//	KL + ½TW    KL + ½·TW, the exact tree-Wasserstein term    loss.NewKLTW
//	KL + TW     KL + TW                                       loss.NewKLTW
//
// Sinkhorn runs as in the paper: log domain, λ = 50 (POT reg 0.02), 10
// iterations, on the tree's shortest-path cost matrix (unit edge weights),
// so that W¹ and TW approximate the same distance.
//
// # Seeds
//
// The data (tree, W₁, W₂, training and test samples) are drawn once, from
// Config.DataSeed; seed k = 1 … Seeds then sets the model's initial weights
// and the order of the mini-batches. The paper says only that it averages
// over "10 different random seeds"; its standard deviations (±.001 on KL
// over 1000 test samples of a 1000-node random tree) are those of training
// noise, not of a new random tree per seed, which would move the
// Wasserstein column by far more than ±.05. Fixing the data also makes the
// seeds pair up: for a given seed every loss starts from the same weights
// and sees the same batches, so the paired t-test compares losses and not
// luck. Config.VaryData draws the data from DataSeed + k instead.
//
// # Metrics and statistics
//
// Each run scores its test predictions with metric.Evaluator (exact
// conventions; Wasserstein is the exact tree-Wasserstein distance, equal
// to the exact W¹ of the tree metric) and keeps the mean over the test
// samples. Table cells are the mean ± sample standard deviation of those
// per-seed means across seeds, as in the paper. Paired comparisons take
// the per-seed differences d_k = B_k − A_k of two losses on one metric and
// report their mean, t = mean/(sd/√S) with S − 1 degrees of freedom, the
// two-sided p-value from Student's t distribution, and on how many seeds B
// was better.
//
// # Protocols
//
// ProtocolPaper is the paper's: 1000 nodes, 1000 training and 1000 test
// samples, 500 epochs, batch 10, Adam lr 1e-3, 10 seeds. It takes hours on
// a laptop, most of it in Sinkhorn. ProtocolReduced (the default) keeps the
// batch, learning rate, sample counts and every loss, and shrinks what the
// time goes into; Differences lists exactly how a run differs from the
// paper's protocol.
//
// # Resuming
//
// With Config.OutDir set, each finished (loss, seed) run is written
// atomically to OutDir/runs/LOSS-seedK.json and skipped by later calls
// with the same settings; a run of another protocol in the same directory
// is an error, not silently reused. Long runs checkpoint their training
// state (package train) every CheckpointEvery epochs, so an interrupted run
// resumes mid-training, bit for bit.
package synthetic
