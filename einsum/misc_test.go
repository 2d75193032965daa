package einsum

import (
	"errors"

	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestReport(t *testing.T) {
	p := mustPlan(t, "ij,jk,kl->il", []int{64, 512}, []int{512, 512}, []int{512, 8})
	r := p.Report()
	for _, want := range []string{
		"  Complete contraction:  ij,jk,kl->il\n",
		"         Naive scaling:  4\n",
		"     Optimized scaling:  3\n",
		"      Naive FLOP count:  4.027e+08\n",
		"  Optimized FLOP count:  4.719e+06\n",
		"   Theoretical speedup:  85.333\n",
		"  Largest intermediate:  4.096e+03 elements\n",
		"                  Path:  [(1, 2), (0, 1)]\n",
		"             Optimizer:  optimal\n",
		"   3                   jk,kl->jl                                ij,jl->il    bmm B=1 M=512 K=512 N=8\n",
		"   3                   ij,jl->il                                   il->il    bmm B=1 M=64 K=512 N=8\n",
	} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
	p = mustPlan(t, "...ii->...", []int{2, 3, 3})
	r = p.Report()
	if !strings.Contains(r, "aii->a") || !strings.Contains(r, "diagonal, sum i") || !strings.Contains(r, "[(0,)]") {
		t.Errorf("single-operand report:\n%s", r)
	}
}

func TestGreedyLarge(t *testing.T) {
	// A 10-operand chain with a side ring: greedy must give a valid path
	// far cheaper than the naive count, and execute correctly.
	eq := "ab,bc,cd,de,ef,fg,gh,hi,ij,ja->"
	p := mustPlan(t, eq, [][]int{{2, 3}, {3, 2}, {2, 3}, {3, 2}, {2, 3}, {3, 2}, {2, 3}, {3, 2}, {2, 3}, {3, 2}}...)
	if p.Optimizer != "greedy" || len(p.Steps) != 9 {
		t.Fatalf("optimizer %s, %d steps", p.Optimizer, len(p.Steps))
	}
	if p.FLOPs >= p.NaiveFLOPs {
		t.Errorf("greedy %v >= naive %v", p.FLOPs, p.NaiveFLOPs)
	}
	r := rand.New(rand.NewPCG(7, 8))
	xs := make([]*dense, len(p.Shapes))
	for k, s := range p.Shapes {
		xs[k] = randDense(r, s)
	}
	checkAgainstBruteForce(t, eq, xs)
}

func TestOptimalNoWorseThanGreedy(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for it := 0; it < 200; it++ {
		eq, shapes := randomEquation(r, 5)
		e, _ := Parse(eq)
		p, err := e.Bind(shapes)
		if err != nil || len(shapes) < 3 {
			continue
		}
		var sets []labelSet
		var sizes [128]float64
		for l, s := range p.Sizes {
			sizes[l] = float64(s)
		}
		for _, pr := range p.Preps {
			sets = append(sets, setOf(pr.Labels))
		}
		g := pathCost(greedyPath(sets, setOf(p.Output), &sizes), sets, setOf(p.Output), &sizes)
		if p.FLOPs > g {
			t.Errorf("%q %v: optimal %v > greedy %v", eq, shapes, p.FLOPs, g)
		}
	}
}

func pathCost(path [][2]int, sets []labelSet, out labelSet, sizes *[128]float64) float64 {
	total := 0.0
	for _, pr := range path {
		r, c := pairCost(sets[pr[0]], sets[pr[1]], keepSet(sets, pr[0], pr[1], out), sizes)
		total += c
		sets = remove(sets, pr[0], pr[1], r)
	}
	return total
}

func TestCache(t *testing.T) {
	c := NewCache(2)
	p1, err := c.Plan("ij,jk", [][]int{{2, 3}, {3, 4}}, "")
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := c.Plan("ij,jk", [][]int{{2, 3}, {3, 4}}, "")
	if p1 != p2 {
		t.Error("second lookup did not hit")
	}
	p3, _ := c.Plan("ij,jk", [][]int{{2, 3}, {3, 4}}, "s1")
	if p3 == p1 {
		t.Error("strides signature ignored")
	}
	c.Plan("ij,jk", [][]int{{2, 3}, {3, 5}}, "") // evicts the LRU entry (p1's key... p3 is newer)
	if c.Len() != 2 {
		t.Errorf("len %d", c.Len())
	}
	if p, _ := c.Plan("ij,jk", [][]int{{2, 3}, {3, 4}}, ""); p == p1 {
		t.Error("LRU entry not evicted")
	}
	// Shape lists that would collide under naive concatenation.
	a, _ := c.Plan("i,j", [][]int{{12}, {3}}, "")
	b, _ := c.Plan("i,j", [][]int{{1}, {23}}, "")
	if a == b {
		t.Error("distinct shapes share a key")
	}
	if _, err := c.Plan("ij,jk", [][]int{{2, 3}, {4, 4}}, ""); err == nil {
		t.Error("bad shapes accepted")
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				n := i%5 + 1
				if _, err := PlanFor("bij,bjk->bik", [][]int{{n, 2, 3}, {n, 3, 4}}, ""); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if h, m := DefaultCache.Stats(); h+m != 1600 || m < 5 {
		t.Errorf("stats hits %d misses %d", h, m)
	}
}

func TestLabels(t *testing.T) {
	for _, c := range []byte("AZaz") {
		l, ok := LabelOf(c)
		if !ok || l.Letter() != c || l.String() != string(c) {
			t.Errorf("label %c: %v %v", c, l, ok)
		}
	}
	if l, _ := LabelOf('a'); l != 26 {
		t.Errorf("a = %d", l)
	}
	if _, ok := LabelOf('1'); ok {
		t.Error("'1' accepted")
	}
	if s := (EllipsisLabel + 2).String(); s != "...2" {
		t.Errorf("ellipsis label %q", s)
	}
}

func TestTooManyEllipsisDims(t *testing.T) {
	e, _ := Parse("...")
	shape := make([]int, MaxEllipsisDims+1)
	for i := range shape {
		shape[i] = 1
	}
	_, err := e.Bind([][]int{shape})
	var ee *Error
	if !errors.As(err, &ee) || !strings.Contains(ee.Msg, "covers 77 dimensions") {
		t.Errorf("err %v", err)
	}
	p, err := e.Bind([][]int{shape[:MaxEllipsisDims]})
	if err != nil || len(p.OutShape) != MaxEllipsisDims {
		t.Errorf("max ellipsis: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"ij,jk->ik", "...ij,...jk", "i...k,k...j->i...j", "ii->", "i->ii", "a-b", "......", "->->", "é", ".", "i,", ",", "ij->k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, eq string) {
		e, err := Parse(eq)
		if err != nil {
			var ee *Error
			if !errors.As(err, &ee) || !strings.HasPrefix(ee.Msg, "einsum: ") || ee.Pos < 0 || ee.Pos >= len(eq) {
				t.Fatalf("Parse(%q): bad error %#v", eq, err)
			}
			return
		}
		canon := e.String()
		e2, err := Parse(canon)
		if err != nil || e2.String() != canon {
			t.Fatalf("Parse(%q) = %q does not round-trip: %v", eq, canon, err)
		}
	})
}

// FuzzBindExecute binds fuzzed equations to small fuzzed shapes and checks
// Execute against brute force whenever Bind succeeds.
func FuzzBindExecute(f *testing.F) {
	f.Add("ij,jk->ik", []byte{2, 3, 3, 1})
	f.Add("...ii,i...->i", []byte{2, 1, 2, 2, 1})
	f.Add("ab,bc,cd,da", []byte{1, 2, 3, 2, 1, 0})
	f.Fuzz(func(t *testing.T, eq string, dims []byte) {
		e, err := Parse(eq)
		if err != nil || len(e.Inputs) > 6 {
			return
		}
		shapes := make([][]int, len(e.Inputs))
		di := 0
		for k, term := range e.Inputs {
			rank := len(term.Labels)
			if term.HasEllipsis() && di < len(dims) {
				rank += int(dims[di] % 3)
				di++
			}
			if rank > 5 {
				return
			}
			for d := 0; d < rank; d++ {
				s := 2
				if di < len(dims) {
					s = int(dims[di] % 4)
					di++
				}
				shapes[k] = append(shapes[k], s)
			}
		}
		p, err := e.Bind(shapes)
		if err != nil {
			var ee *Error
			if !errors.As(err, &ee) {
				t.Fatalf("Bind: %v", err)
			}
			return
		}
		labels := 1
		for _, s := range p.Sizes {
			if s > 1 {
				labels *= s
			}
		}
		if labels > 1<<12 {
			return
		}
		xs := make([]*dense, len(shapes))
		for k, s := range shapes {
			xs[k] = newDense(s, nil)
			for i := range xs[k].data {
				xs[k].data[i] = float64(i%5 - 2)
			}
		}
		got, err := Execute[*dense](p, &denseOps{}, xs)
		if err != nil {
			t.Fatalf("Execute(%q, %v): %v", eq, shapes, err)
		}
		ranks := make([]int, len(shapes))
		for k := range shapes {
			ranks[k] = len(shapes[k])
		}
		terms, out := expandEllipsis(e.String(), ranks)
		want := bruteForce(terms, out, xs)
		if !slices.Equal(got.shape, want.shape) || maxAbsDiff(got.data, want.data) != 0 {
			t.Fatalf("%q %v: got %v %v want %v %v", eq, shapes, got.shape, got.data, want.shape, want.data)
		}
	})
}

// scribbleOps overwrites every slice it is given after use, to check that
// Execute does not hand out the Plan's own slices.
type scribbleOps struct{ denseOps }

func scribble(s []int) {
	for i := range s {
		s[i] = -7
	}
}

func (o *scribbleOps) Permute(x *dense, perm []int) (*dense, error) {
	defer scribble(perm)
	return o.denseOps.Permute(x, perm)
}

func (o *scribbleOps) Reshape(x *dense, shape []int) (*dense, error) {
	defer scribble(shape)
	return o.denseOps.Reshape(x, shape)
}

func (o *scribbleOps) Sum(x *dense, dims []int, keepdim bool) (*dense, error) {
	r, err := o.denseOps.Sum(x, dims, keepdim)
	scribble(dims)
	return r, err
}

func TestPlanNotAliased(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	p := mustPlan(t, "ij,jk,lk->li", []int{2, 3}, []int{3, 4}, []int{5, 4})
	p2 := mustPlan(t, "ii,ij->", []int{3, 3}, []int{3, 1})
	for range 2 {
		for _, pp := range []*Plan{p, p2} {
			xs := make([]*dense, len(pp.Shapes))
			for k, s := range pp.Shapes {
				xs[k] = randDense(r, s)
			}
			got, err := Execute[*dense](pp, &scribbleOps{}, xs)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := Execute[*dense](pp, &denseOps{}, xs)
			if !slices.Equal(got.shape, want.shape) || maxAbsDiff(got.data, want.data) != 0 {
				t.Fatalf("results differ after scribbling")
			}
		}
	}
}
