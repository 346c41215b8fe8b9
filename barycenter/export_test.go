package barycenter

// SetOneByOne makes s add each node's kinks one split at a time (the
// reference form of the batched descent).
func SetOneByOne(s *Solver, on bool) { s.oneByOne = on }
