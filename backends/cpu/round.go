package cpu

import (
	"math"

	"github.com/tsrlang/tsr/backends"
)

// RoundMode selects how RoundF32/RoundF64 round to an integral value; the
// values are the x86 ROUNDPS rounding-control bits.
type RoundMode uint8

// Rounding modes: torch.round (half to even), torch.floor, torch.ceil and
// torch.trunc.
const (
	RoundHalfEven RoundMode = iota // nearest, ties to even (math.RoundToEven)
	RoundFloor                     // toward -inf (math.Floor)
	RoundCeil                      // toward +inf (math.Ceil)
	RoundTrunc                     // toward zero (math.Trunc)
)

// roundOps are the registry op names of the modes.
var roundOps = [...]string{"round_even", "floor", "ceil", "trunc"}

// roundRef is the scalar reference of each mode. Rounding a float32
// through float64 is exact: every integral float32 is a float64.
var roundRef = [...]func(float64) float64{math.RoundToEven, math.Floor, math.Ceil, math.Trunc}

func goRound[T float](mode RoundMode) unFn[T] {
	f := roundRef[mode]
	switch mode {
	case RoundHalfEven:
		return func(dst, x []T) {
			x = x[:len(dst)]
			for i, v := range x {
				dst[i] = T(math.RoundToEven(float64(v)))
			}
		}
	case RoundFloor:
		return func(dst, x []T) {
			x = x[:len(dst)]
			for i, v := range x {
				dst[i] = T(math.Floor(float64(v)))
			}
		}
	case RoundCeil:
		return func(dst, x []T) {
			x = x[:len(dst)]
			for i, v := range x {
				dst[i] = T(math.Ceil(float64(v)))
			}
		}
	}
	return func(dst, x []T) {
		x = x[:len(dst)]
		for i, v := range x {
			dst[i] = T(f(float64(v)))
		}
	}
}

var roundF32 [4]unFn[float32]
var roundF64 [4]unFn[float64]

func roundKey(mode RoundMode, dtype string) backends.Key {
	return backends.Key{Op: roundOps[mode], DType: dtype, Device: "cpu"}
}

func init() {
	for m := RoundHalfEven; m <= RoundTrunc; m++ {
		backends.Register(roundKey(m, "float32"), backends.Candidate{Name: "go", Impl: goRound[float32](m), Requires: backends.TierGeneric})
		backends.Register(roundKey(m, "float64"), backends.Candidate{Name: "go", Impl: goRound[float64](m), Requires: backends.TierGeneric})
	}
	registerRoundAsm()
	for m := RoundHalfEven; m <= RoundTrunc; m++ {
		c, _ := backends.Lookup(roundKey(m, "float32"))
		roundF32[m] = c.Impl.(unFn[float32])
		c, _ = backends.Lookup(roundKey(m, "float64"))
		roundF64[m] = c.Impl.(unFn[float64])
	}
}

// RoundF32 sets dst[i] to x[i] rounded to an integral value in mode, for
// i < len(dst): exact (the x86 VROUNDPS / VRNDSCALEPS instructions or
// math.RoundToEven / Floor / Ceil / Trunc), ±0, ±Inf and NaN passing
// through with their sign. dst may be x. Panics if x is shorter than dst.
func RoundF32(dst, x []float32, mode RoundMode) {
	checkBin("RoundF32", len(dst), len(x), len(x))
	roundF32[mode](dst, x)
}

// RoundF64 is RoundF32 for float64.
func RoundF64(dst, x []float64, mode RoundMode) {
	checkBin("RoundF64", len(dst), len(x), len(x))
	roundF64[mode](dst, x)
}
