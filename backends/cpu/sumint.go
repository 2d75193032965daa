package cpu

import "github.com/tsrlang/tsr/backends"

// Integer sums: torch.sum of an int64 tensor (and of the smaller integer
// dtypes once widened) wraps modulo 2^64, which makes any summation
// order exact: the vector kernels add lanes in parallel.

type sumI64Fn func(x []int64) int64

var sumI64 sumI64Fn

func sumI64Key() backends.Key { return backends.Key{Op: "sum", DType: "int64", Device: "cpu"} }

func init() {
	backends.Register(sumI64Key(), backends.Candidate{Name: "go", Impl: sumI64Fn(goSumI64), Requires: backends.TierGeneric})
	registerSumIntAsm()
	c, ok := backends.Lookup(sumI64Key())
	if !ok {
		panic("cpu: no kernel registered for sum/int64")
	}
	sumI64 = c.Impl.(sumI64Fn)
}

// SumI64 returns the sum of x wrapping modulo 2^64 (two's complement, as
// C's int64_t arithmetic on x86 and PyTorch's integer sum): the same value
// whatever the order of the additions. 0 for an empty x.
func SumI64(x []int64) int64 { return sumI64(x) }

// goSumI64 is the scalar reference: four accumulators.
func goSumI64(x []int64) int64 {
	var a0, a1, a2, a3 int64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		r := x[i : i+4 : i+4]
		a0 += r[0]
		a1 += r[1]
		a2 += r[2]
		a3 += r[3]
	}
	for ; i < len(x); i++ {
		a0 += x[i]
	}
	return a0 + a1 + a2 + a3
}
