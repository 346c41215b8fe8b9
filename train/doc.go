// Package train fits models of package model to label distributions by
// mini-batch gradient descent with Adam, as the paper does: shuffled
// mini-batches drawn per epoch from an explicit seed, an optional validation
// split with early stopping, progress on a writer, and checkpoints written
// atomically so that an interrupted run resumes where it stopped.
//
// Runs are reproducible: the same data, loss, configuration and seed give
// the same model bit for bit (every parallel kernel involved is
// deterministic), and a run resumed from a checkpoint continues exactly as
// the uninterrupted run would have.
package train
