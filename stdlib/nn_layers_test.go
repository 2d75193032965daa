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
