package stdlib

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// refNanmedianIndex is the definition: a stable sort of the indices, NaNs
// last, and the one at position (k-1)/2.
func refNanmedianIndex(vals []float64) int {
	perm := make([]int, len(vals))
	k := 0
	for i, v := range vals {
		perm[i] = i
		if !math.IsNaN(v) {
			k++
		}
	}
	if k == 0 {
		return allNaNNthElement(perm)
	}
	slices.SortStableFunc(perm, func(a, b int) int {
		va, vb := vals[a], vals[b]
		na, nb := math.IsNaN(va), math.IsNaN(vb)
		switch {
		case na || nb:
			if na == nb {
				return 0
			}
			if na {
				return 1
			}
			return -1
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return 0
	})
	return perm[(k-1)/2]
}

// TestNanmedianIndexSelect: the linear-time selection gives the stable
// sort's index on rows with many ties, signed zeros and NaNs.
func TestNanmedianIndexSelect(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	pool := []float64{math.NaN(), 0, math.Copysign(0, -1), 1, -1, 2.5, math.Inf(1), math.Inf(-1)}
	for trial := 0; trial < 3000; trial++ {
		n := 1 + r.Intn(70)
		if trial%100 == 0 {
			n = 1 + r.Intn(5000)
		}
		vals := make([]float64, n)
		for i := range vals {
			switch r.Intn(3) {
			case 0:
				vals[i] = pool[r.Intn(len(pool))]
			case 1:
				vals[i] = float64(r.Intn(5))
			default:
				vals[i] = r.NormFloat64()
			}
		}
		want := refNanmedianIndex(vals)
		got := nanmedianIndex(vals, make([]int, n))
		if got != want {
			t.Fatalf("trial %d, n=%d: index %d, want %d (vals %v)", trial, n, got, want, vals)
		}
	}
}
