package numfmt

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

type tensorCase struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
	Kind  string `json:"kind"`
	Dtype string `json:"dtype"`
	Opts  struct {
		Precision int `json:"precision"`
		EdgeItems int `json:"edgeitems"`
		LineWidth int `json:"linewidth"`
	} `json:"opts"`
	Threshold *int              `json:"threshold"`
	SciMode   *bool             `json:"sci_mode"`
	Suffix    []string          `json:"suffix"`
	Repr      string            `json:"repr"`
	Idx       []int             `json:"idx"`
	Vals      []json.RawMessage `json:"vals"`
}

// TestFormatTensorGolden reproduces PyTorch's repr of every tensor made by
// testdata/gen_tensor_golden.py. For summarised tensors the golden file
// holds only the printed elements: reading any other index fails the test,
// which checks that FormatTensor reads no more than it prints.
func TestFormatTensorGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/tensor_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Cases []tensorCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < 100 {
		t.Fatalf("only %d cases", len(g.Cases))
	}
	for _, c := range g.Cases {
		t.Run(c.Name, func(t *testing.T) {
			pos := make(map[int]int, len(c.Vals)) // flat index -> position in Vals
			for i := range c.Vals {
				if c.Idx != nil {
					pos[c.Idx[i]] = i
				} else {
					pos[i] = i
				}
			}
			reads := map[int]int{}
			raw := func(i int) json.RawMessage {
				reads[i]++
				p, ok := pos[i]
				if !ok {
					t.Fatalf("read element %d, which is not printed", i)
				}
				return c.Vals[p]
			}
			td := TensorData{Shape: c.Shape, Suffix: c.Suffix}
			switch c.Kind {
			case "float":
				td.Kind = Float
				td.Float = func(i int) float64 {
					var s string
					if err := json.Unmarshal(raw(i), &s); err != nil {
						t.Fatal(err)
					}
					f, err := strconv.ParseFloat(s, 64)
					if err != nil {
						t.Fatal(err)
					}
					return f
				}
			case "int":
				td.Kind = Int
				td.Int = func(i int) int64 {
					var s string
					if err := json.Unmarshal(raw(i), &s); err != nil {
						t.Fatal(err)
					}
					v, err := strconv.ParseInt(s, 10, 64)
					if err != nil {
						t.Fatal(err)
					}
					return v
				}
			case "bool":
				td.Kind = Bool
				td.Bool = func(i int) bool {
					var b bool
					if err := json.Unmarshal(raw(i), &b); err != nil {
						t.Fatal(err)
					}
					return b
				}
			default:
				t.Fatalf("kind %q", c.Kind)
			}
			o := PrintOptions{Precision: c.Opts.Precision, EdgeItems: c.Opts.EdgeItems,
				LineWidth: c.Opts.LineWidth, Threshold: math.MaxInt}
			if c.Threshold != nil {
				o.Threshold = *c.Threshold
			}
			if c.SciMode != nil {
				o.SciMode = SciOff
				if *c.SciMode {
					o.SciMode = SciOn
				}
			}
			got := FormatTensorOpts(td, o)
			if got != c.Repr {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.Repr)
			}
			for i, n := range reads {
				if n > 1 {
					t.Errorf("element %d read %d times", i, n)
				}
			}
			if o == DefaultPrintOptions() {
				if got2 := FormatTensor(td); got2 != got {
					t.Errorf("FormatTensor differs from FormatTensorOpts with defaults")
				}
			}
		})
	}
}

func floats(v ...float64) func(int) float64 { return func(i int) float64 { return v[i] } }

func TestFormatTensorExamples(t *testing.T) {
	cases := []struct {
		td   TensorData
		want string
	}{
		{TensorData{Shape: []int{3}, Kind: Float, Float: floats(0, 1, 2)}, "tensor([0., 1., 2.])"},
		{TensorData{Shape: []int{2}, Kind: Float, Float: floats(0.5, 1e-5)}, "tensor([5.0000e-01, 1.0000e-05])"},
		{TensorData{Shape: []int{}, Kind: Float, Float: floats(3)}, "tensor(3.)"},
		{TensorData{Shape: []int{}, Kind: Float, Float: floats(1.5)}, "tensor(1.5000)"},
		{TensorData{Shape: []int{2}, Kind: Int, Int: func(i int) int64 { return int64(i + 1) },
			Suffix: []string{"dtype=i32"}}, "tensor([1, 2], dtype=i32)"},
		{TensorData{Shape: []int{2}, Kind: Bool, Bool: func(i int) bool { return i == 0 }}, "tensor([ true, false])"},
		{TensorData{Shape: []int{0}, Kind: Float}, "tensor([])"},
		{TensorData{Shape: []int{0, 3}, Kind: Float}, "tensor([], size=(0, 3))"},
		{TensorData{Shape: []int{0, 3}, Kind: Int, Suffix: []string{"dtype=i64"}}, "tensor([], size=(0, 3), dtype=i64)"},
		{TensorData{Shape: []int{2}, Kind: Float, Float: floats(math.NaN(), math.Inf(-1))}, "tensor([nan, -inf])"},
		{TensorData{Shape: []int{2}, Kind: Float, Float: floats(math.Copysign(0, -1), 1)}, "tensor([-0., 1.])"},
		// A nil accessor must not panic.
		{TensorData{Shape: []int{2}, Kind: Float}, "tensor([?, ?])"},
	}
	for _, c := range cases {
		if got := FormatTensor(c.td); got != c.want {
			t.Errorf("FormatTensor(%v) = %q, want %q", c.td.Shape, got, c.want)
		}
	}
}

// TestFormatTensorReadsOnlyPrinted checks that a huge tensor is cheap to
// print: only the 3*2 edge items of each dimension are read.
func TestFormatTensorReadsOnlyPrinted(t *testing.T) {
	reads := 0
	td := TensorData{Shape: []int{1 << 20, 1 << 20}, Kind: Float, Float: func(i int) float64 {
		reads++
		return float64(i % 7)
	}}
	s := FormatTensor(td)
	if reads != 36 {
		t.Errorf("read %d elements, want 36", reads)
	}
	if !strings.Contains(s, "...") {
		t.Errorf("no summary in %q", s)
	}
}

func TestPrintProfile(t *testing.T) {
	o, err := PrintProfile("short")
	if err != nil || o.Precision != 2 || o.EdgeItems != 2 || o.Threshold != 1000 || o.LineWidth != 80 {
		t.Errorf("short = %+v, %v", o, err)
	}
	if o, _ := PrintProfile("full"); o.Threshold != math.MaxInt {
		t.Errorf("full threshold %d", o.Threshold)
	}
	if _, err := PrintProfile("tiny"); err == nil {
		t.Error("unknown profile accepted")
	}
}

// TestFormatTensorEdgeItemsZero covers PyTorch's edgeitems=0 quirk on a
// vector (checked with torch 1.13) and the no-panic "[...]" for outer dims.
func TestFormatTensorEdgeItemsZero(t *testing.T) {
	o := DefaultPrintOptions()
	o.Threshold, o.EdgeItems = 5, 0
	ints := func(i int) int64 { return int64(i) }
	if got, want := FormatTensorOpts(TensorData{Shape: []int{10}, Kind: Int, Int: ints}, o),
		"tensor([ ..., 0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := FormatTensorOpts(TensorData{Shape: []int{4, 4}, Kind: Int, Int: ints}, o),
		"tensor([...])"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
