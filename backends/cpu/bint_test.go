package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every bin_transposed variant gives a[i][j] OP b[j][i] (or reversed) bit
// for bit for each op, on odd shapes (16-row strips and 16-column tiles
// with ragged edges), leading strides larger than the shape, a broadcast
// row (as = 0), NaN/±Inf/±0 and division by zero.
func TestBinTransposedVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	sp := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1))}
	val := func() float32 {
		if r.IntN(8) == 0 {
			return sp[r.IntN(len(sp))]
		}
		return float32(r.NormFloat64())
	}
	for _, c := range candidatesFor(t, "bin_transposed", "float32") {
		f := c.Impl.(binTFn)
		for _, rows := range []int{1, 5, 16, 17, 33, 64} {
			for _, cols := range []int{1, 15, 16, 31, 48, 50} {
				for _, bcast := range []bool{false, true} {
					os, as, bs := cols+3, cols+1, rows+2
					if bcast {
						as = 0
					}
					a := make([]float32, (rows-1)*as+cols)
					b := make([]float32, (cols-1)*bs+rows)
					for i := range a {
						a[i] = val()
					}
					for i := range b {
						b[i] = val()
					}
					for op := BinAdd; op <= BinDiv; op++ {
						for _, rev := range []bool{false, true} {
							o := make([]float32, (rows-1)*os+cols)
							f(op, rev, o, os, a, as, b, bs, rows, cols)
							for i := 0; i < rows; i++ {
								for j := 0; j < cols; j++ {
									x, y := a[i*as+j], b[j*bs+i]
									if rev {
										x, y = y, x
									}
									want := binOp1(op, x, y)
									got := o[i*os+j]
									if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
										t.Fatalf("%s op %d rev %v %dx%d bcast %v: o[%d][%d] = %v, want %v", c.Name, op, rev, rows, cols, bcast, i, j, got, want)
									}
								}
							}
						}
					}
				}
			}
		}
	}
}
