package cpu

import (
	"math"

	"github.com/tsrlang/tsr/backends"
)

// Float min reductions (amin, min over a dim): the mirror of MaxF32 with
// VMINPS/PD lanes, instead of the max of the negated values.

type minFn[T float] func(x []T) T

var (
	minRedF32 minFn[float32]
	minRedF64 minFn[float64]
)

func minKey(dtype string) backends.Key { return backends.Key{Op: "min", DType: dtype, Device: "cpu"} }

func init() {
	backends.Register(minKey("float32"), backends.Candidate{Name: "go", Impl: minFn[float32](goMin[float32]), Requires: backends.TierGeneric})
	backends.Register(minKey("float64"), backends.Candidate{Name: "go", Impl: minFn[float64](goMin[float64]), Requires: backends.TierGeneric})
	registerMinAsm()
	c, ok := backends.Lookup(minKey("float32"))
	if !ok {
		panic("cpu: no kernel registered for min/float32")
	}
	minRedF32 = c.Impl.(minFn[float32])
	if c, ok = backends.Lookup(minKey("float64")); !ok {
		panic("cpu: no kernel registered for min/float64")
	}
	minRedF64 = c.Impl.(minFn[float64])
}

// MinF32 returns the minimum of x: NaN (the first NaN of x) when x holds
// one, +Inf for an empty x. Which zero a tie of -0 and +0 returns is
// unspecified (the lanes compare them equal).
func MinF32(x []float32) float32 { return minRedF32(x) }

// MinF64 is MinF32 in float64.
func MinF64(x []float64) float64 { return minRedF64(x) }

func goMin[T float](x []T) T {
	m := T(math.Inf(1))
	for _, v := range x {
		if v != v {
			return v
		}
		if v < m {
			m = v
		}
	}
	return m
}
