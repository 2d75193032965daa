package cpu

import "github.com/tsrlang/tsr/backends"

// BinOp selects the arithmetic of BinTransposedF32.
type BinOp uint8

// The operations of BinTransposedF32 (IEEE single precision, one rounding
// each).
const (
	BinAdd BinOp = iota
	BinSub
	BinMul
	BinDiv
)

type binTFn func(op BinOp, rev bool, o []float32, os int, a []float32, as int, b []float32, bs, rows, cols int)

var binT binTFn

func binTKey() backends.Key {
	return backends.Key{Op: "bin_transposed", DType: "float32", Device: "cpu"}
}

func init() {
	backends.Register(binTKey(), backends.Candidate{Name: "go", Impl: binTFn(goBinT), Requires: backends.TierGeneric})
	registerBinTAsm()
	c, ok := backends.Lookup(binTKey())
	if !ok {
		panic("cpu: no kernel registered for bin_transposed/float32")
	}
	binT = c.Impl.(binTFn)
}

// BinTransposedF32 sets o[i*os+j] = a[i*as+j] OP b[j*bs+i] (b[j*bs+i] OP
// a[i*as+j] when rev) for i < rows and j < cols: an elementwise op whose
// second operand is read transposed (x - x.t()). Strides are in elements;
// as may be 0 (a broadcast row). The AVX-512 variant transposes 16×16
// tiles of b in registers. Panics on a negative stride, os or bs < 1, or
// a slice too short for its strides.
func BinTransposedF32(op BinOp, rev bool, o []float32, os int, a []float32, as int, b []float32, bs, rows, cols int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	if op > BinDiv || os < 1 || bs < 1 || as < 0 ||
		len(o) < (rows-1)*os+cols || len(a) < (rows-1)*as+cols || len(b) < (cols-1)*bs+rows {
		panic("cpu.BinTransposedF32: bad operands")
	}
	binT(op, rev, o, os, a, as, b, bs, rows, cols)
}

func binOp1(op BinOp, x, y float32) float32 {
	switch op {
	case BinAdd:
		return x + y
	case BinSub:
		return x - y
	case BinMul:
		return x * y
	}
	return x / y
}

// goBinT is the scalar reference, in 16×16 tiles so both operands stay in
// cache.
func goBinT(op BinOp, rev bool, o []float32, os int, a []float32, as int, b []float32, bs, rows, cols int) {
	const tile = 16
	for i0 := 0; i0 < rows; i0 += tile {
		for j0 := 0; j0 < cols; j0 += tile {
			for i := i0; i < min(i0+tile, rows); i++ {
				for j := j0; j < min(j0+tile, cols); j++ {
					x, y := a[i*as+j], b[j*bs+i]
					if rev {
						x, y = y, x
					}
					o[i*os+j] = binOp1(op, x, y)
				}
			}
		}
	}
}
