package stdlib_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/tensor"
)

// Regression tests for confirmed bugs: each program's printed output is
// what PyTorch 1.13 prints for the same program (or, where torch itself
// overflows, what Python's slice/range arithmetic gives).

// runPrint runs src and returns its printed output; an uncaught error
// fails the test.
func runPrint(t *testing.T, src string) string {
	t.Helper()
	var out strings.Builder
	in := tsr.New(tsr.Options{MaxSteps: 1 << 24, Stdout: &out})
	if _, err := in.Eval(context.Background(), "test.tsr", src); err != nil {
		t.Fatalf("%s\nerror: %v\noutput so far:\n%s", src, err, out.String())
	}
	return out.String()
}

type printCase struct{ src, want string }

func checkPrints(t *testing.T, cases []printCase) {
	t.Helper()
	for _, c := range cases {
		got := strings.TrimSpace(runPrint(t, c.src))
		if got != strings.TrimSpace(c.want) {
			t.Errorf("%s\ngot:\n%s\nwant:\n%s", c.src, got, c.want)
		}
	}
}

// catchOf wraps a statement so that its error kind and message print.
func catchOf(stmt string) string {
	return "try { " + stmt + " } catch e { print(e.kind + \": \" + e.message) }"
}

func TestZeroDimMovedimRollUnbind(t *testing.T) {
	const noDims = "IndexError: Dimension specified as 0 but tensor has no dimensions"
	checkPrints(t, []printCase{
		{"x = tensor(2.5)\nprint(x.movedim(0, 0))", "tensor(2.5000)"},
		{"x = tensor(2.5)\nprint(x.movedim(-1, -1))", "tensor(2.5000)"},
		{"x = tensor(2.5)\nprint(x.movedim([0], [0]))", "tensor(2.5000)"},
		{"x = tensor(2.5)\nprint(x.moveaxis(0, 0), moveaxis(x, -1, -1), movedim(x, [-1], [0]))", "tensor(2.5000) tensor(2.5000) tensor(2.5000)"},
		{"x = tensor(2.5)\n" + catchOf("x.movedim(1, 0)"), "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
		{"x = tensor(2.5)\n" + catchOf("x.roll(0, 0)"), noDims},
		{"x = tensor(2.5)\n" + catchOf("x.roll(1, 0)"), noDims},
		{"x = tensor(2.5)\n" + catchOf("roll(x, [0], [0])"), noDims},
		{"x = tensor(2.5)\nprint(x.roll(1))", "tensor(2.5000)"},
		{"x = tensor(2.5)\n" + catchOf("x.unbind()"), noDims},
		{"x = tensor(2.5)\n" + catchOf("x.unbind(0)"), noDims},
		{"x = tensor(2.5)\n" + catchOf("x.unbind(-1)"), "IndexError: Dimension specified as -1 but tensor has no dimensions"},
		{"x = tensor(2.5)\n" + catchOf("unbind(x, dim=0)"), noDims},
	})
}

func TestHugeSizesDoNotPanic(t *testing.T) {
	const big = "9223372036854775807"
	checkPrints(t, []printCase{
		{catchOf("eye(" + big + ")"), "RuntimeError: numel: integer multiplication overflow: the shape [" + big + ", " + big + "] has more elements than an int64 can count"},
		{catchOf("eye(3, -2)"), "RuntimeError: m must be greater or equal to 0, got -2"},
		{"try { randperm(" + big + ") } catch e { print(e.kind) }", "MemoryError"},
		{"try { arange(6).repeat_interleave(" + big + ") } catch e { print(e.kind) }", "MemoryError"},
		{"try { arange(6).narrow(0, 1, " + big + ") } catch e { print(e.kind, e.message) }", "RuntimeError start (1) + length (" + big + ") exceeds dimension size (6)."},
		// exact element count where end-start overflows int64
		{"print(arange(-" + big + ", " + big + ", 4611686018427387904).shape)", "[4]"},
		{"print(arange(6).chunk(" + big + "))", "(tensor([0]), tensor([1]), tensor([2]), tensor([3]), tensor([4]), tensor([5]))"},
		{"print(arange(6).unfold(0, 2, " + big + ").shape)", "[1, 2]"},
	})
}

func TestSliceHugeStep(t *testing.T) {
	// Python: len(range(6)[::2**63-1]) == 1, len(range(6)[1::2**63-2]) == 1.
	checkPrints(t, []printCase{
		{"x = arange(6)\nprint(x[::9223372036854775807].shape, x[1::9223372036854775806].shape)", "[1] [1]"},
		{"x = arange(6)\nprint(x[::2][::9223372036854775807].shape)", "[1]"},
		{"x = arange(6)\nx[::9223372036854775807] = 7\nprint(x)", "tensor([7, 1, 2, 3, 4, 5])"},
		{"x = arange(6)\nx[1::9223372036854775806] = 7\nprint(x)", "tensor([0, 7, 2, 3, 4, 5])"},
		{"x = arange(12).reshape(3, 4)\nprint(x[::9223372036854775807, 1::9223372036854775806])", "tensor([[1]])"},
		{"x = arange(6)\nprint(x[1:5:2], x[-9223372036854775807:9223372036854775807:4])", "tensor([1, 3]) tensor([0, 4])"},
	})
}

func TestIndexPutValueLeadingOnes(t *testing.T) {
	// torch 1.13: x[[0]] = tensor([[[1., 2., 3.]]]) and the bool-mask form
	// drop the value's leading 1s.
	checkPrints(t, []printCase{
		{"x = zeros(2, 3)\nx[[0]] = tensor([[[1.0, 2.0, 3.0]]])\nprint(x.tolist())", "[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]"},
		{"x = zeros(2, 3)\nx[tensor([false, true])] = tensor([[[1.0, 2.0, 3.0]]])\nprint(x.tolist())", "[[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]"},
	})
}

// TestNewOpsGolden checks the ops added for PyTorch parity (log2 ...
// sinc, hypot/fmax/fmin/logaddexp, nanmean, ravel, logcumsumexp, cross,
// kron, logspace, the axis=/keepdims= spellings) and their gradients of
// sum(r * linspace(-1, 1.5, numel)) against PyTorch 1.13
// (testdata/gen_fixes.py writes testdata/fixes_golden.json).
func TestNewOpsGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/fixes_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name   string     `json:"name"`
		Tsr    string     `json:"tsr"`
		Wrt    string     `json:"wrt"`
		Shape  []int      `json:"shape"`
		DType  string     `json:"dtype"`
		Values []string   `json:"values"`
		Grads  [][]string `json:"grads"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	close := func(got []float64, ws []string, tol float64) bool {
		if len(got) != len(ws) {
			return false
		}
		want := make([]float64, len(ws))
		for i, s := range ws {
			want[i], _ = strconv.ParseFloat(s, 64)
		}
		for i := range got {
			if math.IsNaN(want[i]) != math.IsNaN(got[i]) || math.Abs(got[i]-want[i]) > tol*math.Max(1, math.Abs(want[i])) {
				return false
			}
		}
		return true
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			src := c.Tsr
			var names []string
			if c.Wrt != "" {
				names = strings.Split(c.Wrt, ",")
				src += "\nwt = linspace(-1, 1.5, r.numel(), dtype=f64).reshape(r.shape)\n(r * wt).sum().backward()\n"
				for i, n := range names {
					src += "g" + strconv.Itoa(i) + " = " + n + ".grad\n"
				}
			}
			in, err := runTsr(t, src)
			if err != nil {
				t.Fatalf("%s\n%v", src, err)
			}
			r, err := in.GlobalTensor("r")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Shape(), c.Shape) {
				t.Errorf("shape %v, want %v", r.Shape(), c.Shape)
			}
			tol := 1e-12
			if r.DType() == tensor.F32 {
				tol = 1e-6
			}
			if want := map[string]string{"float64": "f64", "float32": "f32", "int64": "i64", "bool": "bool"}[c.DType]; r.DType().String() != want {
				t.Errorf("dtype %s, want %s", r.DType(), want)
			}
			if got := r.ToFloat64s(); !close(got, c.Values, tol) {
				t.Errorf("values %v, want %v", got, c.Values)
			}
			for i := range names {
				g, err := in.GlobalTensor("g" + strconv.Itoa(i))
				if err != nil {
					t.Fatalf("grad of %s: %v", names[i], err)
				}
				if got := g.ToFloat64s(); !close(got, c.Grads[i], 1e-12) {
					t.Errorf("grad of %s = %v, want %v", names[i], got, c.Grads[i])
				}
			}
		})
	}
}

// In-place unary ops (x.exp_(), ...): values, _version bumps, writes
// through a non-contiguous view, the leaf and dtype errors, and recorded
// autograd, all as PyTorch 1.13 prints them (testdata/gen_fixes.py does
// not cover these; the expected text is torch's output of the same
// program).
func TestInplaceUnary(t *testing.T) {
	const src = `x = arange(6.0).reshape(2, 3)
v = x.t()
v.sqrt_(); print(x.tolist(), x._version)
a = tensor([0.5, -1.5, 2.25], requires_grad=true)
try { a.exp_() } catch e { print(e.kind, e.message) }
no_grad { b = a.clone(); b.tanh_(); print(b.tolist()) }
y = a * 1
y.sin_(); print(y.grad_fn.name())
y.sum().backward(); print(a.grad.tolist())
z = arange(4)
try { z.sqrt_() } catch e { print(e.kind, e.message) }
z.abs_(); z.neg_(); print(z.tolist(), z._version)
c = tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=true)
d = c * 2
d[:, 1].log_()
d.sum().backward(); print(c.grad.tolist())
for n in ["floor_", "ceil_", "round_", "trunc_", "reciprocal_", "square_", "rsqrt_", "relu_", "log2_", "asin_", "cosh_", "deg2rad_", "sinc_", "exp2_"] {
    t = tensor([0.3, -0.6, 1.7])
    if n == "floor_" { t.floor_() }
    if n == "ceil_" { t.ceil_() }
    if n == "round_" { t.round_() }
    if n == "trunc_" { t.trunc_() }
    if n == "reciprocal_" { t.reciprocal_() }
    if n == "square_" { t.square_() }
    if n == "rsqrt_" { t.rsqrt_() }
    if n == "relu_" { t.relu_() }
    if n == "log2_" { t.log2_() }
    if n == "asin_" { t.asin_() }
    if n == "cosh_" { t.cosh_() }
    if n == "deg2rad_" { t.deg2rad_() }
    if n == "sinc_" { t.sinc_() }
    if n == "exp2_" { t.exp2_() }
    print(n, t.tolist())
}
`
	const want = `[[0.0, 1.0, 1.4142135381698608], [1.7320507764816284, 2.0, 2.2360680103302]] 1
RuntimeError a leaf Variable that requires grad is being used in an in-place operation.
[0.46211716532707214, -0.9051482677459717, 0.9780260920524597]
SinBackward0
[0.8775825500488281, 0.07073719799518585, -0.6281736493110657]
RuntimeError result type Float can't be cast to the desired output type Long
[0, -1, -2, -3] 2
[[2.0, 0.5], [2.0, 0.25]]
floor_ [0.0, -1.0, 1.0]
ceil_ [1.0, -0.0, 2.0]
round_ [0.0, -1.0, 2.0]
trunc_ [0.0, -0.0, 1.0]
reciprocal_ [3.3333332538604736, -1.6666666269302368, 0.5882352590560913]
square_ [0.09000000357627869, 0.36000001430511475, 2.890000104904175]
rsqrt_ [1.8257417678833008, nan, 0.7669649720191956]
relu_ [0.30000001192092896, 0.0, 1.7000000476837158]
log2_ [-1.736965537071228, nan, 0.7655347585678101]
asin_ [0.30469265580177307, -0.6435011625289917, nan]
cosh_ [1.04533851146698, 1.1854652166366577, 2.828315496444702]
deg2rad_ [0.005235987715423107, -0.010471975430846214, 0.02967059798538685]
sinc_ [0.858393669128418, 0.504551112651825, -0.15148119628429413]
exp2_ [1.2311444282531738, 0.6597539186477661, 3.249009609222412]
`
	checkPrints(t, []printCase{{src, want}})
}

// axis= and keepdims= are PyTorch's NumPy spellings of dim= and keepdim=,
// for methods and functions (torch 1.13 output of the same program).
func TestAxisKeyword(t *testing.T) {
	checkPrints(t, []printCase{{`x = tensor([[1.0, 2.0], [3.0, 4.0]])
print(sum(x, axis=0), mean(x, axis=1, keepdims=true).tolist(), max(x, axis=0).values, cumsum(x, axis=1).tolist())
try { x.sum(dim=0, axis=0) } catch e { print(e.kind) }
try { hypot(tensor([1]), tensor([2])) } catch e { print(e.kind, e.message) }`, `tensor([4., 6.]) [[1.5], [3.5]] tensor([3., 4.]) [[1.0, 3.0], [3.0, 7.0]]
TypeError
RuntimeError "hypot_cpu" not implemented for 'Long'`}})
}

func TestSetIndexLeadingOnes(t *testing.T) {
	checkPrints(t, []printCase{
		{"x = zeros(2, 3)\nx[0] = tensor([[1.0, 2.0, 3.0]])\nprint(x.tolist())", "[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]"},
		{"x = zeros(2, 3)\nx[:, 0] = tensor([[1.0, 2.0]])\nprint(x.tolist())", "[[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]"},
		{"x = zeros(2, 3)\nw = tensor([[1.0, 2.0, 3.0]], requires_grad=true)\nx[1] = w * 2\nx.sum().backward()\nprint(w.grad.tolist())", "[[2.0, 2.0, 2.0]]"},
		{"x = zeros(2, 3)\ntry { x[0] = ones(2, 3) } catch e { print(e.kind) }", "RuntimeError"},
	})
}
