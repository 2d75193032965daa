package einsum

import (
	"math"
	"math/bits"
)

// labelSet is a set of labels (the label space is 128 wide).
type labelSet [2]uint64

func (s *labelSet) add(l Label)              { s[l>>6] |= 1 << (l & 63) }
func (s labelSet) has(l Label) bool          { return s[l>>6]&(1<<(l&63)) != 0 }
func (s labelSet) or(t labelSet) labelSet    { return labelSet{s[0] | t[0], s[1] | t[1]} }
func (s labelSet) and(t labelSet) labelSet   { return labelSet{s[0] & t[0], s[1] & t[1]} }
func (s labelSet) minus(t labelSet) labelSet { return labelSet{s[0] &^ t[0], s[1] &^ t[1]} }
func (s labelSet) empty() bool               { return s[0]|s[1] == 0 }
func (s labelSet) count() int                { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

func setOf(ls []Label) labelSet {
	var s labelSet
	for _, l := range ls {
		s.add(l)
	}
	return s
}

// size returns the product of the sizes of the labels in s.
func (s labelSet) size(sizes *[128]float64) float64 {
	p := 1.0
	for w := 0; w < 2; w++ {
		for m := s[w]; m != 0; m &= m - 1 {
			p *= sizes[w*64+bits.TrailingZeros64(m)]
		}
	}
	return p
}

// flopCount is NumPy's / opt_einsum's cost of contracting numTerms operands
// whose labels together are idx: prod(sizes of idx) × op_factor, where
// op_factor = max(1, numTerms-1), plus 1 when some label is summed away
// (inner is true). A pairwise contraction thus costs prod(sizes) when it is
// an outer/Hadamard product and 2·prod(sizes) (one multiply and one add per
// term) when it sums an index.
func flopCount(idx labelSet, inner bool, numTerms int, sizes *[128]float64) float64 {
	f := float64(max(1, numTerms-1))
	if inner {
		f++
	}
	return idx.size(sizes) * f
}

// pairCost returns the labels of the result of contracting a and b when the
// labels in keep must survive, and the step's cost in the flopCount model.
func pairCost(a, b, keep labelSet, sizes *[128]float64) (result labelSet, cost float64) {
	u := a.or(b)
	result = u.and(keep)
	return result, flopCount(u, !u.minus(keep).empty(), 2, sizes)
}

// keepSet returns the output labels plus the labels of every set except
// sets[i] and sets[j].
func keepSet(sets []labelSet, i, j int, out labelSet) labelSet {
	k := out
	for n, s := range sets {
		if n != i && n != j {
			k = k.or(s)
		}
	}
	return k
}

// remove returns sets without positions i < j, with r appended (the NumPy
// "linear" path convention), in a new slice.
func remove(sets []labelSet, i, j int, r labelSet) []labelSet {
	next := make([]labelSet, 0, len(sets)-1)
	for n, s := range sets {
		if n != i && n != j {
			next = append(next, s)
		}
	}
	return append(next, r)
}

// optimalPath searches every sequence of pairwise contractions (branch and
// bound on the accumulated cost) and returns the cheapest in the flopCount
// model; ties are broken by the smaller largest intermediate, then by the
// first found. There is no memory limit, so its cost is never higher than
// numpy.einsum_path(..., optimize='optimal'), which restricts
// intermediates to the largest input/output size. Use for up to
// OptimalMaxOperands operands (5: 180 complete paths).
func optimalPath(sets []labelSet, out labelSet, sizes *[128]float64) [][2]int {
	s := pathSearch{out: out, sizes: sizes, bestCost: math.Inf(1), bestMem: math.Inf(1)}
	s.dfs(sets, 0, 0)
	return s.best
}

type pathSearch struct {
	out               labelSet
	sizes             *[128]float64
	cur, best         [][2]int
	bestCost, bestMem float64
}

func (s *pathSearch) dfs(sets []labelSet, cost, mem float64) {
	if len(sets) == 1 {
		if cost < s.bestCost || (cost == s.bestCost && mem < s.bestMem) {
			s.bestCost, s.bestMem = cost, mem
			s.best = append(s.best[:0], s.cur...)
		}
		return
	}
	for i := 0; i < len(sets); i++ {
		for j := i + 1; j < len(sets); j++ {
			r, c := pairCost(sets[i], sets[j], keepSet(sets, i, j, s.out), s.sizes)
			nc := cost + c
			nm := max(mem, r.size(s.sizes))
			if nc > s.bestCost || (nc == s.bestCost && nm >= s.bestMem) {
				continue
			}
			s.cur = append(s.cur, [2]int{i, j})
			s.dfs(remove(sets, i, j, r), nc, nm)
			s.cur = s.cur[:len(s.cur)-1]
		}
	}
}

// greedyPath is NumPy's greedy heuristic (numpy/core/einsumfunc.py
// _greedy_path, from opt_einsum) without a memory limit: at each step it
// contracts the pair that minimises (-(size(a)+size(b)-size(result)),
// cost), considering first only pairs that share a label and falling back
// to outer products when none does. O(n³) pair evaluations; well under a
// millisecond for ten operands.
func greedyPath(sets []labelSet, out labelSet, sizes *[128]float64) [][2]int {
	var path [][2]int
	for len(sets) > 1 {
		bi, bj := -1, -1
		var bRemoved, bCost float64
		var bRes labelSet
		for pass := 0; pass < 2 && bi < 0; pass++ {
			for i := 0; i < len(sets); i++ {
				for j := i + 1; j < len(sets); j++ {
					if pass == 0 && sets[i].and(sets[j]).empty() {
						continue
					}
					r, c := pairCost(sets[i], sets[j], keepSet(sets, i, j, out), sizes)
					removed := sets[i].size(sizes) + sets[j].size(sizes) - r.size(sizes)
					if bi < 0 || removed > bRemoved || (removed == bRemoved && c < bCost) {
						bi, bj, bRemoved, bCost, bRes = i, j, removed, c, r
					}
				}
			}
		}
		path = append(path, [2]int{bi, bj})
		sets = remove(sets, bi, bj, bRes)
	}
	return path
}
