package autograd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// lnApply records native_layer_norm over the trailing k dims of in[0],
// with in[1], in[2] as weight and bias when present.
func lnApply(e *Engine, in []*T, k int, eps float64) (*T, error) {
	x := in[0]
	var w, b *T
	if len(in) > 1 {
		w = in[1]
	}
	if len(in) > 2 {
		b = in[2]
	}
	n := 1
	for _, s := range x.Shape()[x.Dim()-k:] {
		n *= s
	}
	attrs := Attrs{"k": k, "n": n, "eps": eps}
	return e.Apply("native_layer_norm", []*T{x, w, b}, attrs, func() (*T, error) {
		y, mean, rstd, err := tensor.LayerNorm(x, n, w, b, eps)
		attrs["mean"], attrs["rstd"] = mean, rstd
		return y, err
	})
}

// nllApply records nll_loss of logp [N, C] (or [C]) against tgt (-1:
// ignored) with unit class weights.
func nllApply(e *Engine, logp *T, tgt []int, reduction string) (*T, error) {
	coef := make([]float64, len(tgt))
	valid := 0
	for _, t := range tgt {
		if t >= 0 {
			valid++
		}
	}
	for i, t := range tgt {
		if t < 0 {
			continue
		}
		coef[i] = -1
		if reduction == "mean" {
			coef[i] = -1 / float64(valid)
		}
	}
	return e.Apply("nll_loss", []*T{logp}, Attrs{"target": tgt, "coef": coef, "reduction": reduction}, func() (*T, error) {
		v, err := tensor.GatherRows(logp, tgt)
		if err != nil {
			return nil, err
		}
		if reduction == "none" {
			for i := range v {
				v[i] = -v[i]
			}
			return tensor.FromFloat64s(v, []int{len(v)}, logp.DType())
		}
		s := 0.0
		for i := range v {
			s -= v[i] * -coef[i]
		}
		return tensor.FromFloat64s([]float64{s}, nil, logp.DType())
	})
}

// ceApply records cross_entropy with class indices as tsr's stdlib does:
// log_softmax(x, -1), then one cross_entropy_loss node from x that saves
// it. The loss is -Σ w·logp over a one-hot target mixed with the uniform
// one (label smoothing ls), reduced.
func ceApply(e *Engine, x *T, tgt []int, w []float64, red string, ls float64) (*T, error) {
	logp, err := e.Apply("log_softmax", []*T{x}, Attrs{"dim": x.Dim() - 1}, func() (*T, error) { return tensor.LogSoftmax(x, -1) })
	if err != nil {
		return nil, err
	}
	C := x.Shape()[x.Dim()-1]
	wt := func(c int) float64 {
		if w == nil {
			return 1
		}
		return w[c]
	}
	denom := 0.0
	for _, t := range tgt {
		if t >= 0 {
			denom += wt(t)
		}
	}
	attrs := Attrs{"target": tgt, "weight": w, "reduction": red, "label_smoothing": ls, "total_weight": denom, SavedAttr: []*T{logp}}
	return e.Apply("cross_entropy_loss", []*T{x}, attrs, func() (*T, error) {
		lp := logp.ToFloat64s()
		rows := make([]float64, len(tgt))
		for r, t := range tgt {
			if t < 0 {
				continue
			}
			row := lp[r*C : (r+1)*C]
			sm := 0.0
			for c, v := range row {
				sm -= wt(c) * v
			}
			rows[r] = (1-ls)*-wt(t)*row[t] + ls/float64(C)*sm
		}
		if red == "none" && x.Dim() == 2 {
			return tensor.FromFloat64s(rows, []int{len(rows)}, x.DType())
		}
		s := 0.0
		for _, v := range rows {
			s += v
		}
		if red == "mean" {
			s /= denom
		}
		return tensor.FromFloat64s([]float64{s}, nil, x.DType())
	})
}

func nnGradCases() []gradCase {
	ln := func(shapes [][]int, k int, eps float64) gradCase {
		return gradCase{op: "native_layer_norm", shapes: shapes, f: func(e *Engine, in []*T) (*T, error) { return lnApply(e, in, k, eps) }}
	}
	nll := func(shape []int, tgt []int, red string) gradCase {
		return gradCase{op: "nll_loss", shapes: [][]int{shape}, f: func(e *Engine, in []*T) (*T, error) { return nllApply(e, in[0], tgt, red) }}
	}
	ce := func(shape []int, tgt []int, w []float64, red string, ls float64) gradCase {
		return gradCase{op: "cross_entropy_loss", shapes: [][]int{shape}, f: func(e *Engine, in []*T) (*T, error) { return ceApply(e, in[0], tgt, w, red, ls) }}
	}
	return []gradCase{
		ln([][]int{{3, 5}, {5}, {5}}, 1, 1e-5),
		ln([][]int{{2, 3, 7}, {3, 7}, {3, 7}}, 2, 1e-3),
		ln([][]int{{4, 9}}, 1, 1e-5),
		ln([][]int{{2, 2, 5}, {5}}, 1, 0.5),
		nll([]int{4, 5}, []int{1, -1, 4, 0}, "mean"),
		nll([]int{4, 5}, []int{1, 3, -1, 0}, "sum"),
		nll([]int{3, 6}, []int{5, 0, 2}, "none"),
		nll([]int{6}, []int{2}, "mean"),
		ce([]int{4, 5}, []int{1, -1, 4, 0}, nil, "mean", 0),
		ce([]int{4, 5}, []int{1, 3, -1, 0}, []float64{0.5, 2, 1, 3, 0.25}, "mean", 0.2),
		ce([]int{3, 6}, []int{5, 0, 2}, []float64{1, 2, 3, 4, 5, 6}, "none", 0.1),
		ce([]int{3, 6}, []int{5, -1, 2}, nil, "sum", 0.3),
		ce([]int{6}, []int{2}, nil, "mean", 0.1),
	}
}

// TestLayerNormDoubleBackward checks the create_graph formula: its first
// gradients equal the fused kernel's, and the gradient of sum(dx·v) with
// respect to x matches central differences of the fused first gradient.
func TestLayerNormDoubleBackward(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	x := randInput(r, []int{3, 6}, false, false)
	w := randInput(r, []int{6}, false, false)
	b := randInput(r, []int{6}, false, false)
	g := randInput(r, []int{3, 6}, false, false)
	v := randInput(r, []int{3, 6}, false, false)
	for _, p := range []*T{x, w, b} {
		p.SetRequiresGrad(true)
	}
	firstGrads := func(x *T, create bool) []*T {
		e := NewEngine()
		y, err := lnApply(e, []*T{x, w, b}, 1, 1e-5)
		if err != nil {
			t.Fatal(err)
		}
		gs, err := e.Grad([]*T{y}, []*T{x, w, b}, []*T{g}, create, create)
		if err != nil {
			t.Fatal(err)
		}
		return gs
	}
	fused, composed := firstGrads(x, false), firstGrads(x, true)
	for i := range fused {
		a, c := fused[i].ToFloat64s(), composed[i].ToFloat64s()
		for j := range a {
			if math.Abs(a[j]-c[j]) > 1e-12*(1+math.Abs(a[j])) {
				t.Fatalf("grad %d[%d]: fused %.15g, composed %.15g", i, j, a[j], c[j])
			}
		}
	}
	e := NewEngine()
	dx := composed[0]
	if dx.GradFn() == nil {
		t.Fatal("create_graph gradient has no grad_fn")
	}
	p, err := e.mul(dx, v)
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.sum(p, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	gg, err := e.Grad([]*T{s}, []*T{x}, nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	an, xv, vv := gg[0].ToFloat64s(), x.ToFloat64s(), v.ToFloat64s()
	const h = 1e-6
	for i := range xv {
		eval := func(d float64) float64 {
			pv := append([]float64(nil), xv...)
			pv[i] += d
			xp, _ := tensor.FromFloat64s(pv, x.Shape(), tensor.F64)
			xp.SetRequiresGrad(true)
			f := firstGrads(xp, false)[0].ToFloat64s()
			s := 0.0
			for j := range f {
				s += f[j] * vv[j]
			}
			return s
		}
		num := (eval(h) - eval(-h)) / (2 * h)
		if math.Abs(num-an[i]) > 1e-5*math.Max(1, math.Abs(num)) {
			t.Errorf("d2/dx[%d]: analytic %.8g, numeric %.8g", i, an[i], num)
		}
	}
}

// TestLogSoftmaxBackwardFusedBitwise: the one-pass log_softmax backward
// (ordinary backward) gives the composed formula's bits (create_graph
// backward), in float32, for odd row lengths.
func TestLogSoftmaxBackwardFusedBitwise(t *testing.T) {
	g := tensor.NewGenerator(5)
	for _, shape := range [][]int{{7, 13}, {3, 1000}, {2, 3, 37}} {
		x, _ := tensor.Randn(g, shape, tensor.F32)
		gy, _ := tensor.Randn(g, shape, tensor.F32)
		x.SetRequiresGrad(true)
		grad := func(create bool) []float64 {
			e := NewEngine()
			y, err := e.Apply("log_softmax", []*T{x}, Attrs{"dim": -1}, func() (*T, error) { return tensor.LogSoftmax(x, -1) })
			if err != nil {
				t.Fatal(err)
			}
			gs, err := e.Grad([]*T{y}, []*T{x}, []*T{gy}, create, create)
			if err != nil {
				t.Fatal(err)
			}
			return gs[0].ToFloat64s()
		}
		a, b := grad(false), grad(true)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%v [%d]: fused %.9g, composed %.9g", shape, i, a[i], b[i])
			}
		}
	}
}
