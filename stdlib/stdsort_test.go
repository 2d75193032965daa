package stdlib

import (
	"math/rand/v2"
	"testing"
)

// stdSortPairs sorts (its introsort and the heapsort used past the depth
// limit), carrying each index with its key; torch's tie order is pinned
// by the mode_ties_* goldens.
func TestStdSortPairsSorts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 5, 16, 17, 33, 100, 1000} {
		for _, heap := range []bool{false, true} {
			keys := make([]float64, n)
			orig := make([]float64, n)
			idx := make([]int64, n)
			for i := range keys {
				keys[i] = float64(rng.IntN(7))
				orig[i] = keys[i]
				idx[i] = int64(i)
			}
			if heap {
				s := &pairSorter[float64]{keys, idx}
				s.heapSort(0, n)
			} else {
				stdSortPairs(keys, idx)
			}
			seen := make([]bool, n)
			for i := range keys {
				if i > 0 && keys[i] < keys[i-1] {
					t.Fatalf("n=%d heap=%v: not sorted at %d: %v", n, heap, i, keys)
				}
				if orig[idx[i]] != keys[i] || seen[idx[i]] {
					t.Fatalf("n=%d heap=%v: index %d does not follow its key", n, heap, idx[i])
				}
				seen[idx[i]] = true
			}
		}
	}
}
