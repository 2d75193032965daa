package tensor

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"
)

// TestRangeTorch compares Linspace and Arange with torch.linspace and
// torch.arange bit for bit (testdata/gen_range_torch.py: several sizes
// around the 8/16-lane vector blocks, both-ends formula, f32, f64, f16,
// bf16, i64, i32).
func TestRangeTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/range_torch.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Op               string
		Start, End, Step float64
		N                int
		DType            string
		Bits             []int64
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	dts := map[string]DType{"f32": F32, "f64": F64, "f16": F16, "bf16": BF16, "i64": I64, "i32": I32}
	for _, c := range cases {
		dt := dts[c.DType]
		ctx := fmt.Sprintf("%s(%v, %v, %v/%v) %s", c.Op, c.Start, c.End, c.N, c.Step, c.DType)
		var r *Tensor
		if c.Op == "linspace" {
			r, err = Linspace(c.Start, c.End, c.N, dt)
		} else if dt == I64 {
			r, err = ArangeInt(int64(c.Start), int64(c.End), int64(c.Step), dt)
		} else {
			r, err = Arange(c.Start, c.End, c.Step, dt)
		}
		if err != nil {
			t.Fatalf("%s: %v", ctx, err)
		}
		if r.Numel() != len(c.Bits) || !r.IsContiguous() || r.dtype != dt {
			t.Fatalf("%s: %d elements %s contiguous=%v, want %d", ctx, r.Numel(), r.dtype, r.IsContiguous(), len(c.Bits))
		}
		bad := 0
		for i, w := range c.Bits {
			var g uint64
			switch dt {
			case F32:
				g = uint64(math.Float32bits(r.storage.F32()[i]))
			case F64:
				g = math.Float64bits(r.storage.F64()[i])
			case F16, BF16:
				g = uint64(r.storage.U16()[i])
			case I64:
				g = uint64(r.storage.I64()[i])
			case I32:
				g = uint64(int64(r.storage.I32()[i]))
			}
			if g != uint64(w) {
				if bad < 3 {
					t.Errorf("%s: element %d bits %#x, want %#x", ctx, i, g, w)
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d elements differ", ctx, bad, len(c.Bits))
		}
	}
}
