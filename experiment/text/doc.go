// Package text reproduces the real-data experiment of the tree-Wasserstein
// paper (Toyokuni et al., Sec. 4.2, Table 2): the LSTM text classifier of
// package textmodel trained with five losses on labelled documents whose
// labels form a hierarchy (BlurbGenreCollection in the paper; 20 Newsgroups
// and AAPD here), scored on a test set with the multi-label measures of
// package metric, over several seeds. It runs the same experiment with the
// bag of n-grams, with fastText beside it.
//
// # Losses
//
// The five of loss.PaperIDs: KL, KL + ½W¹, KL + W¹ (W¹ by Sinkhorn on the
// tree metric, the paper's baseline) and KL + ½TW, KL + TW (the exact
// tree-Wasserstein distance). Targets are made from label sets closed under
// ancestors by corpus.Target (uniform on the set by default).
//
// # Data and seeds
//
// With a test set given, it is the test set of every seed; the validation
// documents are the dev set if given, else 20 % of the training documents
// drawn by the seed (the paper's 16 of its 80). With the training
// documents alone, seed k draws the paper's random 64/16/20 split of them
// (dataset.Partition). The bag of n-grams without a dev set has no
// validation documents, as 'twl text train' trains it by default: every
// training document trains it (with the training documents alone, seed k
// draws 80 % of them to train on and 20 % to test), and the model of the
// last epoch is kept. Seed k = 1 … Seeds also sets the initial weights,
// the random word vectors and the order of the mini-batches: for a seed,
// every loss starts from the same weights on the same split and sees the
// same batches, so that the paired t-tests across seeds compare the losses.
// The vocabulary is counted on each seed's training documents.
//
// # Measures
//
// Each run keeps the weights of the epoch with the lowest validation loss
// (the bag without validation documents: of the last epoch),
// predicts the test documents and scores them: pseudo-recall, top-k cost
// (k = 5), ROC-AUC micro, macro and by document (metric.MultiLabel), and
// the LDL measures against the target distributions, Wasserstein among
// them (metric.Evaluator). Table cells are the mean ± sample standard
// deviation across seeds of the per-seed test means; each loss is compared
// with KL by a paired t-test across seeds.
//
// # Protocols
//
// ProtocolPaper is the paper's: hidden size 200, 100 epochs, batch 100,
// Adam lr 1e-3, 10 seeds; the paper does not say how long a document may
// be, and twl cuts them at 200 tokens. ProtocolReduced (the default) is
// sized to finish on 20 Newsgroups in well under an hour on 2 cores; its
// Differences are listed in the report.
//
// # The bag of n-grams
//
// With Config.Model textmodel.KindBag the model is the bag of n-grams of
// 'twl text train' under its defaults (the protocol Bag: a bag of n-grams
// and a bag of its words, 40 epochs of batches of 8, SGD at lr 1 decaying
// linearly to 0, every training document, 5 seeds), trained with
// BagLosses (KL, KL + ½TW, KL + TW, KL + 2TW) by default; the report sets them side
// by side on pseudo-recall, top-5 cost, ROC-AUC and the Wasserstein
// distance, and says for each TW loss where it is better or worse than KL
// (paired t-tests across seeds, p < .05) and where the difference is not
// clear. Config.FastText adds fastText, an outside program, as a row
// (FastText): on each seed's training documents, scored as twl's runs, and
// compared with each loss in pairs; without it the report says why.
//
// # Resuming
//
// With Config.OutDir set, each finished (loss, seed) run is written
// atomically to OutDir/runs/LOSS-seedK.json and kept by later calls with
// the same settings and data; a run in progress checkpoints its training
// every CheckpointEvery epochs and resumes bit for bit (the bag's runs, which
// take seconds, are not checkpointed unless CheckpointEvery is set).
package text
