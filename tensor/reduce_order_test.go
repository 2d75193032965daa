package tensor

import "testing"

// Reductions and Offsets visit their kept dims in C order. walk1 used to
// tile a transposed layout (unit stride on the second-to-last dim) in
// 32x32 blocks like the elementwise kernels, so the outputs of a
// reduction of x.transpose(0, 2) over its last dim came out scrambled
// once a kept dim exceeded the tile (and Offsets broke its C-order
// promise). Each result must equal the same reduction of a contiguous
// copy, exactly.
func TestReduceKeptDimsCOrder(t *testing.T) {
	for _, dt := range []DType{F32, F64, I64} {
		x0, err := Arange(0, 2*33*40, 1, dt)
		if err != nil {
			t.Fatal(err)
		}
		x0, _ = x0.Reshape(2, 33, 40)
		xt, _ := x0.Transpose(0, 2) // [40, 33, 2], strides (1, 40, 1320)
		xc := xt.Clone()
		type red func(*Tensor) (*Tensor, error)
		ops := map[string]red{
			"sum":  func(x *Tensor) (*Tensor, error) { return Sum(x, []int{-1}, false) },
			"prod": func(x *Tensor) (*Tensor, error) { return Prod(x, []int{-1}, false) },
			"amax": func(x *Tensor) (*Tensor, error) { return Amax(x, []int{-1}, false) },
		}
		if dt.IsFloat() {
			ops["mean"] = func(x *Tensor) (*Tensor, error) { return Mean(x, []int{-1}, false) }
			ops["std"] = func(x *Tensor) (*Tensor, error) { return Std(x, []int{-1}, 1, false) }
		}
		for name, f := range ops {
			for _, off := range []bool{false, true} {
				fastPathsOff.Store(off)
				got, err := f(xt)
				if err != nil {
					t.Fatal(err)
				}
				want, err := f(xc)
				if err != nil {
					t.Fatal(err)
				}
				g, w := got.ToFloat64s(), want.ToFloat64s()
				for i := range w {
					if g[i] != w[i] {
						t.Fatalf("%s %s (fast paths off: %v) of x.transpose(0, 2): element %d = %v, want %v", name, dt, off, i, g[i], w[i])
					}
				}
			}
			fastPathsOff.Store(false)
		}
	}
	x, _ := Arange(0, 40*33, 1, F32)
	x, _ = x.Reshape(33, 40)
	xt, _ := x.Transpose(0, 1) // [40, 33], strides (1, 40)
	var offs []int
	xt.Offsets(func(o int) { offs = append(offs, o) })
	for i, o := range offs {
		if want := (i%33)*40 + i/33; o != want {
			t.Fatalf("Offsets of a transposed [40, 33]: visit %d at %d, want %d (C order)", i, o, want)
		}
	}
}
