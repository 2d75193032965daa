package tensor

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// Float -> integer conversions of NaN, ±Inf and out-of-range values agree
// with PyTorch 1.13 on x86 (testdata/gen_cast_torch.py).
func TestCastFloatToIntTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/cast_torch.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		From, To string
		Src      []any
		Want     []int64
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	dts := map[string]DType{"f32": F32, "f64": F64, "i8": I8, "i16": I16, "i32": I32, "i64": I64, "u8": U8}
	for _, c := range cases {
		src := make([]float64, len(c.Src))
		for i, v := range c.Src {
			switch v := v.(type) {
			case float64:
				src[i] = v
			case string:
				src[i] = map[string]float64{"nan": math.NaN(), "inf": math.Inf(1), "-inf": math.Inf(-1)}[v]
			}
		}
		// Repeat, so that contiguous runs longer than one vector are converted,
		// and also convert a strided view.
		rep := make([]float64, 0, 8*len(src))
		for r := 0; r < 8; r++ {
			rep = append(rep, src...)
		}
		x, err := FromFloat64s(rep, []int{8, len(src)}, dts[c.From])
		if err != nil {
			t.Fatal(err)
		}
		xt, _ := x.T()
		for _, in := range []*Tensor{x, xt} {
			y, err := in.To(dts[c.To])
			if err != nil {
				t.Fatal(err)
			}
			got := y.ToInt64s()
			for i := range got {
				k := i % len(src)
				if in == xt {
					k = i / 8
				}
				if got[i] != c.Want[k] {
					t.Fatalf("%s -> %s of %v: got %d, PyTorch %d", c.From, c.To, src[k], got[i], c.Want[k])
				}
			}
		}
	}
}
