package cpu

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestSumTorchGolden checks SumTorchF32/F64 bit for bit against torch.sum
// (testdata/gen_sum_torch.py) with the active add_rows kernel, and every
// add_rows candidate against the pure-Go one.
func TestSumTorchGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/sum_torch_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases []struct {
			F64     bool
			N, Seed int
			Scale   float64
			Bits    uint64
		}
	}
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) < 1800 {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	for _, c := range golden.Cases {
		if c.F64 {
			x := make([]float64, c.N)
			for i := range x {
				x[i] = (float64((i*7919+c.Seed*104729)%10007)/1000.0 - 5.0) * c.Scale
			}
			if got := SumTorchF64(x); math.Float64bits(got) != c.Bits {
				t.Errorf("f64 n=%d seed=%d scale=%g: %v, torch %v", c.N, c.Seed, c.Scale, got, math.Float64frombits(c.Bits))
			}
			continue
		}
		x := make([]float32, c.N)
		for i := range x {
			x[i] = float32(float64((i*7919+c.Seed*104729)%10007)/1000.0-5.0) * float32(c.Scale)
		}
		if got := SumTorchF32(x); uint64(math.Float32bits(got)) != c.Bits {
			t.Errorf("f32 n=%d seed=%d scale=%g: %v, torch %v", c.N, c.Seed, c.Scale, got, math.Float32frombits(uint32(c.Bits)))
		}
	}
	// every add_rows candidate sums like the pure-Go loop
	x32 := make([]float32, 32*37)
	x64 := make([]float64, 16*37)
	for i := range x32 {
		x32[i] = float32(i%13) * 0.37
	}
	for i := range x64 {
		x64[i] = float64(i%11) * 0.41
	}
	var want32 [rowsMax]float32
	var want64 [rowsMax]float64
	goAddRows(&want32, x32, 32, 37)
	goAddRows(&want64, x64, 16, 37)
	for _, c := range candidatesFor(t, "add_rows", "float32") {
		var got [rowsMax]float32
		c.Impl.(addRowsFn[float32])(&got, x32, 32, 37)
		if got != want32 {
			t.Errorf("add_rows/float32 %s: %v, want %v", c.Name, got, want32)
		}
	}
	for _, c := range candidatesFor(t, "add_rows", "float64") {
		var got [rowsMax]float64
		c.Impl.(addRowsFn[float64])(&got, x64, 16, 37)
		if got != want64 {
			t.Errorf("add_rows/float64 %s: %v, want %v", c.Name, got, want64)
		}
	}
	// and with rows further apart than their lanes (a sum down columns)
	goAddRows(&want32, x32, 33, 34)
	goAddRows(&want64, x64, 17, 34)
	for _, c := range candidatesFor(t, "add_rows", "float32") {
		var got [rowsMax]float32
		c.Impl.(addRowsFn[float32])(&got, x32, 32, 37)
		c.Impl.(addRowsFn[float32])(&got, x32, 33, 34)
		if got != want32 {
			t.Errorf("add_rows/float32 %s ldx 33: %v, want %v", c.Name, got, want32)
		}
	}
	for _, c := range candidatesFor(t, "add_rows", "float64") {
		var got [rowsMax]float64
		c.Impl.(addRowsFn[float64])(&got, x64, 16, 37)
		c.Impl.(addRowsFn[float64])(&got, x64, 17, 34)
		if got != want64 {
			t.Errorf("add_rows/float64 %s ldx 17: %v, want %v", c.Name, got, want64)
		}
	}
}

type torchGoldenCase struct {
	N, Seed int
	Scale   float64
	Bits    []uint32
}

type torchGoldenCase64 struct {
	N, Seed int
	Scale   float64
	Bits    []uint64
}

func goldenInputs(c torchGoldenCase) []float32 {
	x := make([]float32, c.N)
	for i := range x {
		x[i] = float32(float64((i*7919+c.Seed*104729)%10007)/1000.0-5.0) * float32(c.Scale)
	}
	return x
}

type expSoftmaxGolden struct {
	Exp, Softmax []torchGoldenCase
	Exp64        []torchGoldenCase64
}

func loadExpSoftmaxGolden(t *testing.T) expSoftmaxGolden {
	data, err := os.ReadFile("testdata/exp_softmax_torch_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g expSoftmaxGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestExpMatchesSleef: every exp_shift_sum candidate and ExpSleefF32/F64
// give torch.exp's bits (SLEEF's expf / exp), slice tails included.
func TestExpMatchesSleef(t *testing.T) {
	g := loadExpSoftmaxGolden(t)
	for _, c := range g.Exp64 {
		x := make([]float64, c.N)
		for i := range x {
			x[i] = (float64((i*7919+c.Seed*104729)%10007)/1000.0 - 5.0) * c.Scale
		}
		for i, v := range x {
			if got := math.Float64bits(ExpSleefF64(v)); got != c.Bits[i] {
				t.Fatalf("ExpSleefF64(%v) = %v, torch %v", v, ExpSleefF64(v), math.Float64frombits(c.Bits[i]))
			}
		}
		for _, cand := range candidatesFor(t, "exp_shift_sum", "float64") {
			f := cand.Impl.(expShiftFn[float64])
			for _, n := range []int{len(x), 7, 33} {
				dst := make([]float64, n)
				f(dst, x[:n], 0)
				for i, v := range dst {
					if math.Float64bits(v) != c.Bits[i] {
						t.Fatalf("%s n=%d: exp(%v) = %v, torch %v", cand.Name, n, x[i], v, math.Float64frombits(c.Bits[i]))
					}
				}
			}
		}
	}
	for _, c := range g.Exp {
		x := goldenInputs(c)
		for i, v := range x {
			if got := math.Float32bits(ExpSleefF32(v)); got != c.Bits[i] {
				t.Fatalf("ExpSleefF32(%v) = %v, torch %v", v, ExpSleefF32(v), math.Float32frombits(c.Bits[i]))
			}
		}
		for _, cand := range candidatesFor(t, "exp_shift_sum", "float32") {
			f := cand.Impl.(expShiftFn[float32])
			for _, n := range []int{len(x), 7, 33} { // whole vectors and a tail
				dst := make([]float32, n)
				f(dst, x[:n], 0)
				for i, v := range dst {
					if math.Float32bits(v) != c.Bits[i] {
						t.Fatalf("%s n=%d: exp(%v) = %v, torch %v", cand.Name, n, x[i], v, math.Float32frombits(c.Bits[i]))
					}
				}
			}
		}
	}
}

// TestSoftmaxMatchesTorch: every float32 softmax_rows candidate gives
// torch.softmax's bits (SLEEF exp, reduce_all's sum order, 1/sum scaling).
func TestSoftmaxMatchesTorch(t *testing.T) {
	rows := loadExpSoftmaxGolden(t).Softmax
	for _, cand := range candidatesFor(t, "softmax_rows", "float32") {
		f := cand.Impl.(rowsFn[float32])
		for _, c := range rows {
			x := goldenInputs(c)
			dst := make([]float32, len(x))
			f(dst, x, 1, len(x))
			for i, v := range dst {
				if math.Float32bits(v) != c.Bits[i] {
					t.Fatalf("%s n=%d: softmax[%d] = %v, torch %v", cand.Name, c.N, i, v, math.Float32frombits(c.Bits[i]))
				}
			}
		}
	}
}

// TestSumColsTorchGolden checks SumColsTorchF32/F64 bit for bit against
// torch's x.sum(0) (testdata/gen_sumcols_torch.py).
func TestSumColsTorchGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/sumcols_torch_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases []struct {
			F64              bool
			Rows, Cols, Seed int
			Scale            float64
			Bits             []uint64
		}
	}
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) < 500 {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	for _, c := range golden.Cases {
		n := c.Rows * c.Cols
		if c.F64 {
			x, dst := make([]float64, n), make([]float64, c.Cols)
			for i := range x {
				x[i] = (float64((i*7919+c.Seed*104729)%10007)/1000.0 - 5.0) * c.Scale
			}
			SumColsTorchF64(dst, x, c.Rows, c.Cols)
			for j, v := range dst {
				if math.Float64bits(v) != c.Bits[j] {
					t.Fatalf("f64 [%d, %d] col %d: %v, torch %v", c.Rows, c.Cols, j, v, math.Float64frombits(c.Bits[j]))
				}
			}
			continue
		}
		x, dst := make([]float32, n), make([]float32, c.Cols)
		for i := range x {
			x[i] = float32(float64((i*7919+c.Seed*104729)%10007)/1000.0-5.0) * float32(c.Scale)
		}
		SumColsTorchF32(dst, x, c.Rows, c.Cols)
		for j, v := range dst {
			if uint64(math.Float32bits(v)) != c.Bits[j] {
				t.Fatalf("f32 [%d, %d] col %d: %v, torch %v", c.Rows, c.Cols, j, v, math.Float32frombits(uint32(c.Bits[j])))
			}
		}
	}
}

// TestSumRowsTorch checks SumRowsTorchF32/F64 (four rows interleaved)
// bit for bit against SumTorchF32/F64 row by row, over row lengths that
// hit every branch (shorter than a vector, no full group, leftovers,
// several cascade levels) and row counts that leave 0-3 rows over, and
// every add_rows4 candidate against the pure-Go one.
func TestSumRowsTorch(t *testing.T) {
	lengths := []int{1, 7, 8, 31, 32, 33, 95, 128, 129, 511, 512, 1000, 2048, 4099, 1<<14 + 37, 70000}
	for _, n := range lengths {
		for _, rows := range []int{1, 3, 4, 5, 9} {
			x32 := make([]float32, rows*n)
			x64 := make([]float64, rows*n)
			for i := range x32 {
				v := float64((i*7919)%10007)/997.0 - 5.0
				x32[i], x64[i] = float32(v), v*1.0000001
			}
			d32 := make([]float32, rows)
			d64 := make([]float64, rows)
			SumRowsTorchF32(d32, x32, n)
			SumRowsTorchF64(d64, x64, n)
			for o := range rows {
				if w := SumTorchF32(x32[o*n : (o+1)*n]); math.Float32bits(w) != math.Float32bits(d32[o]) {
					t.Errorf("f32 n=%d rows=%d row %d: %v, want %v", n, rows, o, d32[o], w)
				}
				if w := SumTorchF64(x64[o*n : (o+1)*n]); math.Float64bits(w) != math.Float64bits(d64[o]) {
					t.Errorf("f64 n=%d rows=%d row %d: %v, want %v", n, rows, o, d64[o], w)
				}
			}
		}
	}
	// empty rows and columns sum to zero
	d := []float32{7, 7}
	SumRowsTorchF32(d, nil, 0)
	if d[0] != 0 || d[1] != 0 {
		t.Errorf("sums of empty rows: %v", d)
	}
	d = []float32{7, 7}
	SumColsTorchF32(d, nil, 0, 2)
	SumColsTorchF32(nil, nil, 3, 0)
	if d[0] != 0 || d[1] != 0 {
		t.Errorf("sums of empty columns: %v", d)
	}
	// every add_rows4 candidate adds like the pure-Go loop, groups apart by
	// a stride longer than a group, rows apart by more than their lanes
	const stride, rows, ldx32, ldx64 = 40*37 + 5, 37, 40, 19
	x32 := make([]float32, 3*stride+ldx32*(rows-1)+32)
	x64 := make([]float64, 3*stride+ldx64*(rows-1)+16)
	for i := range x32 {
		x32[i] = float32(i%13) * 0.37
	}
	for i := range x64 {
		x64[i] = float64(i%11) * 0.41
	}
	var want32 [4][rowsMax]float32
	var want64 [4][rowsMax]float64
	want32[2][5], want64[1][3] = 1.5, -2.25 // accumulates onto acc
	got0_32, got0_64 := want32, want64
	goAddRows4(&want32, x32, stride, ldx32, rows, false)
	goAddRows4(&want64, x64, stride, ldx64, rows, false)
	if want32[3][31] == 0 || want64[3][15] == 0 {
		t.Fatal("reference left the last row's lanes zero")
	}
	var fresh32 [4][rowsMax]float32
	var fresh64 [4][rowsMax]float64
	goAddRows4(&fresh32, x32, stride, ldx32, rows, false)
	goAddRows4(&fresh64, x64, stride, ldx64, rows, false)
	for _, c := range candidatesFor(t, "add_rows4", "float32") {
		got := got0_32
		c.Impl.(addRows4Fn[float32])(&got, x32, stride, ldx32, rows, false)
		if got != want32 {
			t.Errorf("add_rows4/float32 %s: %v, want %v", c.Name, got, want32)
		}
		// fresh: from +0 whatever acc holds (-0 + -0 rows stays +0)
		got = want32
		c.Impl.(addRows4Fn[float32])(&got, x32, stride, ldx32, rows, true)
		if got != fresh32 {
			t.Errorf("add_rows4/float32 %s fresh: %v, want %v", c.Name, got, fresh32)
		}
	}
	for _, c := range candidatesFor(t, "add_rows4", "float64") {
		got := got0_64
		c.Impl.(addRows4Fn[float64])(&got, x64, stride, ldx64, rows, false)
		if got != want64 {
			t.Errorf("add_rows4/float64 %s: %v, want %v", c.Name, got, want64)
		}
		got = want64
		c.Impl.(addRows4Fn[float64])(&got, x64, stride, ldx64, rows, true)
		if got != fresh64 {
			t.Errorf("add_rows4/float64 %s fresh: %v, want %v", c.Name, got, fresh64)
		}
		if got[0][16] != 0 {
			t.Errorf("add_rows4/float64 %s wrote lane 16", c.Name)
		}
	}
}

// Sums of negative zeros are +0, as PyTorch's (every partial sum starts
// from +0), by rows, by columns (cascaded column groups included) and
// through the interleaved four-row path whose empty cascade levels are
// never added.
func TestSumTorchNegativeZeros(t *testing.T) {
	for _, n := range []int{5, 32, 64, 300, 4100} {
		for _, rows := range []int{1, 4, 5} {
			x32 := make([]float32, rows*n)
			x64 := make([]float64, rows*n)
			for i := range x32 {
				x32[i], x64[i] = float32(math.Copysign(0, -1)), math.Copysign(0, -1)
			}
			d32, d64 := make([]float32, rows), make([]float64, rows)
			SumRowsTorchF32(d32, x32, n)
			SumRowsTorchF64(d64, x64, n)
			for o := range rows {
				if math.Float32bits(d32[o]) != 0 || math.Float64bits(d64[o]) != 0 {
					t.Errorf("rows of %d -0s: %v %v, want +0", n, d32[o], d64[o])
				}
			}
			c32, c64 := make([]float32, n), make([]float64, n)
			SumColsTorchF32(c32, x32, rows, n)
			SumColsTorchF64(c64, x64, rows, n)
			for j := range n {
				if math.Float32bits(c32[j]) != 0 || math.Float64bits(c64[j]) != 0 {
					t.Fatalf("[%d, %d] of -0s, column %d: %v %v, want +0", rows, n, j, c32[j], c64[j])
				}
			}
		}
	}
}
