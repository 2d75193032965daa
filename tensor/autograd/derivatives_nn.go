package autograd

import (
	"github.com/tsrlang/tsr/tensor"
)

// Fused neural-network ops: one node each instead of a chain of
// elementwise ones.
//
//	native_layer_norm  inputs [x, weight, bias] (weight, bias may be nil);
//	                   output [y]; attrs "k" (normalized trailing dims),
//	                   "n" (elements per normalized row),
//	                   "eps", and "mean", "rstd" (*T, M elements each: the
//	                   forward's per-row statistics, from tensor.LayerNorm)
//	nll_loss           inputs [logp, [N, C] or [C]]; output [loss] ([N] for
//	                   reduction "none", else a scalar); attrs "target"
//	                   ([]int, each row's class, -1 where ignored), "coef"
//	                   ([]float64, d loss / d logp[row, target]: -w[t]
//	                   over the mean's denominator), "reduction"
//	cross_entropy_loss inputs [x, [N, C] or [C]]; output [loss]; attrs
//	                   "target" ([]int, -1 where ignored), "weight"
//	                   ([]float64 or nil), "reduction", "label_smoothing",
//	                   "total_weight" (the mean's denominator) and, under
//	                   SavedAttr, logp = log_softmax(x, -1) as recorded in
//	                   the forward (its grad_fn makes create_graph work);
//	                   logp must be the loss's private intermediate, saved
//	                   only by this node and its log_softmax node: a
//	                   backward that frees the graph releases its buffer

func init() {
	def(&Function{Name: "native_layer_norm", SaveInputs: true, Backward: layerNormBackward})
	def(&Function{Name: "nll_loss", Backward: nllLossBackward})
	def(&Function{Name: "cross_entropy_loss", Backward: crossEntropyBackward})
}

// logpInGraph is the cross_entropy_loss attribute set once a backward
// has built a graph on the saved logp.
const logpInGraph = "_logp_in_graph"

// crossEntropyBackward is cross_entropy's gradient for class-index
// targets, log_softmax_backward(nll_loss_backward(g)) (plus the label
// smoothing term): in an ordinary backward pass one fused row kernel
// (tensor.CrossEntropyBackward, PyTorch's values bit for bit); when the
// pass records a graph, g times the constant d loss/d logp composed with
// log_softmax's backward in engine ops on the saved logp, whose own
// grad_fn carries the second derivative back to x.
func crossEntropyBackward(c *Ctx, gs []*T) ([]*T, error) {
	logp, err := c.Saved(0)
	if err != nil {
		return nil, err
	}
	tgt, _ := c.Attr("target").([]int)
	w, _ := c.Attr("weight").([]float64)
	p := &tensor.CrossEntropyGrad{Target: tgt, Weight: w, Reduction: c.String("reduction"),
		Smoothing: c.Float("label_smoothing", 0), TotalWeight: c.Float("total_weight", 0)}
	g := g0(gs)
	if !c.E.GradEnabled() {
		if gi, ok := tensor.CrossEntropyBackward(g, logp, p); ok {
			if c.Freeing() && c.Attr(logpInGraph) == nil {
				// logp is cross_entropy's own intermediate, saved by this
				// node and by its log_softmax node, which only a graph
				// built below (create_graph) can reach: without one, both
				// are done with it
				logp.ReleaseShared(2)
			}
			return []*T{gi}, nil
		}
	}
	// the graph built below uses logp (and its log_softmax node): a later
	// pass through this node must leave it alone
	if c.node.attrs == nil {
		c.node.attrs = Attrs{}
	}
	c.node.attrs[logpInGraph] = true
	shape := logp.Shape()
	C := shape[len(shape)-1]
	perRow := p.Reduction == "none" && len(shape) == 2
	// d loss / d logp per unit of g, row by row
	k := make([]float64, logp.Numel())
	for r, t := range tgt {
		if t < 0 {
			continue
		}
		row := k[r*C : (r+1)*C]
		den := 1.0
		if p.Reduction == "mean" {
			den = p.TotalWeight
		}
		wt := 1.0
		if w != nil {
			wt = w[t]
		}
		row[t] = -(1 - p.Smoothing) * wt / den
		if p.Smoothing > 0 {
			for j := range row {
				wc := 1.0
				if w != nil {
					wc = w[j]
				}
				row[j] -= p.Smoothing / float64(C) * wc / den
			}
		}
	}
	kt, err := tensor.FromFloat64s(k, shape, logp.DType())
	if err != nil {
		return nil, err
	}
	if perRow {
		if g, err = c.E.unsqueeze(g, 1); err != nil {
			return nil, err
		}
	}
	E := c.E
	gl, err := E.mul(g, kt)
	if err != nil {
		return nil, err
	}
	s, err := E.sum(gl, []int{len(shape) - 1}, true)
	if err != nil {
		return nil, err
	}
	e, err := E.exp(logp)
	if err != nil {
		return nil, err
	}
	t, err := E.mul(e, s)
	if err != nil {
		return nil, err
	}
	gi, err := E.sub(gl, t)
	return []*T{gi}, err
}

// layerNormBackward is ATen's layer_norm backward. During an ordinary
// backward pass it runs the fused row kernel (tensor.LayerNormBackward)
// on the saved statistics; when the pass records a graph (create_graph)
// it recomputes mean and rstd from x in engine ops and composes the same
// formula, so the gradients are differentiable again.
func layerNormBackward(c *Ctx, gs []*T) ([]*T, error) {
	x, err := c.Input(0)
	if err != nil {
		return nil, err
	}
	w, err := c.Input(1)
	if err != nil {
		return nil, err
	}
	g := g0(gs)
	n := c.Int("n", 1)
	needX, needW, needB := c.NeedsGrad(0), c.NeedsGrad(1), c.NeedsGrad(2)
	if !c.E.GradEnabled() {
		mean, _ := c.Attr("mean").(*T)
		rstd, _ := c.Attr("rstd").(*T)
		dx, dw, db, err := tensor.LayerNormBackward(g, x, mean, rstd, w, n, needX, needW, needB)
		if err != nil {
			return nil, err
		}
		out := []*T{dx, nil, nil}
		if dw != nil {
			if out[1], err = dw.Reshape(c.InputShape(1)...); err != nil {
				return nil, err
			}
		}
		if db != nil {
			if out[2], err = db.Reshape(c.InputShape(2)...); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	// create_graph: x̂ = (x - mean)·rstd recomputed in recorded ops over
	// the trailing dims holding n elements
	k := &calc{e: c.E}
	shape := c.InputShape(0)
	nd := c.Int("k", 1)
	dims := make([]int, nd)
	for i := range dims {
		dims[i] = len(shape) - nd + i
	}
	inv := 1 / float64(n)
	rowMean := func(a *T) *T {
		return k.scale(k.do(func() (*T, error) { return k.e.sum(a, dims, true) }), inv)
	}
	d := k.sub(x, rowMean(x))
	rstd := k.un("rsqrt", tensor.Rsqrt, k.addS(rowMean(k.mul(d, d)), c.Float("eps", 1e-5)))
	xh := k.mul(d, rstd)
	out := make([]*T, 3)
	if needX {
		gw := g
		if w != nil {
			gw = k.mul(g, w)
		}
		out[0] = k.mul(rstd, k.sub(k.sub(gw, rowMean(gw)), k.mul(xh, rowMean(k.mul(gw, xh)))))
	}
	if needW {
		out[1] = k.sumTo(k.mul(g, xh), c.InputShape(1))
	}
	if needB {
		out[2] = k.sumTo(g, c.InputShape(2))
	}
	return out, k.err
}

// nllLossBackward: the loss is linear in logp, so its gradient is zero
// but at each row's target, where it is coef times the output gradient
// (the row's for reduction "none"). When the pass records a graph it is
// g times a constant tensor of those coefficients.
func nllLossBackward(c *Ctx, gs []*T) ([]*T, error) {
	tgt, _ := c.Attr("target").([]int)
	coef, _ := c.Attr("coef").([]float64)
	shape, dt := c.InputShape(0), c.InputDType(0)
	g := g0(gs)
	perRow := c.String("reduction") == "none"
	if !c.E.GradEnabled() {
		gv := g.ToFloat64s()
		vals := make([]float64, len(tgt))
		for i, t := range tgt {
			if t < 0 {
				continue
			}
			gi := gv[0]
			if perRow {
				gi = gv[i]
			}
			vals[i] = coef[i] * gi
		}
		gi, err := tensor.ScatterRows(shape, dt, tgt, vals)
		return []*T{gi}, err
	}
	scale, err := tensor.ScatterRows(shape, dt, tgt, coef)
	if err != nil {
		return nil, err
	}
	if perRow && len(shape) == 2 {
		if g, err = c.E.unsqueeze(g, 1); err != nil {
			return nil, err
		}
	}
	gi, err := c.E.mul(g, scale)
	return []*T{gi}, err
}
