package stdlib_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/stdlib"
	"github.com/tsrlang/tsr/tensor"
)

// signbit, the comparison aliases and in-place comparisons,
// tensor_split/hsplit/vsplit/dsplit, rot90, inner, vdot, take_along_dim,
// quantile/nanquantile, cartesian_prod, histc, unique_consecutive and the
// overlap errors of copy_ and index assignment, against PyTorch 1.13
// through testdata/gen_torch_aliases.py (testdata/torch_aliases.json).
// A case's r is a tensor or a tuple of tensors (the split pieces,
// unique_consecutive's outputs); each tensor's dtype, shape, strides,
// storage offset and values are compared (floats within a dtype-scaled
// tolerance, signs of zero and NaN exactly; other dtypes exactly), as are
// grad_fn names ("NoneType" for none) and error kinds and messages.

type torchOutput struct {
	DType   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Strides []int    `json:"strides"`
	Offset  int      `json:"offset"`
	Values  []string `json:"values"`
}

type torchAliasesGolden struct {
	Cases []struct {
		Name    string        `json:"name"`
		Tsr     string        `json:"tsr"`
		Tuple   bool          `json:"tuple"`
		Outputs []torchOutput `json:"outputs"`
	} `json:"cases"`
	GradFns []struct {
		Name    string   `json:"name"`
		Tsr     string   `json:"tsr"`
		GradFns []string `json:"grad_fns"`
	} `json:"grad_fns"`
}

const torchAliasesPath = "testdata/torch_aliases.json"

func loadTorchAliases(t *testing.T) *torchAliasesGolden {
	t.Helper()
	data, err := os.ReadFile(torchAliasesPath)
	if err != nil {
		t.Fatal(err)
	}
	var g torchAliasesGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < 200 || len(g.GradFns) < 30 {
		t.Fatalf("%s: only %d cases, %d grad_fn cases", torchAliasesPath, len(g.Cases), len(g.GradFns))
	}
	return &g
}

// resultTensors runs src and returns the tensors of its r: r itself, or
// the elements of the tuple or list r (tuple says which PyTorch gave).
func resultTensors(t *testing.T, src string, tuple bool) []*tensor.Tensor {
	t.Helper()
	in, err := runTsr(t, src)
	if err != nil {
		t.Fatalf("%s\n%v", src, err)
	}
	v, ok := in.Global("r")
	if !ok {
		t.Fatalf("%s\nno r", src)
	}
	var vals []runtime.Value
	switch r := v.(type) {
	case runtime.Tuple:
		vals = r
	case *runtime.List:
		vals = r.Elems
	default:
		vals = []runtime.Value{v}
		if tuple {
			t.Fatalf("%s\nr is a %s, want a tuple", src, v.Type())
		}
	}
	if _, isTensor := v.(*stdlib.TensorValue); !tuple && !isTensor {
		t.Fatalf("%s\nr is a %s, want a tensor", src, v.Type())
	}
	ts := make([]*tensor.Tensor, len(vals))
	for i, e := range vals {
		x, ok := stdlib.TensorOf(e)
		if !ok {
			t.Fatalf("%s\nr[%d] is a %s, want a tensor", src, i, e.Type())
		}
		ts[i] = x
	}
	return ts
}

func TestTorchAliasesGolden(t *testing.T) {
	for _, c := range loadTorchAliases(t).Cases {
		t.Run(c.Name, func(t *testing.T) {
			got := resultTensors(t, c.Tsr, c.Tuple)
			if len(got) != len(c.Outputs) {
				t.Fatalf("%s\n%d tensors, want %d", c.Tsr, len(got), len(c.Outputs))
			}
			for i, w := range c.Outputs {
				checkTorchOutput(t, c.Tsr, i, got[i], w)
			}
		})
	}
}

// checkTorchOutput compares one result tensor with PyTorch's.
func checkTorchOutput(t *testing.T, src string, i int, r *tensor.Tensor, w torchOutput) {
	t.Helper()
	if r.DType().String() != w.DType || !slices.Equal(r.Shape(), w.Shape) {
		t.Fatalf("%s\nresult %d: dtype %s shape %v, want %s %v", src, i, r.DType(), r.Shape(), w.DType, w.Shape)
	}
	if !slices.Equal(r.Strides(), w.Strides) || r.StorageOffset() != w.Offset {
		t.Errorf("%s\nresult %d: strides %v offset %d, want %v %d", src, i, r.Strides(), r.StorageOffset(), w.Strides, w.Offset)
	}
	switch {
	case r.DType() == tensor.Bool:
		for k, b := range r.ToBools() {
			if want := w.Values[k] == "True"; b != want {
				t.Errorf("%s\nresult %d element %d = %v, want %v (all: %v)", src, i, k, b, want, w.Values)
			}
		}
	case !r.DType().IsFloat():
		for k, v := range r.ToInt64s() {
			if s := strconv.FormatInt(v, 10); s != w.Values[k] {
				t.Errorf("%s\nresult %d element %d = %s, want %s (all: %v)", src, i, k, s, w.Values[k], w.Values)
			}
		}
	default:
		checkTorchValues(t, fmt.Sprintf("%s\nresult %d", src, i), w.DType, w.Values, r.ToFloat64s())
	}
}

func TestTorchAliasesGradFn(t *testing.T) {
	for _, c := range loadTorchAliases(t).GradFns {
		got := resultTensors(t, c.Tsr, len(c.GradFns) > 1)
		if len(got) != len(c.GradFns) {
			t.Errorf("%s: %s\n%d tensors, want %d", c.Name, c.Tsr, len(got), len(c.GradFns))
			continue
		}
		for i, r := range got {
			name := "NoneType"
			if fn := r.GradFn(); fn != nil {
				name = fn.Name()
			}
			if name != c.GradFns[i] {
				t.Errorf("%s: %s\nresult %d: grad_fn %s, want %s", c.Name, c.Tsr, i, name, c.GradFns[i])
			}
		}
	}
}

func TestTorchAliasesErrors(t *testing.T) {
	g := loadTorchGolden(t, torchAliasesPath, 0, 0, 100)
	checkTorchErrors(t, g)
}

// TestTorchAliasesProgram runs the new functions as a user would write
// them (outputs from PyTorch 1.13; booleans print as tsr's true/false).
func TestTorchAliasesProgram(t *testing.T) {
	checkPrints(t, []printCase{
		{`print(tensor_split(arange(5.), 2))
x = tensor([3., 1., 2., 5.], requires_grad=true)
print(quantile(x, tensor([0.25, 0.5])))
print(rot90(arange(4).view(2, 2)), arange(4.).signbit().any())`, `(tensor([0., 1., 2.]), tensor([3., 4.]))
tensor([1.7500, 2.5000], grad_fn=<SqueezeBackward3>)
tensor([[1, 3],
        [0, 2]]) tensor(false)`},
		{`z = arange(5.)
try { z[1:3] = z[0:2] } catch e { print(e.kind) }
z[1:3] = z[0:2].clone()
print(z, z._version)
print(unique_consecutive(tensor([1, 1, 2, 1]), return_counts=true))
print(histc(tensor([1., 2., 1.]), bins=4, min=0, max=3))`, `RuntimeError
tensor([0., 0., 1., 3., 4.]) 1
(tensor([1, 2, 1]), tensor([2, 1, 1]))
tensor([0., 2., 1., 0.])`},
	})
}
