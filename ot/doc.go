// Package ot groups general optimal-transport solvers: emd (exact, network
// simplex) and sinkhorn (entropic).
package ot
