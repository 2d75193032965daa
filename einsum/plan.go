package einsum

import (
	"fmt"
	"slices"
)

// OptimalMaxOperands is the largest operand count for which Bind searches
// every contraction order; beyond it Bind uses the greedy heuristic.
const OptimalMaxOperands = 5

// Plan is an Equation bound to concrete operand shapes: the output shape,
// the per-operand preparation (broadcast squeeze and diagonals), the
// sequence of pairwise contraction steps and the final reduction/permute.
// Execute runs it. A Plan is immutable and safe for concurrent use.
//
// Cost model (NumPy einsum_path / opt_einsum flop_count): contracting a set
// of operands whose labels together are I costs prod(size(I)) × op_factor,
// with op_factor = max(1, terms-1) + (1 if some label is summed away). A
// pairwise step therefore counts one multiply per term of the full index
// space, plus one add when an index is summed; labels summed early by the
// executor still count in their step's product, as in NumPy, so FLOP counts
// compare directly with numpy.einsum_path (whose printed optimized count is
// ours + 1, a NumPy quirk).
type Plan struct {
	// Equation is the bound equation.
	Equation *Equation
	// Shapes are the operand shapes the plan was bound to (copies).
	Shapes [][]int
	// NumEllipsisDims is the number of dimensions covered by "..." after
	// broadcasting all operands (0 when there is no ellipsis).
	NumEllipsisDims int
	// Sizes[l] is the size of label l after broadcasting, or -1 when l is
	// not used; len(Sizes) = NumLetters + NumEllipsisDims.
	Sizes []int
	// Output lists the output labels in order, ellipsis dimensions expanded.
	Output []Label
	// OutShape is the shape of the result.
	OutShape []int
	// Preps holds the preparation of each operand, applied first.
	Preps []Prep
	// Steps are the pairwise contractions, in execution order. Empty for a
	// single operand.
	Steps []Step
	// Final turns the last remaining tensor into the output.
	Final Final
	// Zero is true when a summed label (one not in the output) has size 0:
	// the result is all zeros, and Execute returns
	// ops.Zeros(operands[0], OutShape) without running the steps (so no
	// Bmm ever sees K = 0). Autograd then sees a constant; every operand's
	// true gradient is zero.
	Zero bool
	// Path is the contraction order in NumPy's einsum_path convention: each
	// pair indexes the current operand list, the two operands are removed
	// and their result appended at the end; [[0]] for a single operand.
	Path [][]int
	// Optimizer is "single", "pair", "optimal" or "greedy".
	Optimizer string
	// NaiveFLOPs is the cost of contracting all operands at once
	// (NumPy's "Naive FLOP count"); FLOPs is the sum of the steps' costs.
	NaiveFLOPs, FLOPs float64
	// NaiveScaling is the number of distinct labels; Scaling is the largest
	// number of labels involved in one step.
	NaiveScaling, Scaling int
	// LargestIntermediate is the element count of the largest step result
	// (the output for a single operand).
	LargestIntermediate float64
}

// Prep prepares one operand before it takes part in any contraction:
// first Reshape to Squeeze (when not nil), then Diagonal for each pair in
// Diagonals, in order.
type Prep struct {
	// Squeeze is the operand shape with its broadcast size-1 dimensions
	// removed (dimensions of size 1 whose label has another size in some
	// other operand); nil when there are none. Dropping such a dimension is
	// exact: the operand is constant along that label.
	Squeeze []int
	// Diagonals lists successive Ops.Diagonal(x, dim1, dim2) calls taking
	// the diagonal of repeated labels; each appends the diagonal as the
	// last dimension.
	Diagonals [][2]int
	// Labels are the prepared operand's labels in dimension order (all
	// distinct); Shape is its shape.
	Labels []Label
	Shape  []int
}

// StepKind selects how a pairwise step is lowered.
type StepKind uint8

const (
	// StepBmm lowers to permute, reshape to [B,M,K] x [B,K,N], Bmm, reshape.
	StepBmm StepKind = iota
	// StepMul lowers a step with no contracted index (outer or Hadamard
	// product) to a broadcasting Mul of [batch, left, 1...] and
	// [batch, 1..., right] views. It does the same B·M·N multiplies as a
	// Bmm with K=1 but needs no input copy (inserting size-1 dimensions is
	// always a view, merging dimensions for Bmm may not be) and no per-batch
	// GEMM call, so it is always the cheaper choice.
	StepMul
)

// String returns "bmm" or "mul".
func (k StepKind) String() string {
	if k == StepMul {
		return "mul"
	}
	return "bmm"
}

// Step is one pairwise contraction. The operands are the current list's
// entries Left < Right (NumPy "linear" path convention); both are removed
// and the result, with labels Result = Batch ++ LeftOnly ++ RightOnly, is
// appended at the end of the list.
type Step struct {
	// Left and Right (Left < Right) index the current operand list.
	Left, Right int
	// Label roles, after the early sums. Batch: in both operands and kept
	// (in the output or a later operand). LeftOnly/RightOnly: in one
	// operand only, kept. Contracted: in both, not kept (summed by the
	// Bmm). SumLeft/SumRight: in one operand only and not kept, summed
	// away before the contraction.
	Batch, LeftOnly, RightOnly, Contracted []Label
	SumLeft, SumRight                      []Label
	// Kind is StepBmm when Contracted is non-empty, else StepMul.
	Kind StepKind

	// Lowering, in execution order for each side: Sum over SumLeftDims
	// (dimension indices of the left operand, ascending, keepdim false;
	// nil: none), Permute by PermLeft (nil: identity), Reshape to
	// ViewLeft (nil: not needed). For StepBmm the views are [B,M,K] and
	// [B,K,N]; Bmm's [B,M,N] result is reshaped to OutShape unless OutShape
	// is nil. For StepMul the views insert size-1 dimensions and Mul's
	// result already has the result shape.
	SumLeftDims, SumRightDims []int
	PermLeft, PermRight       []int
	ViewLeft, ViewRight       []int
	OutShape                  []int
	// MatLeft, MatRight and MatOut are the StepBmm lowering used with Ops
	// that implement MatmulOps: the batch dimensions are kept separate
	// (never merged, so a permuted batch never forces a copy), the views
	// are batch ++ [M, K] and batch ++ [K, N] (nil: the permuted operand
	// already has that shape) and Matmul's batch ++ [M, N] result is
	// reshaped to Shape unless MatOut is nil. Nil for StepMul.
	MatLeft, MatRight, MatOut []int

	// B, M, K, N are the batch, left, contracted and right extents.
	B, M, K, N int
	// Result lists the labels of the result in order; Shape its shape.
	Result []Label
	Shape  []int
	// FLOPs is the step's cost (see Plan); Scaling the number of labels
	// involved; Size the number of elements of the result.
	FLOPs   float64
	Scaling int
	Size    float64
}

// Final reduces and permutes the last remaining tensor into the output:
// Sum over SumDims (ascending, keepdim false; nil: none), then Permute by
// Perm (nil: identity). SumDims is only non-empty for a single operand.
type Final struct {
	// SumDims are the dimensions summed (ascending); nil when none.
	SumDims []int
	// SumLabels are the labels of SumDims.
	SumLabels []Label
	// Perm is the permutation into output order; nil when the identity.
	Perm []int
}

// Bind checks the operand shapes against the equation and builds a Plan:
// label sizes (size-1 dimensions broadcast, PyTorch semantics), output
// shape, preparation of each operand, contraction order (exhaustive search
// for up to OptimalMaxOperands operands, greedy beyond) and the lowering of
// each step. Zero-size dimensions are allowed and give correctly shaped
// (zero-filled when a summed index is empty) results.
//
// Errors (*Error, kind ValueError, Pos -1):
//
//	einsum: number of operands (2) does not match the equation (3)
//	einsum: operand 0 has 3 dimensions but the equation gives it 2 indices ('ij')
//	einsum: diagonal index 'i' of operand 0 has sizes 3 and 4
//	einsum: index 'j' has size 3 in operand 0 but size 4 in operand 1
//	einsum: '...' dimension has size 3 in operand 0 (dim 1) but size 4 in operand 1 (dim 0)
func (e *Equation) Bind(shapes [][]int) (*Plan, error) {
	n := len(e.Inputs)
	if len(shapes) != n {
		return nil, errorf(-1, "number of operands (%d) does not match the equation (%d)", len(shapes), n)
	}
	p := &Plan{Equation: e, Shapes: make([][]int, n)}
	// Ellipsis extents and ranks.
	ell := make([]int, n)
	E := 0
	for k, t := range e.Inputs {
		sh := shapes[k]
		p.Shapes[k] = slices.Clone(sh)
		for d, s := range sh {
			if s < 0 {
				return nil, errorf(-1, "operand %d has a negative size %d in dimension %d", k, s, d)
			}
		}
		if !t.HasEllipsis() {
			if len(sh) != len(t.Labels) {
				return nil, errorf(-1, "operand %d has %d dimensions but the equation gives it %d indices ('%s')", k, len(sh), len(t.Labels), t)
			}
			continue
		}
		if len(sh) < len(t.Labels) {
			return nil, errorf(-1, "operand %d has %d dimensions but the equation gives it at least %d indices ('%s')", k, len(sh), len(t.Labels), t)
		}
		ell[k] = len(sh) - len(t.Labels)
		E = max(E, ell[k])
	}
	if E > MaxEllipsisDims {
		return nil, errorf(-1, "'...' covers %d dimensions, more than the %d supported", E, MaxEllipsisDims)
	}
	p.NumEllipsisDims = E
	nl := NumLetters + E
	// Full label list of each operand, ellipsis expanded (right-aligned).
	full := make([][]Label, n)
	for k, t := range e.Inputs {
		ls := make([]Label, 0, len(shapes[k]))
		for i, l := range t.Labels {
			if i == t.Ellipsis {
				ls = appendEllipsis(ls, E-ell[k], E)
			}
			ls = append(ls, l)
		}
		if t.Ellipsis == len(t.Labels) {
			ls = appendEllipsis(ls, E-ell[k], E)
		}
		full[k] = ls
	}
	// Label sizes: equal within an operand, broadcast across operands.
	p.Sizes = make([]int, nl)
	for i := range p.Sizes {
		p.Sizes[i] = -1
	}
	from := make([]int, nl) // operand that set a size other than 1
	fromDim := make([]int, nl)
	for k, ls := range full {
		sh := shapes[k]
		for d, l := range ls {
			if j := slices.Index(ls, l); j < d && sh[j] != sh[d] {
				return nil, errorf(-1, "diagonal index %s of operand %d has sizes %d and %d", quoteLabel(l), k, sh[j], sh[d])
			}
			switch cur := p.Sizes[l]; {
			case cur == -1 || (cur == 1 && sh[d] != 1):
				p.Sizes[l], from[l], fromDim[l] = sh[d], k, d
			case sh[d] != 1 && sh[d] != cur:
				if l.IsEllipsis() {
					return nil, errorf(-1, "'...' dimension has size %d in operand %d (dim %d) but size %d in operand %d (dim %d)", cur, from[l], fromDim[l], sh[d], k, d)
				}
				return nil, errorf(-1, "index '%c' has size %d in operand %d but size %d in operand %d", l.Letter(), cur, from[l], sh[d], k)
			}
		}
	}
	var sizes [128]float64
	for l, s := range p.Sizes {
		sizes[l] = float64(s)
	}
	// Output labels.
	o := e.Output
	for i, l := range o.Labels {
		if i == o.Ellipsis {
			p.Output = appendEllipsis(p.Output, 0, E)
		}
		p.Output = append(p.Output, l)
	}
	if o.Ellipsis == len(o.Labels) {
		p.Output = appendEllipsis(p.Output, 0, E)
	}
	p.OutShape = make([]int, len(p.Output))
	for i, l := range p.Output {
		p.OutShape[i] = p.Sizes[l]
	}
	outSet := setOf(p.Output)
	for l, s := range p.Sizes {
		if s == 0 && !outSet.has(Label(l)) {
			p.Zero = true
		}
	}

	// Preparation: squeeze broadcast size-1 dimensions, then diagonals.
	p.Preps = make([]Prep, n)
	sets := make([]labelSet, n)
	for k, ls := range full {
		sh := shapes[k]
		var labels []Label
		var shape []int
		for d, l := range ls {
			if sh[d] == 1 && p.Sizes[l] != 1 {
				continue
			}
			labels = append(labels, l)
			shape = append(shape, sh[d])
		}
		pr := &p.Preps[k]
		if len(labels) != len(ls) {
			pr.Squeeze = append([]int{}, shape...) // non-nil even when empty
		}
		for {
			d1, d2 := firstRepeat(labels)
			if d1 < 0 {
				break
			}
			pr.Diagonals = append(pr.Diagonals, [2]int{d1, d2})
			l, s := labels[d1], shape[d1]
			labels = append(slices.Delete(slices.Delete(labels, d2, d2+1), d1, d1+1), l)
			shape = append(slices.Delete(slices.Delete(shape, d2, d2+1), d1, d1+1), s)
		}
		pr.Labels, pr.Shape = labels, shape
		if pr.Labels == nil {
			pr.Labels, pr.Shape = []Label{}, []int{}
		}
		sets[k] = setOf(labels)
	}

	// Cost summary.
	var all labelSet
	total := 0
	for _, s := range sets {
		all = all.or(s)
		total += s.count()
	}
	p.NaiveScaling = all.count()
	p.NaiveFLOPs = flopCount(all, total > all.count(), n, &sizes)

	// Contraction order.
	var path [][2]int
	switch {
	case n == 1:
		p.Optimizer = "single"
	case n == 2:
		p.Optimizer = "pair"
		path = [][2]int{{0, 1}}
	case n <= OptimalMaxOperands:
		p.Optimizer = "optimal"
		path = optimalPath(sets, outSet, &sizes)
	default:
		p.Optimizer = "greedy"
		path = greedyPath(sets, outSet, &sizes)
	}

	// Lower the steps.
	type operand struct {
		labels []Label
		shape  []int
	}
	list := make([]operand, n)
	for k := range p.Preps {
		list[k] = operand{p.Preps[k].Labels, p.Preps[k].Shape}
	}
	for _, pr := range path {
		i, j := pr[0], pr[1]
		keep := outSet
		for m, op := range list {
			if m != i && m != j {
				keep = keep.or(setOf(op.labels))
			}
		}
		st := p.lowerStep(i, j, list[i].labels, list[j].labels, keep, &sizes)
		p.Steps = append(p.Steps, st)
		p.Path = append(p.Path, []int{i, j})
		p.FLOPs += st.FLOPs
		p.Scaling = max(p.Scaling, st.Scaling)
		p.LargestIntermediate = max(p.LargestIntermediate, st.Size)
		list = slices.Delete(list, j, j+1)
		list = slices.Delete(list, i, i+1)
		list = append(list, operand{st.Result, st.Shape})
	}
	last := list[0]
	if n == 1 {
		p.Path = [][]int{{0}}
		s := sets[0]
		p.FLOPs = flopCount(s, !s.minus(outSet).empty(), 1, &sizes)
		p.Scaling = s.count()
		p.LargestIntermediate = outSet.size(&sizes)
	}
	// Final: sum what is not in the output, then permute into output order.
	var rest []Label
	for d, l := range last.labels {
		if outSet.has(l) {
			rest = append(rest, l)
		} else {
			p.Final.SumDims = append(p.Final.SumDims, d)
			p.Final.SumLabels = append(p.Final.SumLabels, l)
		}
	}
	perm := make([]int, len(p.Output))
	for i, l := range p.Output {
		perm[i] = slices.Index(rest, l)
	}
	if !isIdentity(perm) {
		p.Final.Perm = perm
	}
	return p, nil
}

// lowerStep builds the Step contracting operands a (position i) and b
// (position j) of the current list; keep holds the labels that must survive.
func (p *Plan) lowerStep(i, j int, la, lb []Label, keep labelSet, sizes *[128]float64) Step {
	st := Step{Left: i, Right: j}
	setA, setB := setOf(la), setOf(lb)
	u := setA.or(setB)
	st.Scaling = u.count()
	res, cost := pairCost(setA, setB, keep, sizes)
	st.FLOPs = cost
	st.Size = res.size(sizes)

	// Early sums.
	var la2, lb2 []Label
	for d, l := range la {
		if !setB.has(l) && !keep.has(l) {
			st.SumLeft = append(st.SumLeft, l)
			st.SumLeftDims = append(st.SumLeftDims, d)
		} else {
			la2 = append(la2, l)
		}
	}
	for d, l := range lb {
		if !setA.has(l) && !keep.has(l) {
			st.SumRight = append(st.SumRight, l)
			st.SumRightDims = append(st.SumRightDims, d)
		} else {
			lb2 = append(lb2, l)
		}
	}
	a2, b2 := setOf(la2), setOf(lb2)
	for _, l := range la2 {
		switch {
		case !b2.has(l):
			st.LeftOnly = append(st.LeftOnly, l)
		case keep.has(l):
			st.Batch = append(st.Batch, l)
		default:
			st.Contracted = append(st.Contracted, l)
		}
	}
	for _, l := range lb2 {
		if !a2.has(l) {
			st.RightOnly = append(st.RightOnly, l)
		}
	}
	st.B, st.M, st.K, st.N = p.extent(st.Batch), p.extent(st.LeftOnly), p.extent(st.Contracted), p.extent(st.RightOnly)
	st.Result = slices.Concat(st.Batch, st.LeftOnly, st.RightOnly)
	if st.Result == nil {
		st.Result = []Label{}
	}
	st.Shape = p.shapeOf(st.Result)

	permute := func(have, want []Label) []int {
		perm := make([]int, len(want))
		for k, l := range want {
			perm[k] = slices.Index(have, l)
		}
		if isIdentity(perm) {
			return nil
		}
		return perm
	}
	ones := func(k int) []int { return make([]int, k) }
	fill1 := func(s []int) []int {
		for k := range s {
			s[k] = 1
		}
		return s
	}
	if len(st.Contracted) == 0 {
		st.Kind = StepMul
		wantA := slices.Concat(st.Batch, st.LeftOnly)
		wantB := slices.Concat(st.Batch, st.RightOnly)
		st.PermLeft = permute(la2, wantA)
		st.PermRight = permute(lb2, wantB)
		if len(st.RightOnly) > 0 {
			st.ViewLeft = slices.Concat(p.shapeOf(wantA), fill1(ones(len(st.RightOnly))))
		}
		if len(st.LeftOnly) > 0 {
			st.ViewRight = slices.Concat(p.shapeOf(st.Batch), fill1(ones(len(st.LeftOnly))), p.shapeOf(st.RightOnly))
		}
		return st
	}
	st.Kind = StepBmm
	wantA := slices.Concat(st.Batch, st.LeftOnly, st.Contracted)
	wantB := slices.Concat(st.Batch, st.Contracted, st.RightOnly)
	st.PermLeft = permute(la2, wantA)
	st.PermRight = permute(lb2, wantB)
	st.ViewLeft = []int{st.B, st.M, st.K}
	st.ViewRight = []int{st.B, st.K, st.N}
	if slices.Equal(st.ViewLeft, p.shapeOf(wantA)) {
		st.ViewLeft = nil
	}
	if slices.Equal(st.ViewRight, p.shapeOf(wantB)) {
		st.ViewRight = nil
	}
	if !slices.Equal(st.Shape, []int{st.B, st.M, st.N}) {
		st.OutShape = st.Shape
	}
	batch := p.shapeOf(st.Batch)
	st.MatLeft = append(slices.Clone(batch), st.M, st.K)
	st.MatRight = append(slices.Clone(batch), st.K, st.N)
	if slices.Equal(st.MatLeft, p.shapeOf(wantA)) {
		st.MatLeft = nil
	}
	if slices.Equal(st.MatRight, p.shapeOf(wantB)) {
		st.MatRight = nil
	}
	if !slices.Equal(st.Shape, append(batch, st.M, st.N)) {
		st.MatOut = st.Shape
	}
	return st
}

func (p *Plan) extent(ls []Label) int {
	e := 1
	for _, l := range ls {
		e *= p.Sizes[l]
	}
	return e
}

func (p *Plan) shapeOf(ls []Label) []int {
	s := make([]int, len(ls))
	for k, l := range ls {
		s[k] = p.Sizes[l]
	}
	return s
}

func appendEllipsis(ls []Label, from, to int) []Label {
	for k := from; k < to; k++ {
		ls = append(ls, EllipsisLabel+Label(k))
	}
	return ls
}

// firstRepeat returns the first two positions holding the same label, or
// -1, -1.
func firstRepeat(ls []Label) (int, int) {
	for d1, l := range ls {
		for d2 := d1 + 1; d2 < len(ls); d2++ {
			if ls[d2] == l {
				return d1, d2
			}
		}
	}
	return -1, -1
}

func isIdentity(perm []int) bool {
	for k, v := range perm {
		if k != v {
			return false
		}
	}
	return true
}

func quoteLabel(l Label) string {
	if l.IsEllipsis() {
		return fmt.Sprintf("'...' (dimension %d)", l-EllipsisLabel)
	}
	return fmt.Sprintf("'%c'", l.Letter())
}
