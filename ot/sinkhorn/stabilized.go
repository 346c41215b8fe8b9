package sinkhorn

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// The iteration keeps the potentials in the stabilized form of Schmitzer
// (2019):
//
//	f = α + log(ũ)/λ,  g = β + log(ṽ)/λ,  K̃_ij = exp(λ(α_i + β_j − C_ij)),
//	P = diag(ũ) K̃ diag(ṽ),
//
// with α = β = 0, ũ = 1 and K̃ = exp(−λC) (the shared kernel) at the start
// of every solve. One iteration is, in the order of Frogner et al.'s
// Algorithm 1 and POT, the v-update ṽ = b ⊘ t with t = K̃ᵀũ, followed by one
// pass over K̃ that, row by row, computes (K̃ṽ)_i, sets ũ_i = a_i/(K̃ṽ)_i and
// accumulates ũ_i·K̃_i into the next t while the row is in cache. Absorption
// is done per row and per column: a ũ_i outside [1/τ, τ] (including 0 and
// +Inf from underflow) is replaced by an exact log-domain u-update of that
// row — α_i is set by a log-sum-exp and the row of K̃ is recomputed, so that
// ũ_i = 1 — and likewise for a ṽ_j outside [1/τ, τ]. Rows and columns of
// zero mass are absent: their scalings are 0 and they are skipped.

// ensureKern allocates the private kernel on first use.
func (l *lane) ensureKern() {
	l.mu.Lock()
	if l.kern == nil {
		l.kern = make([]float64, l.s.n*l.s.m)
	}
	l.mu.Unlock()
}

// row returns row i of the current kernel K̃.
func (l *lane) row(i int) []float64 {
	m := l.s.m
	if l.owned[i] {
		return l.kern[i*m : (i+1)*m]
	}
	return l.s.k0[i*m : (i+1)*m]
}

// run solves for (a, b) with par goroutines, leaving the state for the
// potential and gradient methods.
func (l *lane) run(a, b []float64, par int) (Result, error) {
	s := l.s
	if s.costErr != nil {
		return Result{}, s.costErr
	}
	sa, err := checkMass(a, "a")
	if err != nil {
		return Result{}, err
	}
	sb, err := checkMass(b, "b")
	if err != nil {
		return Result{}, err
	}
	if math.Abs(sa-sb) > MassTol*math.Max(sa, sb) {
		return Result{}, fmt.Errorf("%w: Σa = %v, Σb = %v", ErrMassMismatch, sa, sb)
	}
	l.a, l.b = a, b
	for i, ai := range a {
		l.alpha[i] = 0
		l.owned[i] = false
		l.u[i] = 0
		if ai > 0 {
			l.u[i] = 1
		}
	}
	for j, bj := range b {
		l.beta[j] = 0
		l.v[j] = 0
		if bj > 0 {
			l.v[j] = 1
		}
	}
	if sa == 0 {
		l.rho = 1
		clear(l.t)
		return Result{}, nil
	}
	l.rho = sa / sb
	// Sparse b: passes touch only the columns of positive mass.
	nnz := 0
	for j, bj := range b {
		if bj > 0 {
			l.cols[nnz] = j
			nnz++
		}
	}
	l.sparse = nnz <= len(b)/sparseFrac
	l.supp = l.cols[:nnz]

	l.initT(par)
	var res Result
	tol, iters := s.set.tol, s.set.iters
	valued := false
	for res.Iters < iters {
		nf, err := l.updateV(par)
		if err != nil {
			return Result{}, err
		}
		last := res.Iters == iters-1
		mode := passU
		if last {
			mode = passValue
		}
		fixes, err := l.pass(mode, par)
		if err != nil {
			return Result{}, err
		}
		res.Fixes += nf + fixes
		res.Iters++
		if last {
			valued = true
		} else if tol >= 0 && l.colErr() <= tol*sa {
			break
		}
	}
	if !valued {
		l.pass(passEval, par)
	}
	l.finish(&res)
	return res, nil
}

// initT sets t = K̃ᵀũ for the initial ũ = 1 on the rows of positive mass:
// the cached column sums of exp(−λC) when a has full support.
func (l *lane) initT(par int) {
	for _, ai := range l.a {
		if ai == 0 {
			l.pass(passInit, par)
			return
		}
	}
	copy(l.t, l.s.t0)
}

// colErr returns ‖diag(ṽ)t − ρb‖₁, the column-marginal error of the
// current plan when t = K̃ᵀũ.
func (l *lane) colErr() float64 {
	var e float64
	for j, bj := range l.b {
		if bj > 0 {
			e += math.Abs(l.v[j]*l.t[j] - bj*l.rho)
		}
	}
	return e
}

// Pass modes.
const (
	passInit  = iota // t = Σ_{a_i>0} K̃_i
	passU            // ũ_i = a_i/(K̃ṽ)_i, t = K̃ᵀũ
	passValue        // passU and rowQ_i = Σ_j C_ij K̃_ij ṽ_j
	passEval         // rowQ only
)

// pass runs one pass over the kernel in fixed row blocks. Except for
// passEval it accumulates the column sums t block by block, in block order
// whatever par is. It returns the number of rows absorbed.
func (l *lane) pass(mode, par int) (int, error) {
	s := l.s
	m, nChunk := s.m, s.nChunk
	switch {
	case mode == passEval && par <= 1:
		for c := range nChunk {
			l.chunk(c, nil, mode)
		}
	case mode == passEval:
		parallel(par, nChunk, func(c int) { l.chunk(c, nil, mode) })
	case par <= 1:
		t := l.t
		l.zero(t)
		p := l.part[:m]
		for c := range nChunk {
			l.zero(p)
			l.chunk(c, p, mode)
			if l.sparse {
				for _, j := range l.supp {
					t[j] += p[j]
				}
			} else {
				floats.Add(t, p)
			}
		}
	default:
		parallel(par, nChunk, func(c int) {
			p := l.part[c*m : (c+1)*m]
			l.zero(p)
			l.chunk(c, p, mode)
		})
		if l.sparse {
			for _, j := range l.supp {
				t := 0.0
				for c := range nChunk {
					t += l.part[c*m+j]
				}
				l.t[j] = t
			}
		} else {
			reduceBlocks(l.t, l.part, nChunk, par)
		}
	}
	fixes := 0
	for c := range nChunk {
		if l.chBad[c] {
			return 0, ErrUnstable
		}
		fixes += l.chFix[c]
	}
	return fixes, nil
}

// sparseFrac: b counts as sparse when at most m/sparseFrac entries are
// positive; the passes then gather those columns instead of streaming rows.
const sparseFrac = 8

// zero clears x, or only its entries on the support of b when sparse.
func (l *lane) zero(x []float64) {
	if !l.sparse {
		clear(x)
		return
	}
	for _, j := range l.supp {
		x[j] = 0
	}
}

// reduceBlocks sets t_j = ((0 + p_0j) + p_1j) + ... over the nChunk
// partial rows of part, in parallel over column blocks; the order of the
// additions per column is the serial one.
func reduceBlocks(t, part []float64, nChunk, par int) {
	m := len(t)
	blk := max(1024, (m+4*par-1)/(4*par))
	parallel(par, (m+blk-1)/blk, func(k int) {
		j0, j1 := span(k, blk, m)
		tk := t[j0:j1]
		clear(tk)
		for c := range nChunk {
			floats.Add(tk, part[c*m+j0:c*m+j1])
		}
	})
}

// chunk runs one pass of the given mode over the rows of block c,
// accumulating into p.
func (l *lane) chunk(c int, p []float64, mode int) {
	s := l.s
	m := s.m
	i0, i1 := span(c, s.chunkRows, s.n)
	plain := s.set.method == Plain
	lo, hi := 1/s.set.tau, s.set.tau
	fixes := 0
	bad := false
	for i := i0; i < i1; i++ {
		ai := l.a[i]
		if ai == 0 {
			continue
		}
		row := l.row(i)
		ci := s.cost[i*m : (i+1)*m]
		if l.sparse {
			l.sparseRow(i, row, ci, p, mode, &fixes, &bad)
			if bad {
				break
			}
			continue
		}
		switch mode {
		case passInit:
			floats.Add(p, row)
			continue
		case passEval:
			l.rowQ[i] = dot3(ci, row, l.v)
			continue
		}
		kv := floats.Dot(row, l.v)
		ui := ai / kv
		if plain {
			if !(ui > 0 && ui <= math.MaxFloat64) {
				bad = true
				break
			}
		} else if !(ui >= lo && ui <= hi) {
			row = l.fixRow(i)
			ui, kv = 1, ai
			fixes++
		}
		l.u[i] = ui
		l.rowS[i] = kv
		floats.AddScaled(p, ui, row)
		if mode == passValue {
			l.rowQ[i] = dot3(ci, row, l.v)
		}
	}
	l.chFix[c], l.chBad[c] = fixes, bad
}

// sparseRow is the body of chunk for row i when b is sparse: the same
// operations restricted to the columns in l.supp.
func (l *lane) sparseRow(i int, row, ci, p []float64, mode int, fixes *int, bad *bool) {
	v, supp := l.v, l.supp
	switch mode {
	case passInit:
		for _, j := range supp {
			p[j] += row[j]
		}
		return
	case passEval:
		q := 0.0
		for _, j := range supp {
			q += ci[j] * row[j] * v[j]
		}
		l.rowQ[i] = q
		return
	}
	kv := 0.0
	for _, j := range supp {
		kv += row[j] * v[j]
	}
	ai := l.a[i]
	ui := ai / kv
	if l.s.set.method == Plain {
		if !(ui > 0 && ui <= math.MaxFloat64) {
			*bad = true
			return
		}
	} else if tau := l.s.set.tau; !(ui >= 1/tau && ui <= tau) {
		row = l.fixRow(i)
		ui, kv = 1, ai
		*fixes++
	}
	l.u[i] = ui
	l.rowS[i] = kv
	for _, j := range supp {
		p[j] += ui * row[j]
	}
	if mode == passValue {
		q := 0.0
		for _, j := range supp {
			q += ci[j] * row[j] * v[j]
		}
		l.rowQ[i] = q
	}
}

// fixRow performs the exact log-domain u-update of row i: with
// z_j = λ(β_j − C_ij), M = max_j z_j and S = Σ_j ṽ_j exp(z_j − M), it sets
// λα_i = log a_i − log S − M and K̃_ij = exp(z_j − M)·a_i/S, so that
// Σ_j K̃_ij ṽ_j = a_i and ũ_i = 1. S ≥ min ṽ ≥ 1/τ, so nothing overflows.
func (l *lane) fixRow(i int) []float64 {
	s := l.s
	m, lambda := s.m, s.set.lambda
	l.ensureKern()
	dst := l.kern[i*m : (i+1)*m]
	M, S := lseRow(dst, s.cost[i*m:(i+1)*m], l.beta, l.v, lambda, false)
	ai := l.a[i]
	flushScale(dst, ai/S, s.kmin)
	l.alpha[i] = (math.Log(ai) - math.Log(S) - M) / lambda
	l.owned[i] = true
	return dst
}

// flushScale multiplies x by sc and stores entries below floor as 0.
func flushScale(x []float64, sc, floor float64) {
	for j, e := range x {
		e *= sc
		if e < floor {
			e = 0
		}
		x[j] = e
	}
}

// updateV sets ṽ = b ⊘ t (b rescaled by ρ) and fixes the columns whose
// scaling leaves [1/τ, τ]. It returns the number of columns fixed.
func (l *lane) updateV(par int) (int, error) {
	s := l.s
	plain := s.set.method == Plain
	lo, hi := 1/s.set.tau, s.set.tau
	nflag := 0
	for j, bj := range l.b {
		if bj == 0 {
			continue
		}
		vj := bj * l.rho / l.t[j]
		if plain {
			if !(vj > 0 && vj <= math.MaxFloat64) {
				return 0, ErrUnstable
			}
		} else if !(vj >= lo && vj <= hi) {
			l.flag[nflag] = j
			nflag++
			continue
		}
		l.v[j] = vj
	}
	if nflag > 0 {
		l.fixCols(l.flag[:nflag], par)
	}
	return nflag, nil
}

// fixCols performs the exact log-domain v-update of the columns cols, the
// transpose of fixRow: λβ_j = log b_j − log S_j − M_j with
// S_j = Σ_i ũ_i exp(λ(α_i − C_ij) − M_j), and K̃_ij = exp(λ(α_i − C_ij) − M_j)·b_j/S_j,
// so that ṽ_j = 1. It first gives every row of positive mass a private copy.
func (l *lane) fixCols(cols []int, par int) {
	s := l.s
	n, m, lambda := s.n, s.m, s.set.lambda
	l.ensureKern()
	p := par
	if n*m < parMin {
		p = 1
	}
	parallel(p, s.nChunk, func(c int) {
		i0, i1 := span(c, s.chunkRows, n)
		for i := i0; i < i1; i++ {
			if l.a[i] > 0 && !l.owned[i] {
				copy(l.kern[i*m:(i+1)*m], s.k0[i*m:(i+1)*m])
				l.owned[i] = true
			}
		}
	})
	l.lseCols(cols, l.alpha, l.u, false, true, par)
	for k, j := range cols {
		bj := l.b[j] * l.rho
		S := l.colS[k]
		l.beta[j] = (math.Log(bj) - math.Log(S) - l.colM[k]) / lambda
		l.colS[k] = bj / S // now the column scale
		l.v[j] = 1
		l.t[j] = bj
	}
	if n*len(cols) < parMin {
		p = 1
	}
	parallel(p, s.nChunk, func(c int) {
		i0, i1 := span(c, s.chunkRows, n)
		for i := i0; i < i1; i++ {
			if l.a[i] == 0 {
				continue
			}
			ki := l.kern[i*m : (i+1)*m]
			for k, j := range cols {
				e := ki[j] * l.colS[k]
				if e < s.kmin {
					e = 0
				}
				ki[j] = e
			}
		}
	})
}

// finish evaluates the returned plan P = diag(ũ) K̃ diag(ṽ) from the last
// pass: its cost, its entropic objective and its marginal errors.
func (l *lane) finish(res *Result) {
	lambda := l.s.set.lambda
	var value, ent, rowErr, colErr float64
	for i, ai := range l.a {
		if ai == 0 {
			continue
		}
		ui := l.u[i]
		value += ui * l.rowQ[i]
		r := ui * l.rowS[i]
		rowErr += math.Abs(r - ai)
		ent += (l.alpha[i] + math.Log(ui)/lambda) * r
	}
	for j, bj := range l.b {
		if bj == 0 {
			continue
		}
		vj := l.v[j]
		c := vj * l.t[j]
		colErr += math.Abs(c - bj)
		ent += (l.beta[j] + math.Log(vj)/lambda) * c
	}
	res.Value = value
	res.Entropic = ent
	res.MarginalErr = rowErr + colErr
}

// dot3 returns Σ_j c_j k_j v_j.
func dot3(c, k, v []float64) float64 {
	c = c[:len(k)]
	v = v[:len(k)]
	var q0, q1, q2, q3 float64
	j := 0
	for ; j+3 < len(k); j += 4 {
		q0 += c[j] * k[j] * v[j]
		q1 += c[j+1] * k[j+1] * v[j+1]
		q2 += c[j+2] * k[j+2] * v[j+2]
		q3 += c[j+3] * k[j+3] * v[j+3]
	}
	for ; j < len(k); j++ {
		q0 += c[j] * k[j] * v[j]
	}
	return (q0 + q1) + (q2 + q3)
}

// potF writes the potential f to dst. Rows of zero mass get the soft
// c-transform of g if absent is set, and 0 otherwise.
func (l *lane) potF(dst []float64, absent bool, par int) {
	s := l.s
	n, m, lambda := s.n, s.m, s.set.lambda
	missing := false
	for i, ai := range l.a {
		if ai > 0 {
			dst[i] = l.alpha[i] + math.Log(l.u[i])/lambda
		} else {
			dst[i] = 0
			missing = true
		}
	}
	if !absent || !missing || l.massZero() {
		return
	}
	g := l.gv
	l.presentG(g)
	if n*m < parMin {
		par = 1
	}
	parallel(par, s.nChunk, func(c int) {
		i0, i1 := span(c, s.chunkRows, n)
		for i := i0; i < i1; i++ {
			if l.a[i] == 0 {
				M, S := lseRow(nil, s.cost[i*m:(i+1)*m], g, l.b, lambda, true)
				dst[i] = -(M + math.Log(S)) / lambda
			}
		}
	})
}

// presentG writes g_j = β_j + log(ṽ_j)/λ for the columns of positive mass.
func (l *lane) presentG(g []float64) {
	lambda := l.s.set.lambda
	for j, bj := range l.b {
		g[j] = 0
		if bj > 0 {
			g[j] = l.beta[j] + math.Log(l.v[j])/lambda
		}
	}
}

// potG writes the potential g to dst, with the soft c-transform of f at
// columns of zero mass.
func (l *lane) potG(dst []float64, par int) {
	lambda := l.s.set.lambda
	l.presentG(dst)
	if l.massZero() {
		return
	}
	cols := l.flag[:0]
	for j, bj := range l.b {
		if bj == 0 {
			cols = append(cols, j)
		}
	}
	if len(cols) == 0 {
		return
	}
	f := l.fv
	l.potF(f, false, par)
	l.lseCols(cols, f, l.a, true, false, par)
	for k, j := range cols {
		dst[j] = -(l.colM[k] + math.Log(l.colS[k])) / lambda
	}
}

// massZero reports whether the last solve had zero mass (all absent).
func (l *lane) massZero() bool {
	for _, ai := range l.a {
		if ai > 0 {
			return false
		}
	}
	return true
}

// centredGrad writes f − mean(f) to grad.
func (l *lane) centredGrad(grad []float64, par int) {
	f := l.fv
	l.potF(f, true, par)
	mean := floats.Sum(f) / float64(len(f))
	for i, fi := range f {
		grad[i] = fi - mean
	}
}

// logitGrad implements Solver.LogitGrad on this lane.
func (l *lane) logitGrad(grad, logits, b []float64, par int) (float64, error) {
	if err := softmax(l.pred, logits); err != nil {
		return 0, err
	}
	res, err := l.run(l.pred, b, par)
	if err != nil {
		return 0, err
	}
	f := l.fv
	l.potF(f, false, par)
	var mean float64
	for i, ai := range l.pred {
		mean += ai * f[i]
	}
	for i, ai := range l.pred {
		grad[i] = ai * (f[i] - mean)
	}
	return res.Value, nil
}

// softmax writes softmax(z) to dst.
func softmax(dst, z []float64) error {
	zmax := math.Inf(-1)
	for i, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: logit[%d] = %v", ErrMass, i, v)
		}
		zmax = math.Max(zmax, v)
	}
	var sum float64
	for i, v := range z {
		e := math.Exp(v - zmax)
		dst[i] = e
		sum += e
	}
	floats.Scale(1/sum, dst)
	return nil
}
