package tensorio

import (
	"math"
	"testing"
)

// f64 -> f16/bf16 must be correctly rounded (NumPy's direct conversion for
// f16, exact rational rounding for bf16), including values a hair away from
// a tie, where going through float32 first would round twice.
func TestRoundingFromFloat64(t *testing.T) {
	g := golden(t)
	r := g.Round
	f16, err := FromFloat64s(F16, []int{len(r.X)}, r.X)
	if err != nil {
		t.Fatal(err)
	}
	bf16, err := FromFloat64s(BF16, []int{len(r.X)}, r.X)
	if err != nil {
		t.Fatal(err)
	}
	naive := 0
	for i, x := range r.X {
		if got := le.Uint16(f16.Data[2*i:]); got != r.F16[i] {
			t.Errorf("f16(%v) = %#04x, NumPy %#04x", x, got, r.F16[i])
		}
		if got := le.Uint16(bf16.Data[2*i:]); got != r.BF16[i] {
			t.Errorf("bf16(%v) = %#04x, want %#04x", x, got, r.BF16[i])
		}
		if f32ToBF16(float32(x)) != r.BF16[i] {
			naive++
		}
	}
	if naive == 0 {
		t.Error("golden set has no double-rounding case; the test would not catch one")
	}
}

func TestConversions(t *testing.T) {
	// bf16 basics, NaN stays NaN, widening is exact.
	for _, c := range []struct {
		f    float32
		bits uint16
	}{{1, 0x3f80}, {-2, 0xc000}, {float32(math.Inf(1)), 0x7f80}, {1.00390625, 0x3f80} /* tie to even */, {1.01171875, 0x3f82}} {
		if got := f32ToBF16(c.f); got != c.bits {
			t.Errorf("bf16(%v) = %#x, want %#x", c.f, got, c.bits)
		}
	}
	if !math.IsNaN(float64(bf16ToF32(f32ToBF16(float32(math.NaN()))))) {
		t.Error("NaN lost")
	}
	// A NaN whose payload is only in the low 16 bits must not truncate to Inf.
	if got := f32ToBF16(math.Float32frombits(0x7f800001)); !math.IsNaN(float64(bf16ToF32(got))) {
		t.Errorf("signalling NaN with low payload became %#x", got)
	}
	a, _ := FromInt64s(I8, []int{3}, []int64{-128, 0, 127})
	if v, _ := a.Int64s(); v[0] != -128 || v[2] != 127 {
		t.Errorf("i8 %v", v)
	}
	_, err := FromInt64s(I8, []int{1}, []int64{128})
	wantErr(t, err, ErrInvalid, "value 128 at index 0 is out of range for i8")
	_, err = FromInt64s(U8, []int{1}, []int64{-1})
	wantErr(t, err, ErrInvalid, "out of range for u8")
	_, err = FromFloat64s(I32, []int{2}, []float64{1, 2.5})
	wantErr(t, err, ErrInvalid, "value 2.5 at index 1")
	_, err = FromFloat64s(I64, []int{1}, []float64{9.223372036854775807e18})
	wantErr(t, err, ErrInvalid, "not representable as i64")
	_, err = FromFloat64s(I64, []int{1}, []float64{math.NaN()})
	wantErr(t, err, ErrInvalid, "not representable")
	b, _ := FromFloat64s(I64, []int{1}, []float64{-9.223372036854775808e18})
	if v, _ := b.Int64s(); v[0] != math.MinInt64 {
		t.Errorf("min int64 %v", v)
	}
	_, err = FromFloat64s(F32, []int{2, 2}, []float64{1})
	wantErr(t, err, ErrInvalid, "1 values do not fill shape [2, 2]")
	_, err = FromFloat64s("f128", []int{1}, []float64{1})
	wantErr(t, err, ErrInvalid, `unsupported dtype "f128"`)
	bo, _ := FromFloat64s(Bool, []int{3}, []float64{0, -0.5, math.NaN()})
	if string(bo.Data) != "\x00\x01\x01" {
		t.Errorf("bool %v", bo.Data)
	}
	fl, _ := FromFloat64s(F32, []int{1}, []float64{1})
	_, err = fl.Int64s()
	wantErr(t, err, ErrInvalid, "float dtype f32")
	// f16 through every path.
	h, _ := FromFloat32s(F16, []int{2}, []float32{65504, 1e-8})
	if v, _ := h.Float32s(); v[0] != 65504 || v[1] != 0 {
		t.Errorf("f16 %v", v)
	}
	h2, _ := FromInt64s(F16, []int{1}, []int64{2049}) // tie: rounds to even 2048
	if v, _ := h2.Float64s(); v[0] != 2048 {
		t.Errorf("f16(2049) = %v", v)
	}
	w, _ := FromFloat32s(F64, []int{1}, []float32{0.1})
	if v, _ := w.Float64s(); v[0] != float64(float32(0.1)) {
		t.Errorf("f32->f64 %v", v)
	}
	// Validate.
	wantErr(t, (&Array{DType: F32, Shape: []int{-1}}).Validate(), ErrInvalid, "negative dimension")
	wantErr(t, (&Array{DType: F32, Shape: []int{1 << 40, 1 << 40}}).Validate(), ErrInvalid, "too large")
	wantErr(t, (*Array)(nil).Validate(), ErrInvalid, "nil array")
	if err := (&Array{DType: F64, Shape: []int{0, 1 << 40}, Data: nil}).Validate(); err != nil {
		t.Errorf("empty array: %v", err)
	}
}

// Small integers are exact in every dtype, through every helper.
func TestConversionsAllDTypes(t *testing.T) {
	ints := []int64{0, 1, -1, 7, 100, -100}
	for _, dt := range []string{F16, BF16, F32, F64, I8, I16, I32, I64, U8, Bool} {
		want := ints
		switch dt {
		case U8:
			want = []int64{0, 1, 255, 7, 100, 200}
		case Bool:
			want = []int64{0, 1, 1, 0, 1, 0}
		}
		fs := make([]float64, len(want))
		f32 := make([]float32, len(want))
		for i, x := range want {
			fs[i], f32[i] = float64(x), float32(x)
		}
		shape := []int{2, 3}
		for name, mk := range map[string]func() (*Array, error){
			"FromInt64s":   func() (*Array, error) { return FromInt64s(dt, shape, want) },
			"FromFloat64s": func() (*Array, error) { return FromFloat64s(dt, shape, fs) },
			"FromFloat32s": func() (*Array, error) { return FromFloat32s(dt, shape, f32) },
		} {
			a, err := mk()
			if err != nil {
				t.Fatalf("%s %s: %v", name, dt, err)
			}
			if len(a.Data) != 6*ItemSize(dt) || a.DType != dt {
				t.Fatalf("%s %s: %d bytes", name, dt, len(a.Data))
			}
			g64, _ := a.Float64s()
			g32, _ := a.Float32s()
			for i := range want {
				if g64[i] != fs[i] || g32[i] != f32[i] {
					t.Errorf("%s %s: element %d = %v / %v, want %v", name, dt, i, g64[i], g32[i], fs[i])
				}
			}
			if gi, err := a.Int64s(); err == nil {
				for i := range want {
					if gi[i] != want[i] {
						t.Errorf("%s %s: Int64s[%d] = %d, want %d", name, dt, i, gi[i], want[i])
					}
				}
			} else if dt != F16 && dt != BF16 && dt != F32 && dt != F64 {
				t.Errorf("%s %s: Int64s: %v", name, dt, err)
			}
		}
	}
}
