package tensor

import (
	"runtime"
	"sync/atomic"

	"github.com/tsrlang/tsr/backends/cpu"
)

// BroadcastShapes returns the NumPy/PyTorch broadcast of the shapes:
// aligned from the right, each pair of sizes must be equal or one of them
// 1. A mismatch is a RuntimeError naming both sizes:
// "The size of tensor a (3) must match the size of tensor b (4) at
// non-singleton dimension 1".
func BroadcastShapes(shapes ...[]int) ([]int, error) {
	var out []int
	for k, s := range shapes {
		if k == 0 {
			out = append([]int{}, s...)
			continue
		}
		r, err := broadcast2(out, s)
		if err != nil {
			return nil, err
		}
		out = r
	}
	if out == nil {
		out = []int{}
	}
	return out, nil
}

// broadcast2 is ATen's infer_size, scanning from the last dim.
func broadcast2(a, b []int) ([]int, error) {
	nd := max(len(a), len(b))
	out := make([]int, nd)
	for i := nd - 1; i >= 0; i-- {
		off := nd - 1 - i
		da, db := len(a)-1-off, len(b)-1-off
		sa, sb := 1, 1
		if da >= 0 {
			sa = a[da]
		}
		if db >= 0 {
			sb = b[db]
		}
		switch {
		case sa == sb || sb == 1:
			out[i] = sa
		case sa == 1:
			out[i] = sb
		default:
			return nil, errorf(RuntimeError, "The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension %d", sa, sb, i)
		}
	}
	return out, nil
}

// broadcastTo expands t to shape (known compatible).
func broadcastTo(t *Tensor, shape []int) *Tensor {
	if len(t.shape) == len(shape) {
		same := true
		for i := range shape {
			if shape[i] != t.shape[i] {
				same = false
				break
			}
		}
		if same {
			return t
		}
	}
	e, err := t.Expand(shape...)
	if err != nil {
		panic("tensor: internal broadcast error: " + err.Error())
	}
	return e
}

var numThreads atomic.Int32

func init() { numThreads.Store(int32(min(runtime.GOMAXPROCS(0), 2))) }

// SetNumThreads sets how many goroutines large elementwise kernels and
// matrix products (cpu.SetNumThreads) split into (n < 1 means 1).
func SetNumThreads(n int) {
	numThreads.Store(int32(max(n, 1)))
	cpu.SetNumThreads(max(n, 1))
}

// GetNumThreads returns the kernel thread count.
func GetNumThreads() int { return int(numThreads.Load()) }

// parallelGrain is the element count below which kernels stay on one
// goroutine (a goroutine start costs about a microsecond).
const parallelGrain = 1 << 17

// parallelFor runs fn over [0, n) in up to GetNumThreads chunks.
func parallelFor(n int, fn func(lo, hi int)) {
	k := GetNumThreads()
	if n < parallelGrain || k <= 1 {
		fn(0, n)
		return
	}
	k = min(k, n/(parallelGrain/2))
	chunk := (n + k - 1) / k
	chunk = (chunk + 15) &^ 15
	cpu.ParallelFor((n+chunk-1)/chunk, func(i int) { fn(i*chunk, min(i*chunk+chunk, n)) })
}
