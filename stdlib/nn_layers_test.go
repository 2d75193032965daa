package stdlib_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/stdlib"
)

// The nn layer classes (nn_layers.go) and optim (optim.go) against
// PyTorch 1.13 through testdata/gen_layers.py (testdata/layers.json):
// printed reprs, the initialisation after manual_seed, forward outputs,
// BatchNorm running statistics, named_parameters names, and SGD/Adam
// training steps of a small conv + MLP model.

type goldTensor struct {
	DType  string            `json:"dtype"`
	Shape  []int             `json:"shape"`
	Values []json.RawMessage `json:"values"`
}

type goldNamed struct {
	Name string `json:"name"`
	goldTensor
}

type layersGolden struct {
	Reprs []struct {
		Tsr  string `json:"tsr"`
		Want string `json:"want"`
	} `json:"reprs"`
	Layers []struct {
		Name    string                `json:"name"`
		Ctor    string                `json:"ctor"`
		Inputs  map[string]goldTensor `json:"inputs"`
		Call    string                `json:"call"`
		Mode    string                `json:"mode"`
		Params  []goldNamed           `json:"params"`
		Out     goldTensor            `json:"out"`
		Buffers map[string]goldTensor `json:"buffers"`
	} `json:"layers"`
	Optim []struct {
		Name   string       `json:"name"`
		Optim  string       `json:"optim"`
		Init   []goldTensor `json:"init"`
		Losses []string     `json:"losses"`
		Final  []goldTensor `json:"final"`
	} `json:"optim"`
	Model string     `json:"model"`
	Steps int        `json:"steps"`
	X     goldTensor `json:"x"`
	Y     goldTensor `json:"y"`
}

func loadLayersGolden(t *testing.T) *layersGolden {
	t.Helper()
	data, err := os.ReadFile("testdata/layers.json")
	if err != nil {
		t.Fatal(err)
	}
	var g layersGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Reprs) < 40 || len(g.Layers) < 40 || len(g.Optim) < 8 {
		t.Fatalf("golden file incomplete: %d reprs, %d layers, %d optim cases", len(g.Reprs), len(g.Layers), len(g.Optim))
	}
	return &g
}

// floats decodes the values (Python float reprs as JSON strings, or ints).
func (g goldTensor) floats(t *testing.T) []float64 {
	t.Helper()
	out := make([]float64, len(g.Values))
	for i, raw := range g.Values {
		s := strings.Trim(string(raw), "\"")
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("bad golden value %s", raw)
		}
		out[i] = f
	}
	return out
}

// literal spells the tensor in tsr.
func (g goldTensor) literal() string {
	vals := make([]string, len(g.Values))
	for i, raw := range g.Values {
		vals[i] = strings.Trim(string(raw), "\"")
	}
	dims := make([]string, len(g.Shape))
	for i, d := range g.Shape {
		dims[i] = strconv.Itoa(d)
	}
	if len(g.Shape) == 0 {
		return fmt.Sprintf("tensor(%s, dtype=%s)", vals[0], g.DType)
	}
	return fmt.Sprintf("tensor([%s], dtype=%s).reshape(%s)", strings.Join(vals, ", "), g.DType, strings.Join(dims, ", "))
}

// checkGoldClose compares the global tensor name with want: shape exactly,
// values within atol + rtol*|want|.
func checkGoldClose(t *testing.T, what string, lookup func(string) (runtime.Value, bool), name string, want goldTensor, atol, rtol float64) {
	t.Helper()
	v, ok := lookup(name)
	if !ok {
		t.Errorf("%s: no global %s", what, name)
		return
	}
	got, ok := stdlib.TensorOf(v)
	if !ok {
		t.Errorf("%s: %s is %s, not a tensor", what, name, v.Type())
		return
	}
	if fmt.Sprint(got.Shape()) != fmt.Sprint(want.Shape) {
		t.Errorf("%s: %s shape %v, want %v", what, name, got.Shape(), want.Shape)
		return
	}
	w := want.floats(t)
	g := got.ToFloat64s()
	for i := range w {
		d := math.Abs(g[i] - w[i])
		if math.IsNaN(g[i]) != math.IsNaN(w[i]) || d > atol+rtol*math.Abs(w[i]) {
			t.Errorf("%s: %s[%d] = %v, want %v (|diff| %.3g)", what, name, i, g[i], w[i], d)
			return
		}
	}
}

func TestLayerReprs(t *testing.T) {
	g := loadLayersGolden(t)
	for _, c := range g.Reprs {
		got := strings.TrimSpace(runPrint(t, "print("+c.Tsr+")"))
		if got != c.Want {
			t.Errorf("print(%s)\ngot:\n%s\nwant:\n%s", c.Tsr, got, c.Want)
		}
	}
}

// TestLayerForward builds each layer after manual_seed(0) and checks its
// parameter names and initial values (PyTorch's init drawn from the same
// generator), then loads PyTorch's parameters into it and checks the
// output of the call and the buffers after it.
func TestLayerForward(t *testing.T) {
	g := loadLayersGolden(t)
	for _, c := range g.Layers {
		var src strings.Builder
		fmt.Fprintf(&src, "manual_seed(0)\nl = %s\nnp = l.named_parameters()\nnparams = len(np)\n", c.Ctor)
		for i, p := range c.Params {
			fmt.Fprintf(&src, "name_%d = np[%d][0]\ninit_%d = np[%d][1].detach().clone()\nno_grad { np[%d][1].copy_(%s) }\n", i, i, i, i, i, p.literal())
		}
		for name, in := range c.Inputs {
			fmt.Fprintf(&src, "%s = %s\n", name, in.literal())
		}
		if c.Mode == "eval" {
			src.WriteString("l.eval()\n")
		}
		lines := strings.Split(c.Call, "\n")
		for _, ln := range lines[:len(lines)-1] {
			src.WriteString(ln + "\n")
		}
		fmt.Fprintf(&src, "r = %s\nsd = l.state_dict()\n", lines[len(lines)-1])
		bufNames := []string{}
		for name := range c.Buffers {
			v := "buf_" + strings.ReplaceAll(name, ".", "_")
			bufNames = append(bufNames, name)
			fmt.Fprintf(&src, "%s = sd[%q]\n", v, name)
		}
		in, err := runTsr(t, src.String())
		if err != nil {
			t.Errorf("%s: %v\n%s", c.Name, err, src.String())
			continue
		}
		if n, _ := in.Global("nparams"); fmt.Sprint(n) != fmt.Sprint(len(c.Params)) {
			t.Errorf("%s: %v parameters, want %d", c.Name, n, len(c.Params))
			continue
		}
		for i, p := range c.Params {
			if n, _ := in.Global(fmt.Sprintf("name_%d", i)); fmt.Sprint(n) != p.Name {
				t.Errorf("%s: parameter %d named %v, want %s", c.Name, i, n, p.Name)
			}
			checkGoldClose(t, c.Name+" init", in.Global, fmt.Sprintf("init_%d", i), p.goldTensor, 1e-7, 0)
		}
		checkGoldClose(t, c.Name, in.Global, "r", c.Out, 1e-5, 1e-5)
		for _, name := range bufNames {
			checkGoldClose(t, c.Name, in.Global, "buf_"+strings.ReplaceAll(name, ".", "_"), c.Buffers[name], 1e-5, 1e-5)
		}
	}
}

// TestOptimSteps trains the golden model a few steps with each optimizer
// configuration and checks the losses and the final parameters against
// PyTorch's (f32 throughout).
func TestOptimSteps(t *testing.T) {
	g := loadLayersGolden(t)
	for _, c := range g.Optim {
		var src strings.Builder
		fmt.Fprintf(&src, "manual_seed(0)\nm = %s\nps = m.parameters()\n", g.Model)
		for i, p := range c.Init {
			fmt.Fprintf(&src, "init_%d = ps[%d].detach().clone()\nno_grad { ps[%d].copy_(%s) }\n", i, i, i, p.literal())
		}
		fmt.Fprintf(&src, "x = %s\ny = %s\nopt = %s\nlosses = []\n", g.X.literal(), g.Y.literal(), c.Optim)
		fmt.Fprintf(&src, `for i in range(%d) {
    opt.zero_grad()
    loss = nn.cross_entropy(m(x), y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
}
`, g.Steps)
		for i := range c.Final {
			fmt.Fprintf(&src, "final_%d = ps[%d]\n", i, i)
		}
		in, err := runTsr(t, src.String())
		if err != nil {
			t.Errorf("%s: %v\n%s", c.Name, err, src.String())
			continue
		}
		for i, p := range c.Init {
			checkGoldClose(t, c.Name+" init", in.Global, fmt.Sprintf("init_%d", i), p, 1e-7, 0)
		}
		lv, _ := in.Global("losses")
		l, ok := lv.(*runtime.List)
		if !ok || len(l.Elems) != len(c.Losses) {
			t.Errorf("%s: losses %v", c.Name, lv)
			continue
		}
		for i, w := range c.Losses {
			wf, _ := strconv.ParseFloat(w, 64)
			gf, _ := runtime.AsFloat(l.Elems[i])
			if math.Abs(gf-wf) > 1e-6*math.Max(1, math.Abs(wf)) {
				t.Errorf("%s: loss at step %d = %v, want %v", c.Name, i, gf, wf)
			}
		}
		for i, p := range c.Final {
			checkGoldClose(t, c.Name+" final", in.Global, fmt.Sprintf("final_%d", i), p, 1e-6, 0)
		}
	}
}

// TestLayerBehaviour covers Sequential (indexing, slicing, len,
// iteration, nested names), train/eval propagation, state_dict keys,
// Dropout in both modes, parameter assignment, errors (PyTorch's kinds and
// messages), and optimizer mechanics: param_groups read at each step,
// zero_grad with and without set_to_none, and step(closure). Expected
// values derived by hand (SGD on sum(w*w): w -= lr * 2w).
func TestLayerBehaviour(t *testing.T) {
	const catch = "try { %s } catch e { print(e.kind + \": \" + e.message) }"
	c := func(s string) string { return fmt.Sprintf(catch, s) }
	checkPrints(t, []printCase{
		{`m = nn.Sequential(nn.Linear(2, 3), nn.Dropout(0.5), nn.Sequential(nn.BatchNorm1d(3), nn.ReLU()))
print(len(m), type(m[0]), len(m[1:]), m[-1][0].num_features)
n = 0
for layer in m { n += 1 }
print(n)
m.eval()
print(m[1].training, m[2][0].training, m.training)
m.train()
print(m[2][1].training)
print([p[0] for p in m.named_parameters()])
print(list(m.state_dict().keys()))
print(len(m.parameters()), m.parameters()[2] is m[2][0].weight)`, `3 Linear 2 3
3
false false false
true
['0.weight', '0.bias', '2.0.weight', '2.0.bias']
['0.weight', '0.bias', '2.0.weight', '2.0.bias', '2.0.running_mean', '2.0.running_var', '2.0.num_batches_tracked']
4 true`},
		{c("nn.Sequential(nn.ReLU())[5]"), "IndexError: index 5 is out of range"},
		{c("nn.BatchNorm2d(3)(ones(2, 3, 4))"), "ValueError: expected 4D input (got 3D input)"},
		{c("nn.BatchNorm1d(3)(ones(2, 3, 4, 5))"), "ValueError: expected 2D or 3D input (got 4D input)"},
		{c("nn.Conv2d(3, 4, 3, groups=2)"), "ValueError: in_channels must be divisible by groups"},
		{c("nn.Conv2d(2, 4, 3, stride=2, padding=\"same\")"), "ValueError: padding='same' is not supported for strided convolutions"},
		{c("nn.Sequential(3)"), "TypeError: int is not a Module subclass"},
		{c("nn.Dropout(1.5)"), "ValueError: dropout probability has to be between 0 and 1, but got 1.5"},
		{c("optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1, nesterov=true)"), "ValueError: Nesterov momentum requires a momentum and zero dampening"},
		{c("optim.SGD([ones(2, requires_grad=true)], lr=-1.0)"), "ValueError: Invalid learning rate: -1.0"},
		{c("optim.Adam([])"), "ValueError: optimizer got an empty parameter list"},
		{c("optim.Adam([ones(2, requires_grad=true) * 2])"), "ValueError: can't optimize a non-leaf Tensor"},
		{c("optim.Adam([ones(2, requires_grad=true)], betas=(1.0, 0.9))"), "ValueError: Invalid beta parameter at index 0: 1.0"},
		{c("w = ones(2, requires_grad=true)\noptim.SGD([{\"params\": [w]}, {\"params\": [w]}], lr=0.1)"), "ValueError: some parameters appear in more than one parameter group"},
		{`w = tensor([1.0, 2.0], requires_grad=true)
opt = optim.SGD([w], lr=0.1)
(w * w).sum().backward()
opt.step()
print(w)
opt.param_groups[0]["lr"] = 0.25
opt.zero_grad(set_to_none=false)
print(w.grad)
(w * w).sum().backward()
opt.step()
print(w, opt.param_groups[0]["lr"])
opt.zero_grad(set_to_none=true)
print(w.grad)
fn closure() { opt.zero_grad(); l = (w * w).sum(); l.backward(); l }
print(opt.step(closure))
print(w)`, `tensor([0.8000, 1.6000], requires_grad=true)
tensor([0., 0.])
tensor([0.4000, 0.8000], requires_grad=true) 0.25
none
tensor(0.8000, grad_fn=<SumBackward0>)
tensor([0.2000, 0.4000], requires_grad=true)`},
		// zero_grad() keeps zeroed grads (PyTorch 1.13's set_to_none=False), so momentum
		// still moves a parameter that got no gradient this step: torch 1.13 prints
		// tensor([1.3740], requires_grad=True)
		{`a = tensor([1.0, 2.0], requires_grad=true)
b = tensor([3.0], requires_grad=true)
opt = optim.SGD([a, b], lr=0.1, momentum=0.9)
for i in range(3) {
    opt.zero_grad()
    loss = (a * a).sum() + (b * b).sum() if i == 0 else (a * a).sum()
    loss.backward()
    opt.step()
}
print(b, b.grad)
m = nn.Linear(2, 1)
m(ones(1, 2)).sum().backward()
m.zero_grad()
print(m.bias.grad)`, "tensor([1.3740], requires_grad=true) tensor([0.])\ntensor([0.])"},
		{`d = nn.Dropout(0.5)
y = d(ones(1000))
print(((y == 0) | (y == 2)).all().item(), (y == 0).any().item())
d.eval()
print(d(ones(3)))`, "true true\ntensor([1., 1., 1.])"},
		{`c = nn.Conv2d(1, 1, 2, bias=false)
c.weight = ones(1, 1, 2, 2, requires_grad=true)
print(c(ones(1, 1, 3, 3))[0, 0])
print(c)
c.bias = tensor([0.5], requires_grad=true)
print(c, len(c.parameters()), c(ones(1, 1, 2, 2)).item())`, `tensor([[4., 4.],
        [4., 4.]], grad_fn=<SelectBackward0>)
Conv2d(1, 1, kernel_size=(2, 2), stride=(1, 1), bias=false)
Conv2d(1, 1, kernel_size=(2, 2), stride=(1, 1)) 2 4.5`},
		{`bn = nn.BatchNorm1d(2)
bn(tensor([[1., 2.], [3., 6.]]))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(tensor([[0.5, 0.8]])))`, `tensor([0.2000, 0.4000]) tensor([1.1000, 1.7000]) tensor(1)
tensor([[0.2860, 0.3068]], grad_fn=<NativeBatchNormBackward0>)`},
	})
}

// TestIsinstanceStdlibClass: isinstance (and type(x) ==) accept the stdlib
// classes, as a PyTorch user writes isinstance(m, nn.Linear).
func TestIsinstanceStdlibClass(t *testing.T) {
	checkPrints(t, []printCase{
		{`m = nn.Linear(1, 1)
s = nn.Sequential(m, nn.ReLU())
o = optim.SGD(m.parameters(), lr=0.1)
print(isinstance(m, nn.Linear), isinstance(m, nn.Conv2d), isinstance(s, nn.Sequential), isinstance(s[1], (nn.Tanh, nn.ReLU)))
print(isinstance(o, optim.SGD), isinstance(o, optim.Adam), isinstance(ones(1), nn.Linear), type(m) == nn.Linear)
print(isinstance(nn.LowRankLinear(4, 4, 2), nn.LowRankLinear), [type(l) == nn.ReLU for l in s])`, `true false true true
true false false true
true [false, true]`},
	})
}

// TestDivmodFloatZero: CPython 3.11's message for a float divmod by zero.
func TestDivmodFloatZero(t *testing.T) {
	checkPrints(t, []printCase{
		{`for a, b in [(7, 0.0), (7.0, 0), (7.5, false), (7, 0)] {
    try { divmod(a, b) } catch e { print(e.kind + ": " + e.message) }
}
print(divmod(7.5, 2), divmod(-7, 2.0))`, `ZeroDivisionError: float divmod()
ZeroDivisionError: float divmod()
ZeroDivisionError: float divmod()
ZeroDivisionError: integer division or modulo by zero
(3.0, 1.5) (-4.0, 1.0)`},
	})
}

// TestNameErrorHints: Python's None/True/False and torch get a hint.
func TestNameErrorHints(t *testing.T) {
	const catch = "try { %s } catch e { print(e.message) }"
	c := func(s string) string { return fmt.Sprintf(catch, s) }
	checkPrints(t, []printCase{
		{c("print(None)"), "name 'None' is not defined (tsr spells it 'none')"},
		{c("fn f() { False }\nf()"), "name 'False' is not defined (tsr spells it 'false')"},
		{c("torch.ones(2)"), "name 'torch' is not defined (tsr has no such namespace: tensor functions are top-level (ones, randn, cat), nn.functional's are in nn, and linalg, optim, special are modules)"},
		{c("nosuch + 1"), "name 'nosuch' is not defined"},
	})
}

// nn.functional is nn itself (F = nn.functional; F.relu(x)), as PyTorch's
// torch.nn.functional holds the functions tsr keeps in nn.
func TestNNFunctionalAlias(t *testing.T) {
	checkPrints(t, []printCase{
		{"F = nn.functional\nprint(F.relu(tensor([-1.0, 2.0])), F is nn, f\"{nn.functional.cross_entropy(ones(2, 3), tensor([0, 1])).item():.4f}\")", "tensor([0., 2.]) true 1.0986"},
	})
}

// load_state_dict: PyTorch 1.13's messages (missing before unexpected keys,
// size mismatches; shapes in tsr's spelling), the partial load before the
// error, strict=false, and a Sequential's buffers round-tripping.
func TestLoadStateDict(t *testing.T) {
	checkPrints(t, []printCase{
		{`m = nn.Linear(2, 1)
try { m.load_state_dict({"weight": ones(1, 2), "x": ones(1)}) } catch e { print(e.kind, repr(e.message)) }
print(m.weight)
try { m.load_state_dict({"weight": ones(2, 2), "bias": ones(1)}) } catch e { print(e.kind, repr(e.message)) }
print(m.bias, m.weight._version > 0)
print(m.load_state_dict({"weight": ones(1, 2)}, strict=false))
s = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
s2 = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
s2(randn(4, 2))
s.load_state_dict(s2.state_dict())
print(all([(s.state_dict()[k] == s2.state_dict()[k]).all().item() for k in s.state_dict()]), s[1].num_batches_tracked)
try { m.load_state_dict([1]) } catch e { print(e.kind, e.message) }`,
			`RuntimeError 'Error(s) in loading state_dict for Linear:\n\tMissing key(s) in state_dict: "bias". \n\tUnexpected key(s) in state_dict: "x". '
Parameter containing:
tensor([[1., 1.]], requires_grad=true)
RuntimeError 'Error(s) in loading state_dict for Linear:\n\tsize mismatch for weight: copying a param with shape [2, 2] from checkpoint, the shape in current model is [1, 2].'
Parameter containing:
tensor([1.], requires_grad=true) true
_IncompatibleKeys(missing_keys=['bias'], unexpected_keys=[])
true tensor(1)
TypeError Expected state_dict to be dict-like, got list.`},
	})
}

// Module.to(dtype) / double() / float(): floating parameters, buffers and
// grads converted in place (same tensor objects, so an optimizer built
// before keeps working), integer buffers untouched, to("cpu") a no-op.
func TestModuleTo(t *testing.T) {
	checkPrints(t, []printCase{
		{`m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
w = m[0].weight
m.double()
print(m[0].weight.dtype, m[0].weight is w, m[1].running_mean.dtype, m[1].num_batches_tracked.dtype, m(randn(4, 2, dtype=f64)).dtype)
print(m.to(f32)[0].bias.dtype, m.to("cpu") is m)
try { m.to(i64) } catch e { print(e.kind, e.message) }
l = nn.Linear(2, 1)
opt = optim.SGD(l.parameters(), lr=0.1)
l(ones(1, 2)).sum().backward()
l.to(f64)
print(l.weight.grad.dtype)
opt.zero_grad()
l(ones(1, 2, dtype=f64)).sum().backward()
before = l.bias.item()
opt.step()
print(l.weight.dtype, f"{before - l.bias.item():.4f}")`,
			`f64 true f64 i64 f64
f32 true
TypeError nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=i64
f64
f64 0.1000`},
	})
}
