package bench

import (
	"fmt"
	"testing"

	"github.com/tsrlang/tsr/einsum"
)

// BenchmarkEinsumParse measures parsing an attention equation.
func BenchmarkEinsumParse(b *testing.B) {
	for b.Loop() {
		if _, err := einsum.Parse("bhid,bhjd->bhij"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEinsumBind measures building a Plan (parse + bind + lowering)
// without the cache.
func BenchmarkEinsumBind(b *testing.B) {
	cases := []struct {
		eq     string
		shapes [][]int
	}{
		{"bhid,bhjd->bhij", [][]int{{4, 8, 128, 64}, {4, 8, 128, 64}}},
		{"ij,jk,kl->il", [][]int{{64, 512}, {512, 512}, {512, 8}}},
		{"ea,fb,abcd,gc,hd->efgh", [][]int{{10, 10}, {10, 10}, {10, 10, 10, 10}, {10, 10}, {10, 10}}},
	}
	for _, c := range cases {
		b.Run(c.eq, func(b *testing.B) {
			for b.Loop() {
				e, err := einsum.Parse(c.eq)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := e.Bind(c.shapes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEinsumPlanCached measures a plan-cache hit (the per-call cost
// the tensor runtime pays for a repeated einsum).
func BenchmarkEinsumPlanCached(b *testing.B) {
	c := einsum.NewCache(16)
	shapes := [][]int{{4, 8, 128, 64}, {4, 8, 128, 64}}
	for b.Loop() {
		if _, err := c.Plan("bhid,bhjd->bhij", shapes, "c"); err != nil {
			b.Fatal(err)
		}
	}
}

// chain returns an n-operand matrix chain "ab,bc,cd,...->a<last>" with
// varied sizes (8..20), and its shapes.
func chain(n int) (string, [][]int) {
	letters := "abcdefghijklmnopqrstuvwxyz"
	eq := ""
	var shapes [][]int
	for k := 0; k < n; k++ {
		if k > 0 {
			eq += ","
		}
		eq += letters[k : k+2]
		shapes = append(shapes, []int{8 + 7*k%13, 8 + 7*(k+1)%13})
	}
	return eq + "->a" + letters[n:n+1], shapes
}

// BenchmarkEinsumPlanner measures planning 3-10 operand contractions:
// exhaustive search up to 5 operands, greedy beyond (target < 1 ms for
// 8-10 operands).
func BenchmarkEinsumPlanner(b *testing.B) {
	for _, n := range []int{3, 4, 5, 6, 8, 10} {
		eq, shapes := chain(n)
		e, err := einsum.Parse(eq)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Bind(shapes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// A denser network: every operand shares indices with several others.
	eq := "abc,cde,efg,gha,bdf,fhb,ace,dgh,bch,aeg->"
	var shapes [][]int
	for _, t := range []string{"abc", "cde", "efg", "gha", "bdf", "fhb", "ace", "dgh", "bch", "aeg"} {
		var s []int
		for _, c := range t {
			s = append(s, 2+int(c-'a')) // a=2 ... h=9
		}
		shapes = append(shapes, s)
	}
	e, err := einsum.Parse(eq)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("dense-n=10", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.Bind(shapes); err != nil {
				b.Fatal(err)
			}
		}
	})
}
