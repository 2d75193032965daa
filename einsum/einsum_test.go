package einsum

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestParseCanonical(t *testing.T) {
	cases := []struct{ eq, want string }{
		{"ij,jk->ik", "ij,jk->ik"},
		{" i j , j k ", "ij,jk->ik"},
		{"ij,jh", "ij,jh->hi"},
		{"ba", "ba->ab"},
		{"Ab,ba", "Ab,ba->Aa"},
		{"aB", "aB->Ba"},
		{"ii", "ii->"},
		{"ii->i", "ii->i"},
		{"...ij,...jk", "...ij,...jk->...ik"},
		{"i...k,k...j->i...j", "i...k,k...j->i...j"},
		{"b...a", "b...a->...ab"},
		{"", "->"},
		{"->", "->"},
		{"i,,j", "i,,j->ij"},
		{"...", "...->..."},
	}
	for _, c := range cases {
		e, err := Parse(c.eq)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.eq, err)
			continue
		}
		if got := e.String(); got != c.want {
			t.Errorf("Parse(%q).String() = %q, want %q", c.eq, got, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		eq, msg string
		pos     int
	}{
		{"i->ii", "einsum: index 'i' appears more than once in the output", 4},
		{"ij,jk->ik k", "einsum: index 'k' appears more than once in the output", 10},
		{"ij->k", "einsum: output index 'k' does not appear in any input", 4},
		{"ij,jk->i1", "einsum: invalid character '1' in equation", 8},
		{"i1", "einsum: invalid character '1' in equation", 1},
		{"i>j", "einsum: invalid character '>' in equation", 1},
		{"i-j", "einsum: invalid character '-' in equation (did you mean '->'?)", 1},
		{"ij->i,j", "einsum: invalid character ',' in the output (the output is a single term)", 5},
		{"i\u00e9", "einsum: invalid character '\u00e9' in equation", 1},
		{"...i...", "einsum: more than one '...' in operand 0", 4},
		{"i,......", "einsum: more than one '...' in operand 1", 5},
		{"i->......", "einsum: more than one '...' in the output", 6},
		{"i..", "einsum: '.' in operand 0 is not part of an ellipsis '...'", 1},
		{"i. ..", "einsum: '.' in operand 0 is not part of an ellipsis '...'", 1},
		{"i->j->k", "einsum: '->' must appear at most once", 4},
		{"i->i-", "einsum: invalid character '-' in equation", 4},
		{"\xff", "einsum: invalid byte 0xff in equation", 0},
		{"i\tj", "einsum: invalid character '\\t' in equation", 1},
	}
	for _, c := range cases {
		_, err := Parse(c.eq)
		var ee *Error
		if !errors.As(err, &ee) {
			t.Errorf("Parse(%q) error = %v, want *Error", c.eq, err)
			continue
		}
		if ee.Msg != c.msg || ee.Pos != c.pos {
			t.Errorf("Parse(%q) = %q at %d, want %q at %d", c.eq, ee.Msg, ee.Pos, c.msg, c.pos)
		}
		if ee.ErrorKind() != "ValueError" {
			t.Errorf("kind %q", ee.ErrorKind())
		}
	}
}

func TestBindErrors(t *testing.T) {
	cases := []struct {
		eq     string
		shapes [][]int
		msg    string
	}{
		{"ij,jk,kl", [][]int{{2, 3}, {3, 4}}, "einsum: number of operands (2) does not match the equation (3)"},
		{"ij,jk", [][]int{{2, 3}, {4, 5}}, "einsum: index 'j' has size 3 in operand 0 but size 4 in operand 1"},
		{"ij,jk,jl", [][]int{{2, 1}, {3, 5}, {4, 5}}, "einsum: index 'j' has size 3 in operand 1 but size 4 in operand 2"},
		{"ii->i", [][]int{{3, 4}}, "einsum: diagonal index 'i' of operand 0 has sizes 3 and 4"},
		{"ii->i", [][]int{{1, 3}}, "einsum: diagonal index 'i' of operand 0 has sizes 1 and 3"},
		{"ij", [][]int{{2, 3, 4}}, "einsum: operand 0 has 3 dimensions but the equation gives it 2 indices ('ij')"},
		{"ij...,j", [][]int{{2}, {3}}, "einsum: operand 0 has 1 dimensions but the equation gives it at least 2 indices ('ij...')"},
		{"i...,i...", [][]int{{2, 3}, {2, 4}}, "einsum: '...' dimension has size 3 in operand 0 (dim 1) but size 4 in operand 1 (dim 1)"},
		{"i", [][]int{{-1}}, "einsum: operand 0 has a negative size -1 in dimension 0"},
	}
	for _, c := range cases {
		e, err := Parse(c.eq)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.eq, err)
		}
		_, err = e.Bind(c.shapes)
		var ee *Error
		if !errors.As(err, &ee) || ee.Msg != c.msg || ee.Pos != -1 {
			t.Errorf("Bind(%q, %v) error = %v, want %q", c.eq, c.shapes, err, c.msg)
		}
	}
}

func mustPlan(t testing.TB, eq string, shapes ...[]int) *Plan {
	t.Helper()
	e, err := Parse(eq)
	if err != nil {
		t.Fatalf("Parse(%q): %v", eq, err)
	}
	p, err := e.Bind(shapes)
	if err != nil {
		t.Fatalf("Bind(%q, %v): %v", eq, shapes, err)
	}
	return p
}

func randDense(r *rand.Rand, shape []int) *dense {
	x := newDense(shape, nil)
	for i := range x.data {
		x.data[i] = float64(r.IntN(9) - 4)
	}
	return x
}

// checkAgainstBruteForce executes eq and compares with the brute-force
// evaluator (exact: operands hold small integers).
func checkAgainstBruteForce(t *testing.T, eq string, xs []*dense) *denseOps {
	t.Helper()
	shapes := make([][]int, len(xs))
	ranks := make([]int, len(xs))
	for k, x := range xs {
		shapes[k], ranks[k] = x.shape, len(x.shape)
	}
	p := mustPlan(t, eq, shapes...)
	ops := &denseOps{}
	got, err := Execute[*dense](p, ops, xs)
	if err != nil {
		t.Fatalf("Execute(%q, %v): %v", eq, shapes, err)
	}
	terms, out := expandEllipsis(eq, ranks)
	want := bruteForce(terms, out, xs)
	if !slices.Equal(got.shape, want.shape) || !slices.Equal(got.shape, p.OutShape) {
		t.Fatalf("%q %v: shape %v, plan %v, want %v", eq, shapes, got.shape, p.OutShape, want.shape)
	}
	if d := maxAbsDiff(got.data, want.data); d != 0 {
		t.Fatalf("%q %v: max abs diff %g\nplan:\n%s", eq, shapes, d, p.Report())
	}
	// The same plan through the MatmulOps lowering.
	got, err = Execute[*dense](p, &matmulOps{}, xs)
	if err != nil {
		t.Fatalf("Execute(%q, %v) with Matmul: %v", eq, shapes, err)
	}
	if !slices.Equal(got.shape, want.shape) {
		t.Fatalf("%q %v with Matmul: shape %v, want %v", eq, shapes, got.shape, want.shape)
	}
	if d := maxAbsDiff(got.data, want.data); d != 0 {
		t.Fatalf("%q %v with Matmul: max abs diff %g\nplan:\n%s", eq, shapes, d, p.Report())
	}
	return ops
}

// TestMatmulLowering checks the op sequences of the MatmulOps lowering:
// batch dimensions are never merged, and no reshape is needed when the
// left-only, contracted and right-only labels are single dimensions.
func TestMatmulLowering(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	cases := []struct {
		eq     string
		shapes [][]int
		calls  []string
	}{
		// attention: k is transposed by a Permute view, the product is the result
		{"bhid,bhjd->bhij", [][]int{{2, 3, 4, 5}, {2, 3, 6, 5}}, []string{"Permute", "Matmul"}},
		{"bhij,bhjd->bhid", [][]int{{2, 3, 4, 6}, {2, 3, 6, 5}}, []string{"Matmul"}},
		// permuted batch dimensions (h, b in the second operand): one
		// Permute, no Reshape (Bmm would need [B, K, N] = a copy)
		{"bhid,hbjd->bhij", [][]int{{2, 3, 4, 5}, {3, 2, 6, 5}}, []string{"Permute", "Matmul"}},
		// matrix chain: 2-D products, no 3-D views
		{"ij,jk,kl->il", [][]int{{3, 4}, {4, 5}, {5, 2}}, []string{"Matmul", "Matmul"}},
		// merged contracted dims: one Reshape per operand, none after
		{"ijk,jkl->il", [][]int{{2, 3, 4}, {3, 4, 5}}, []string{"Reshape", "Reshape", "Matmul"}},
		// merged left-only dims: the product is reshaped back
		{"ijk,kl->ijl", [][]int{{2, 3, 4}, {4, 5}}, []string{"Reshape", "Matmul", "Reshape"}},
	}
	for _, c := range cases {
		xs := make([]*dense, len(c.shapes))
		for k, s := range c.shapes {
			xs[k] = randDense(r, s)
		}
		checkAgainstBruteForce(t, c.eq, xs)
		p := mustPlan(t, c.eq, c.shapes...)
		ops := &matmulOps{}
		if _, err := Execute[*dense](p, ops, xs); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ops.calls, c.calls) {
			t.Errorf("%q: calls %v, want %v", c.eq, ops.calls, c.calls)
		}
	}
}

func TestExecuteSeedCases(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		eq     string
		shapes [][]int
	}{
		{"ij->ji", [][]int{{3, 4}}},
		{"ii->", [][]int{{4, 4}}},
		{"ii->i", [][]int{{4, 4}}},
		{"bii->b", [][]int{{3, 4, 4}}},
		{"bij,bjk->bik", [][]int{{2, 3, 4}, {2, 4, 5}}},
		{"bik,bkj->bij", [][]int{{2, 3, 4}, {2, 4, 5}}},
		{"bhid,bhjd->bhij", [][]int{{2, 3, 4, 5}, {2, 3, 6, 5}}},
		{"bhij,bhjd->bhid", [][]int{{2, 3, 4, 6}, {2, 3, 6, 5}}},
		{"bshd,bthd->bhst", [][]int{{2, 4, 3, 5}, {2, 6, 3, 5}}},
		{"bhst,bthd->bshd", [][]int{{2, 3, 4, 6}, {2, 6, 3, 5}}},
		{"bm,bn->bmn", [][]int{{3, 4}, {3, 5}}},
		{"iij->ij", [][]int{{3, 3, 2}}},
		{"ij,jh", [][]int{{2, 3}, {3, 4}}},
		{"ba", [][]int{{2, 3}}},
		{"Ab,ba", [][]int{{2, 3}, {3, 4}}},
		{"ij,jk->ik", [][]int{{2, 1}, {4, 5}}},
		{"ij,jk->ijk", [][]int{{2, 1}, {4, 5}}},
		{"i...k,k...j->i...j", [][]int{{2, 3, 1, 4}, {4, 5, 6}}},
		{"...ij,...jk", [][]int{{5, 2, 3}, {3, 4}}},
		{"...ij->ij", [][]int{{5, 2, 3}}},
		{"ij,jk->ik", [][]int{{2, 0}, {0, 3}}},
		{"ij,jk->ik", [][]int{{0, 3}, {3, 4}}},
		{"ij->", [][]int{{0, 3}}},
		{"i,j->", [][]int{{3}, {4}}},
		{"i,i->", [][]int{{5}, {5}}},
		{"bi,bi->bi", [][]int{{2, 5}, {2, 5}}},
		{"iii->i", [][]int{{3, 3, 3}}},
		{"ijij->ij", [][]int{{2, 3, 2, 3}}},
		{"ii,i->i", [][]int{{1, 1}, {3}}},
		{"ij,jk,kl->il", [][]int{{2, 3}, {3, 4}, {4, 5}}},
		{"ab,bc,cd,de,ef->af", [][]int{{2, 3}, {3, 2}, {2, 4}, {4, 2}, {2, 3}}},
		{"a,b,c,d,e,f,g->", [][]int{{2}, {3}, {2}, {1}, {2}, {3}, {2}}},
		{"", [][]int{{}}},
		{",->", [][]int{{}, {}}},
	}
	for _, c := range cases {
		xs := make([]*dense, len(c.shapes))
		for k, s := range c.shapes {
			xs[k] = randDense(r, s)
		}
		checkAgainstBruteForce(t, c.eq, xs)
	}
}

// TestViewsOnly checks that single-operand einsums lower to views plus sums.
func TestViewsOnly(t *testing.T) {
	cases := []struct {
		eq    string
		shape []int
		calls []string
	}{
		{"ij->ji", []int{3, 4}, []string{"Permute"}},
		{"ij->ij", []int{3, 4}, nil},
		{"ii->i", []int{3, 3}, []string{"Diagonal"}},
		{"ii->", []int{3, 3}, []string{"Diagonal", "Sum"}},
		{"bii->b", []int{2, 3, 3}, []string{"Diagonal", "Sum"}},
		{"iij->ji", []int{3, 3, 2}, []string{"Diagonal"}},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range cases {
		ops := checkAgainstBruteForce(t, c.eq, []*dense{randDense(r, c.shape)})
		if !slices.Equal(ops.calls, c.calls) {
			t.Errorf("%q: calls %v, want %v", c.eq, ops.calls, c.calls)
		}
	}
}

func TestLoweringSteps(t *testing.T) {
	p := mustPlan(t, "bhid,bhjd->bhij", []int{4, 8, 128, 64}, []int{4, 8, 128, 64})
	st := p.Steps[0]
	if st.Kind != StepBmm || st.B != 32 || st.M != 128 || st.K != 64 || st.N != 128 {
		t.Fatalf("step %+v", st)
	}
	if st.PermLeft != nil || !slices.Equal(st.PermRight, []int{0, 1, 3, 2}) || p.Final.Perm != nil {
		t.Errorf("perms %v %v %v", st.PermLeft, st.PermRight, p.Final.Perm)
	}
	// Early sum: k occurs only in the second operand.
	p = mustPlan(t, "ij,jk->i", []int{2, 3}, []int{3, 4})
	st = p.Steps[0]
	if !slices.Equal(st.SumRight, []Label{mustLabel('k')}) || !slices.Equal(st.SumRightDims, []int{1}) {
		t.Errorf("SumRight %v %v", st.SumRight, st.SumRightDims)
	}
	// Outer product uses Mul.
	p = mustPlan(t, "bm,bn->bmn", []int{3, 4}, []int{3, 5})
	st = p.Steps[0]
	if st.Kind != StepMul || !slices.Equal(st.ViewLeft, []int{3, 4, 1}) || !slices.Equal(st.ViewRight, []int{3, 1, 5}) {
		t.Errorf("mul step %+v", st)
	}
	// Broadcast squeeze: j has size 1 in operand 0.
	p = mustPlan(t, "ij,jk->ik", []int{2, 1}, []int{4, 5})
	if !slices.Equal(p.Preps[0].Squeeze, []int{2}) {
		t.Errorf("squeeze %v", p.Preps[0].Squeeze)
	}
	// Zero-size summed index: zeros.
	p = mustPlan(t, "ij,jk->ik", []int{2, 0}, []int{0, 3})
	ops := &denseOps{}
	x, err := Execute[*dense](p, ops, []*dense{newDense([]int{2, 0}, nil), newDense([]int{0, 3}, nil)})
	if err != nil || !slices.Equal(x.shape, []int{2, 3}) || !slices.Equal(ops.calls, []string{"Zeros"}) {
		t.Errorf("zero-size: %v %v %v", x, err, ops.calls)
	}
}

func mustLabel(c byte) Label {
	l, ok := LabelOf(c)
	if !ok {
		panic("bad label")
	}
	return l
}

func TestExecuteShapeMismatch(t *testing.T) {
	p := mustPlan(t, "ij,jk->ik", []int{2, 3}, []int{3, 4})
	_, err := Execute[*dense](p, &denseOps{}, []*dense{newDense([]int{2, 3}, nil), newDense([]int{3, 5}, nil)})
	if err == nil || err.Error() != "einsum: operand 1 has shape [3 5] but the plan was bound to [3 4]" {
		t.Errorf("err = %v", err)
	}
	_, err = Execute[*dense](p, &denseOps{}, []*dense{newDense([]int{2, 3}, nil)})
	if err == nil || err.Error() != "einsum: number of operands (1) does not match the equation (2)" {
		t.Errorf("err = %v", err)
	}
}

// randomEquation returns an equation over a few letters and matching
// operands: repeated letters (diagonals), size-1 broadcasting, optional
// ellipsis, implicit or explicit output, occasionally a zero size.
func randomEquation(r *rand.Rand, maxOps int) (string, [][]int) {
	pool := []byte("abcdeAB")
	nl := 2 + r.IntN(len(pool)-1)
	letters := pool[:nl]
	size := map[byte]int{}
	for _, c := range letters {
		size[c] = 1 + r.IntN(3)
		if r.IntN(40) == 0 {
			size[c] = 0
		}
	}
	n := 1 + r.IntN(maxOps)
	useEll := r.IntN(4) == 0
	ellShape := []int{}
	if useEll {
		for k := r.IntN(3); k > 0; k-- {
			ellShape = append(ellShape, 1+r.IntN(3))
		}
	}
	var terms []string
	var shapes [][]int
	for k := 0; k < n; k++ {
		rank := r.IntN(4)
		var term []byte
		var shape []int
		local := map[byte]int{}
		ellAt := -1
		if useEll && r.IntN(2) == 0 {
			ellAt = r.IntN(rank + 1)
		}
		for d := 0; d <= rank; d++ {
			if d == ellAt {
				term = append(term, "..."...)
				e := r.IntN(len(ellShape) + 1)
				for _, s := range ellShape[len(ellShape)-e:] {
					if r.IntN(4) == 0 {
						s = 1
					}
					shape = append(shape, s)
				}
			}
			if d == rank {
				break
			}
			c := letters[r.IntN(nl)]
			s, ok := local[c]
			if !ok {
				s = size[c]
				if r.IntN(5) == 0 {
					s = 1
				}
				local[c] = s
			}
			term = append(term, c)
			shape = append(shape, s)
		}
		terms = append(terms, string(term))
		shapes = append(shapes, shape)
	}
	eq := strings.Join(terms, ",")
	if r.IntN(2) == 0 {
		// Explicit output: a random subset of the used letters.
		used := map[byte]bool{}
		for _, t := range terms {
			for i := 0; i < len(t); i++ {
				if t[i] != '.' {
					used[t[i]] = true
				}
			}
		}
		var out []byte
		for _, c := range letters {
			if used[c] && r.IntN(2) == 0 {
				out = append(out, c)
			}
		}
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		if strings.Contains(eq, "...") && r.IntN(3) > 0 {
			at := r.IntN(len(out) + 1)
			out = append(out[:at], append([]byte("..."), out[at:]...)...)
		}
		eq += "->" + string(out)
	}
	return eq, shapes
}

func TestExecuteRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	count := 0
	for count < 3000 {
		eq, shapes := randomEquation(r, 6)
		e, err := Parse(eq)
		if err != nil {
			t.Fatalf("Parse(%q): %v", eq, err)
		}
		if _, err := e.Bind(shapes); err != nil {
			continue // e.g. conflicting sizes from independent 1s: skip
		}
		xs := make([]*dense, len(shapes))
		for k, s := range shapes {
			xs[k] = randDense(r, s)
		}
		checkAgainstBruteForce(t, eq, xs)
		count++
	}
}
