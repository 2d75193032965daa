package autograd

import (
	"math"

	"github.com/tsrlang/tsr/tensor"
)

// Double-backward variants of formulas whose ordinary backward runs a fused
// or closed-form kernel (gelu, sinc, mish, digamma, i0, polygamma, norm with
// a general p, cumprod, logcumsumexp). An ordinary backward pass keeps the
// kernel (its bits are PyTorch's); a pass that records a graph
// (create_graph, c.E.GradEnabled()) composes the same derivative from
// engine ops, so the gradient is differentiable again, as PyTorch's
// derivatives.yaml formulas are. Checked by TestGradgradcheckAllOps.

// recording reports whether c's backward pass records a graph.
func recording(c *Ctx) bool { return c.E.GradEnabled() }

func (k *calc) apply(op string, in []*T, attrs Attrs, f func() (*T, error)) *T {
	return k.do(func() (*T, error) { return k.e.Apply(op, in, attrs, f) })
}

// polygammaOp is polygamma(n, x), recorded (its derivative is
// polygamma(n + 1, x)).
func (k *calc) polygamma(n int, x *T) *T {
	return k.apply("polygamma", []*T{x}, Attrs{"n": n}, func() (*T, error) { return tensor.Polygamma(n, x) })
}

// safeNonzero returns x with its zeros replaced by ones, and the mask x == 0
// (for formulas of the form f(x) / x with a separate value at 0: the
// replaced operand keeps the unused branch of where finite).
func (k *calc) safeNonzero(x *T) (*T, *T) {
	if k.err != nil {
		return nil, nil
	}
	z, err := tensor.Eq(x, scalar(0))
	if err != nil {
		k.err = err
		return nil, nil
	}
	return k.where(z, scalar(1), x), z
}

// geluGradGraph is d gelu(x) / dx in engine ops: Φ(x) + x φ(x) for
// approximate "none", and for "tanh", with u = √(2/π) (x + 0.044715 x³),
// ½ (1 + tanh u) + ½ x (1 - tanh² u) √(2/π) (1 + 3·0.044715 x²).
func geluGradGraph(k *calc, x *T, approx string) *T {
	if approx == "tanh" {
		c := math.Sqrt(2 / math.Pi)
		x2 := k.mul(x, x)
		u := k.scale(k.mul(x, k.addS(k.scale(x2, 0.044715), 1)), c)
		th := k.un("tanh", tensor.Tanh, u)
		left := k.scale(k.addS(th, 1), 0.5)
		sech2 := k.addS(k.neg(k.mul(th, th)), 1)
		inner := k.scale(k.addS(k.scale(x2, 3*0.044715), 1), c)
		return k.add(left, k.scale(k.mul(k.mul(x, sech2), inner), 0.5))
	}
	cdf := k.scale(k.addS(k.un("erf", tensor.Erf, k.scale(x, 1/math.Sqrt2)), 1), 0.5)
	pdf := k.scale(k.un("exp", tensor.Exp, k.scale(k.mul(x, x), -0.5)), 1/math.Sqrt(2*math.Pi))
	return k.add(cdf, k.mul(x, pdf))
}

// sincGradGraph is d sinc(x) / dx = (πx cos πx - sin πx) / (π x²), 0 at 0.
func sincGradGraph(k *calc, x *T) *T {
	xs, z := k.safeNonzero(x)
	px := k.scale(xs, math.Pi)
	num := k.sub(k.mul(k.un("cos", tensor.Cos, px), px), k.un("sin", tensor.Sin, px))
	d := k.div(num, k.scale(k.mul(xs, xs), math.Pi))
	return k.where(z, scalar(0), d)
}

// mishGradGraph is tanh(sp) + x σ(x) (1 - tanh²(sp)), sp = softplus(x)
// (logaddexp(x, 0)).
func mishGradGraph(k *calc, x *T) *T {
	zero := k.do(func() (*T, error) { return tensor.Zeros([]int{}, x.DType()) })
	sp := k.apply("logaddexp", []*T{x, zero}, nil, func() (*T, error) { return tensor.LogAddExp(x, zero) })
	t := k.un("tanh", tensor.Tanh, sp)
	s := k.un("sigmoid", tensor.Sigmoid, x)
	return k.add(t, k.mul(k.mul(x, s), k.addS(k.neg(k.mul(t, t)), 1)))
}

// i1GradGraph is d i1(x) / dx = i0(x) - i1(x) / x, ½ at 0.
func i1GradGraph(k *calc, x *T) *T {
	xs, z := k.safeNonzero(x)
	i0 := k.un("i0", tensor.I0, x)
	i1 := k.un("special_i1", tensor.I1, xs)
	return k.where(z, scalar(0.5), k.sub(i0, k.div(i1, xs)))
}

// normGradGraph is d ‖x‖_p / dx = sign(x) |x|^(p-1) / ‖x‖^(p-1) (0 where
// the norm is 0), for a finite p other than 0, 1 and 2; ob is the norm
// expanded to x's shape.
func normGradGraph(k *calc, x, ob *T, p float64) *T {
	ax := k.un("abs", tensor.Abs, x)
	pw := func(a *T) *T {
		return k.apply("pow", []*T{a, scalar(p - 1)}, nil, func() (*T, error) { return tensor.Pow(a, scalar(p-1)) })
	}
	num := k.mul(k.un("sign", tensor.Sign, x), pw(ax))
	obs, z := k.safeNonzero(ob)
	return k.where(z, scalar(0), k.div(num, pw(obs)))
}

// revCumsum is the reverse cumulative sum of a along dim, in engine ops:
// sum(a) - cumsum(a) + a.
func revCumsum(k *calc, a *T, dim int) *T {
	cs := k.apply("cumsum", []*T{a}, Attrs{"dim": dim}, func() (*T, error) { return tensor.Cumsum(a, dim) })
	tot := k.do(func() (*T, error) { return k.e.sum(a, []int{dim}, true) })
	return k.add(k.sub(tot, cs), a)
}

// cumprodGradGraph is cumprod's gradient revcumsum(g · cumprod(x)) / x in
// engine ops. It needs x without zeros; with zeros the double backward is
// a NotImplementedError (the ordinary backward handles zeros exactly).
func cumprodGradGraph(k *calc, x, g *T, dim int) *T {
	if k.err != nil {
		return nil
	}
	for _, v := range x.ToFloat64s() {
		if v == 0 {
			k.err = &Error{Kind: "NotImplementedError", Msg: "the second derivative of 'cumprod' at an input with zeros is not implemented"}
			return nil
		}
	}
	out := k.apply("cumprod", []*T{x}, Attrs{"dim": dim}, func() (*T, error) { return tensor.Cumprod(x, dim) })
	return k.div(revCumsum(k, k.mul(g, out), dim), x)
}

// logcumsumexpGradGraph is logcumsumexp's gradient
// Σ_{j≥i} g_j exp(x_i - y_j), y = logcumsumexp(x), in engine ops: with s the
// (constant) maximum of x along dim, exp(x - s) · revcumsum(g · exp(s - y)).
func logcumsumexpGradGraph(k *calc, x, g *T, dim int) *T {
	if k.err != nil {
		return nil
	}
	y := k.apply("logcumsumexp", []*T{x}, Attrs{"dim": dim}, func() (*T, error) { return tensor.LogCumSumExp(x, dim) })
	s := k.do(func() (*T, error) { return tensor.Amax(x, []int{dim}, true) })
	if k.err == nil && s.DType().IsFloat() {
		// a non-finite shift (all -inf slice) would turn the products into NaN
		sv := s.ToFloat64s()
		for i, v := range sv {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				sv[i] = 0
			}
		}
		s = k.do(func() (*T, error) { return tensor.FromFloat64s(sv, s.Shape(), s.DType()) })
	}
	a := k.mul(g, k.un("exp", tensor.Exp, k.sub(s, y)))
	return k.mul(k.un("exp", tensor.Exp, k.sub(x, s)), revCumsum(k, a, dim))
}

func init() {
	unaryDef("special_i1", true, false, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		return k.mul(g, i1GradGraph(k, k.input(c, 0))), k.err
	})
}
