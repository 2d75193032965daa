package stdlib_test

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Session 11 (helper h3): optim.lr_scheduler.OneCycleLR, nn.ParameterDict,
// del on layers and containers, ParameterList printing, nn.init.orthogonal_,
// in-place activations and interpolate mode="bicubic", against PyTorch 1.13
// through testdata/gen_s11_nn.py (testdata/s11_nn.json for values and
// errors, testdata/s11_nn_programs.json for whole programs' output).

func loadS11NN(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/s11_nn.json", 100, 32, 18)
}

// TestS11NNGolden compares the values with PyTorch's. The f32 bicubic
// cases are compared separately, within 6 ulps of the largest value
// (PyTorch's compiled kernel rounds its weights and sums differently: 4.6
// ulps apart at most); their f64 twins agree to 1e-12.
func TestS11NNGolden(t *testing.T) {
	g := loadS11NN(t)
	var bicubic32 []extraCase
	kept := g.Cases[:0:0]
	for _, c := range g.Cases {
		if strings.HasPrefix(c.Name, "bicubic") && c.DType == "f32" {
			bicubic32 = append(bicubic32, c.extraCase)
			continue
		}
		kept = append(kept, c)
	}
	if len(bicubic32) < 10 {
		t.Fatalf("only %d f32 bicubic cases", len(bicubic32))
	}
	g.Cases = kept
	checkTorchCases(t, g)
	worst := 0.0
	for _, c := range bicubic32 {
		r := evalTensor(t, c.Tsr)
		if r.DType().String() != c.DType || !slices.Equal(r.Shape(), c.Shape) {
			t.Errorf("%s\ndtype %s shape %v, want %s %v", c.Tsr, r.DType(), r.Shape(), c.DType, c.Shape)
			continue
		}
		got := r.ToFloat64s()
		scale := 0.0
		want := make([]float64, len(c.Values))
		for k, v := range c.Values {
			want[k], _ = strconv.ParseFloat(v, 64)
			scale = math.Max(scale, math.Abs(want[k]))
		}
		ulp := 0x1p-23 * scale
		for k := range want {
			d := math.Abs(got[k]-want[k]) / ulp
			worst = math.Max(worst, d)
			if d > 6 {
				t.Errorf("%s: %s\nelement %d = %v, want %v (%.1f ulps of the largest value)", c.Name, c.Tsr, k, got[k], want[k], d)
			}
		}
	}
	t.Logf("f32 bicubic: at most %.2f ulps (of each case's largest value) from PyTorch 1.13", worst)
}
func TestS11NNErrors(t *testing.T) { checkTorchErrors(t, loadS11NN(t)) }

// TestS11NNPrograms runs each program of s11_nn_programs.json and compares
// its output with PyTorch's for the Python twin.
func TestS11NNPrograms(t *testing.T) {
	b, err := os.ReadFile("testdata/s11_nn_programs.json")
	if err != nil {
		t.Fatal(err)
	}
	var progs []struct{ Name, Tsr, Python, Want string }
	if err := json.Unmarshal(b, &progs); err != nil {
		t.Fatal(err)
	}
	if len(progs) < 4 {
		t.Fatalf("only %d programs", len(progs))
	}
	for _, p := range progs {
		t.Run(p.Name, func(t *testing.T) {
			if got := runPrint(t, p.Tsr); got != p.Want {
				t.Errorf("got\n%s\nwant (PyTorch 1.13)\n%s\nsource:\n%s", got, p.Want, p.Tsr)
			}
		})
	}
}

// TestParameterDictKeyError: a non-string key is torch 1.13's TypeError
// (its message; torch then leaves the key half-inserted, tsr does not).
func TestParameterDictKeyError(t *testing.T) {
	checkPrints(t, []printCase{{`d = nn.ParameterDict()
try { d[1] = ones(1) } catch e { print(e.kind, e.message) }
print(len(d), d.keys())
d.update([("u", ones(2)), ["v", ones(3)]])
print(d.popitem()[0], d.keys())
d.clear()
print(d)`, `TypeError Index given to ParameterDict cannot be used as a key as it is not a string (type is 'int'). Open an issue on github if you need non-string keys.
0 []
v ['u']
ParameterDict()`}})
}

func TestS11NNGradFn(t *testing.T) { checkTorchGradFns(t, loadS11NN(t)) }

// TestOrthogonalProperties: orthogonal_ in f32 and f64 gives rows (wide)
// or columns (tall) that are orthonormal times gain, leaves an empty
// tensor alone, records no gradient and refuses integer tensors.
func TestOrthogonalProperties(t *testing.T) {
	checkPrints(t, []printCase{{`manual_seed(1)
w = zeros(3, 8)
print(nn.init.orthogonal_(w) is w, ((w @ w.t()) - eye(3)).abs().max().item() < 1e-6)
v = zeros(10, 2, 2, dtype=f64)
nn.init.orthogonal_(v, gain=0.5)
m = v.flatten(1)
print(((m.t() @ m) - 0.25 * eye(4, dtype=f64)).abs().max().item() < 1e-14)
p = nn.Parameter(zeros(4, 4))
nn.init.orthogonal_(p)
print(p.grad_fn, p.requires_grad, p._version > 0, ((p @ p.t()) - eye(4)).abs().max().item() < 1e-6)
e = zeros(0, 3)
print(nn.init.orthogonal_(e).shape)
try { nn.init.orthogonal_(zeros(2, 2, dtype=i64)) } catch err { print(err.kind) }`, `true true
true
none true true true
[0, 3]
RuntimeError`}})
}

// TestBicubicFiniteDifference checks interpolate(mode="bicubic")'s
// backward against central differences (f64), with and without
// align_corners, up and down, and with border clamping.
func TestBicubicFiniteDifference(t *testing.T) {
	x := fdLeaf{"x", "1, 1, 3, 4", []float64{0.3, -0.7, 1.2, -1.6, 0.9, 0.1, 2.2, -0.4, 0.5, 1.7, -1.1, 0.8}}
	checkFiniteDifferences(t, []fdCase{
		{`nn.interpolate(x, size=(5, 7), mode="bicubic")`, []fdLeaf{x}},
		{`nn.interpolate(x, size=(4, 9), mode="bicubic", align_corners=true)`, []fdLeaf{x}},
		{`nn.interpolate(x, size=(2, 3), mode="bicubic")`, []fdLeaf{x}},
		{`nn.interpolate(x, scale_factor=1.7, mode="bicubic")`, []fdLeaf{x}},
		{`nn.interpolate(x.transpose(2, 3), size=(6, 2), mode="bicubic", align_corners=true)`, []fdLeaf{x}},
	})
}

// TestTensorDelAttr: del x.grad clears the gradient (PyTorch: x.grad is
// then None); del x.data and del x.requires_grad are PyTorch's
// RuntimeErrors, other attributes are read-only.
func TestTensorDelAttr(t *testing.T) {
	checkPrints(t, []printCase{{`x = ones(2, requires_grad=true)
(x * 2).sum().backward()
print(x.grad)
del x.grad
print(x.grad)
try { del x.data } catch e { print(e.kind, e.message) }
try { del x.requires_grad } catch e { print(e.kind, e.message) }
try { del x.shape } catch e { print(e.kind, e.message) }
try { del x.foo } catch e { print(e.kind, e.message) }`, `tensor([2., 2.])
none
RuntimeError Deleting tensor data is not allowed. Delete tensor instead!
RuntimeError requires_grad must be a bool
AttributeError attribute 'shape' of 'tensor' objects is not writable
AttributeError 'tensor' object has no attribute 'foo'`}})
}

// TestTopLevelInplaceActivations: torch.relu_, celu_, selu_ and
// threshold_ (PyTorch 1.13's values for this chain), in place.
func TestTopLevelInplaceActivations(t *testing.T) {
	checkPrints(t, []printCase{{`x = tensor([-1.0, 2.0])
v = x._version
print(relu_(x) is x, x)
selu_(x)
print(x)
celu_(x)
print(x)
threshold_(x, 0.5, 9.0)
print(x, x._version - v)
a = tensor([1.0], requires_grad=true)
try { relu_(a) } catch e { print(e.kind, e.message) }`, `true tensor([0., 2.])
tensor([0.0000, 2.1014])
tensor([0.0000, 2.1014])
tensor([9.0000, 2.1014]) 4
RuntimeError a leaf Variable that requires grad is being used in an in-place operation.`}})
}

// TestInplaceActivationSavedOperand: an in-place activation on a tensor
// that needs no grad but was saved by another node (w * x saves x) still
// trips that node's version check, as in PyTorch.
func TestInplaceActivationSavedOperand(t *testing.T) {
	checkPrints(t, []printCase{{`w = tensor([1.0, 2.0], requires_grad=true)
x = tensor([-1.0, 3.0])
y = w * x
nn.relu(x, inplace=true)
try { y.sum().backward() } catch e { print(e.kind) }
print(x, x._version, x.requires_grad)`, `RuntimeError
tensor([0., 3.]) 1 false`}})
}
