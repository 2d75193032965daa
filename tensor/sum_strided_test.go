package tensor

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
)

// sumStridedCase is one case of testdata/sum_strided_torch.json
// (gen_sum_strided.py): a view recipe over xorshift32 data and PyTorch
// 1.13's sum or mean of it, as float.hex strings.
type sumStridedCase struct {
	DType    string   `json:"dtype"`
	Seed     uint32   `json:"seed"`
	Shape    []int    `json:"shape"`
	Ops      [][]any  `json:"ops"`
	Dims     []int    `json:"dims"`
	KeepDim  bool     `json:"keepdim"`
	Mean     bool     `json:"mean"`
	OutShape []int    `json:"out_shape"`
	Want     []string `json:"want"`
}

// sumStridedData replays gen_sum_strided.py's data(): values with full
// random mantissas, exactly representable in the dtype.
func sumStridedData(seed uint32, n int, f32 bool) []float64 {
	s := seed
	if s == 0 {
		s = 1
	}
	next := func() uint32 {
		s ^= s << 13
		s ^= s >> 17
		s ^= s << 5
		return s
	}
	out := make([]float64, n)
	for i := range out {
		v0, v1 := next(), next()
		var v float64
		if f32 {
			v = float64(math.Float32frombits(0x3F800000 | v0>>9))
		} else {
			v = math.Float64frombits(0x3FF0000000000000 | (uint64(v0)<<20^uint64(v1))&0xFFFFFFFFFFFFF)
		}
		sign := -1.0
		if v1&128 != 0 {
			sign = 1
		}
		out[i] = (v - 1.5) * math.Ldexp(1, int(v1%7)) * sign
	}
	return out
}

// TestSumStridedTorchGolden: sums and means of non-dense float32/float64
// views (steps, permutations, expanded dims) equal PyTorch's bit for bit.
func TestSumStridedTorchGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/sum_strided_torch.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Cases []sumStridedCase }
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	ints := func(v any) []int {
		var r []int
		for _, e := range v.([]any) {
			r = append(r, int(e.(float64)))
		}
		return r
	}
	for ci, c := range file.Cases {
		dt := F64
		if c.DType == "f32" {
			dt = F32
		}
		x, err := FromFloat64s(sumStridedData(c.Seed, numel(c.Shape), dt == F32), c.Shape, dt)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range c.Ops {
			switch op[0] {
			case "permute":
				x, err = x.Permute(ints(op[1])...)
			case "slice":
				d, b, st := int(op[1].(float64)), int(op[2].(float64)), int(op[3].(float64))
				x, err = x.Slice(d, b, x.shape[d], st)
			case "expand":
				if x, err = x.Unsqueeze(0); err == nil {
					shape := append([]int(nil), x.shape...)
					shape[0] = int(op[1].(float64))
					x, err = x.Expand(shape...)
				}
			}
			if err != nil {
				t.Fatalf("case %d %v: %v", ci, op, err)
			}
		}
		var r *Tensor
		if c.Mean {
			r, err = Mean(x, c.Dims, c.KeepDim)
		} else {
			r, err = Sum(x, c.Dims, c.KeepDim)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !shapeEq(r.shape, c.OutShape) {
			t.Fatalf("case %d: shape %v, want %v", ci, r.shape, c.OutShape)
		}
		got := r.ToFloat64s()
		for i, h := range c.Want {
			w, err := strconv.ParseFloat(h, 64)
			if err != nil {
				t.Fatal(err)
			}
			if got[i] != w {
				t.Fatalf("case %d (%s %v, ops %v, strides %v, dims %v, mean %v): element %d = %v, want %v (PyTorch)",
					ci, c.DType, c.Shape, c.Ops, x.strides, c.Dims, c.Mean, i, got[i], w)
			}
		}
	}
}
