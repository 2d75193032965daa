package autograd

import (
	"math"

	"github.com/tsrlang/tsr/tensor"
)

// Derivative formulas of copysign, xlogy, logit and hardtanh, and the
// not-implemented entry of heaviside, after PyTorch 1.13's
// derivatives.yaml and FunctionsManual.cpp (copysign_tensor_self_backward,
// logit_backward, hardtanh_backward; xlogy's masked_fill formula). The formulas are written in engine
// ops (masks are computed unrecorded), so they are differentiable again.

// errHeavisideBackward is PyTorch's message for a backward through
// heaviside, whose derivative is declared not_implemented.
const errHeavisideBackward = "derivative for aten::heaviside is not implemented"

// errFloorDivideBackward is PyTorch's message for a backward through
// floor_divide (also x // y on tensors).
const errFloorDivideBackward = "derivative for aten::floor_divide is not implemented"

func init() {
	// PyTorch's overloads: copysign.Tensor / copysign.Scalar and
	// xlogy.Tensor / xlogy.Scalar_Self / xlogy.Scalar_Other.
	nodeNameFns["copysign"] = func(in []*T, _ Attrs) string {
		if len(in) == 2 && in[1] != nil && in[1].IsWrappedNumber() {
			return "CopysignBackward1"
		}
		return "CopysignBackward0"
	}
	nodeNameFns["xlogy"] = func(in []*T, _ Attrs) string {
		switch {
		case len(in) == 2 && in[0] != nil && in[0].IsWrappedNumber():
			return "XlogyBackward1"
		case len(in) == 2 && in[1] != nil && in[1].IsWrappedNumber():
			return "XlogyBackward2"
		}
		return "XlogyBackward0"
	}
	// heaviside records a node that fails on backward: grad_fn prints
	// <NotImplemented>, as PyTorch's.
	nodeNames["heaviside"] = "NotImplemented"

	// copysign: self: grad * (result / self), 0 where self == 0;
	// other: zeros (the sign is piecewise constant).
	def(&Function{Name: "copysign", SaveInputs: true, SaveOutput: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		k := &calc{e: c.E}
		a, out, g := k.input(c, 0), k.output(c), g0(gs)
		var ga, gb *T
		if c.NeedsGrad(0) {
			ratio := k.div(out, a)
			zero := k.do(func() (*T, error) { return tensor.Eq(a, tensor.ScalarInt(0)) })
			ratio = k.where(zero, tensor.ScalarFloat(0), ratio)
			ga = k.sumTo(k.mul(g, ratio), c.InputShape(0))
		}
		if c.NeedsGrad(1) {
			gb = k.do(func() (*T, error) { return tensor.Zeros(c.InputShape(1), c.InputDType(1)) })
		}
		return []*T{ga, gb}, k.err
	}})

	// xlogy: self: xlogy(grad, other), 0 where self == 0 and other <= 0;
	// other: grad * self / other.
	def(&Function{Name: "xlogy", SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		k := &calc{e: c.E}
		a, b, g := k.input(c, 0), k.input(c, 1), g0(gs)
		var ga, gb *T
		if c.NeedsGrad(0) {
			l := k.do(func() (*T, error) {
				return c.E.Apply("xlogy", []*T{g, b}, nil, func() (*T, error) { return tensor.Xlogy(g, b) })
			})
			zero := k.do(func() (*T, error) {
				z, err := tensor.Eq(a, tensor.ScalarInt(0))
				if err != nil {
					return nil, err
				}
				nonPos, err := tensor.Le(b, tensor.ScalarInt(0))
				if err != nil {
					return nil, err
				}
				return tensor.LogicalAnd(z, nonPos)
			})
			ga = k.sumTo(k.where(zero, tensor.ScalarFloat(0), l), c.InputShape(0))
		}
		if c.NeedsGrad(1) {
			gb = k.sumTo(k.div(k.mul(g, a), b), c.InputShape(1))
		}
		return []*T{ga, gb}, k.err
	}})

	// logit (attribute eps, negative for none): grad / (x * (1 - x)); with
	// eps, 0 outside [eps, 1 - eps]; without, NaN outside [0, 1] and
	// grad * inf at 0 and 1.
	unaryDef("logit", true, false, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		x := k.input(c, 0)
		eps := c.Float("eps", -1)
		r := k.div(g, k.mul(x, k.addS(k.neg(x), 1)))
		mask := func(lo, hi float64) *T { // x < lo or x > hi, unrecorded
			return k.do(func() (*T, error) {
				l, err := tensor.Lt(x, tensor.ScalarFloat(lo))
				if err != nil {
					return nil, err
				}
				h, err := tensor.Gt(x, tensor.ScalarFloat(hi))
				if err != nil {
					return nil, err
				}
				return tensor.LogicalOr(l, h)
			})
		}
		if eps >= 0 {
			lo := tensor.RoundToDType(eps, x.DType())
			hi := tensor.RoundToDType(1-lo, x.DType())
			return k.where(mask(lo, hi), tensor.ScalarFloat(0), r), k.err
		}
		ends := k.do(func() (*T, error) {
			z, err := tensor.Eq(x, tensor.ScalarInt(0))
			if err != nil {
				return nil, err
			}
			o, err := tensor.Eq(x, tensor.ScalarInt(1))
			if err != nil {
				return nil, err
			}
			return tensor.LogicalOr(z, o)
		})
		r = k.where(ends, k.scale(g, math.Inf(1)), r)
		return k.where(mask(0, 1), tensor.ScalarFloat(math.NaN()), r), k.err
	})

	// hardtanh (attributes min_val, max_val): grad where min_val < x <
	// max_val, 0 elsewhere (NaN x passes the gradient, as ATen's
	// (x <= min || x >= max) ? 0 : grad).
	unaryDef("hardtanh", true, false, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		x := k.input(c, 0)
		lo, hi := c.Float("min_val", -1), c.Float("max_val", 1)
		out := k.do(func() (*T, error) {
			l, err := tensor.Le(x, tensor.ScalarFloat(lo))
			if err != nil {
				return nil, err
			}
			h, err := tensor.Ge(x, tensor.ScalarFloat(hi))
			if err != nil {
				return nil, err
			}
			return tensor.LogicalOr(l, h)
		})
		return k.where(out, tensor.ScalarFloat(0), g), k.err
	})

	def(&Function{Name: "heaviside", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		return nil, errorf(errHeavisideBackward)
	}})
}

// Derivatives of sgn, erfinv, lgamma, digamma and mish (PyTorch 1.13's
// derivatives.yaml): sgn's is zero for real tensors (sgn_backward's
// masked formula vanishes), erfinv's 0.5 * sqrt(pi) * exp(erfinv(x)²) *
// grad (from the saved result), lgamma's grad * digamma(x) (recorded, so
// differentiable again), digamma's grad * polygamma(1, x) and mish's
// grad * (tanh(sp) + x * sigmoid(x) * (1 - tanh(sp)²)), sp = softplus(x)
// (the last two by the kernels tensor.Trigamma / MishGrad in an ordinary
// backward, in engine ops when it records a graph).
func init() {
	unaryDef("sgn", false, false, zeroGrad)
	unaryDef("erfinv", false, true, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		out := k.output(c)
		r := k.mul(k.scale(k.un("exp", tensor.Exp, k.mul(out, out)), 0.5*math.Sqrt(math.Pi)), g)
		return r, k.err
	})
	unaryDef("lgamma", true, false, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		r := k.mul(g, k.un("digamma", tensor.Digamma, k.input(c, 0)))
		return r, k.err
	})
	unaryDef("digamma", true, false, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		x := k.input(c, 0)
		if c.E.GradEnabled() {
			return k.mul(g, k.polygamma(1, x)), k.err
		}
		r := k.mul(g, k.do(func() (*T, error) { return tensor.Trigamma(x) }))
		return r, k.err
	})
	unaryDef("mish", true, false, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		x := k.input(c, 0)
		if c.E.GradEnabled() {
			return k.mul(g, mishGradGraph(k, x)), k.err
		}
		r := k.mul(g, k.do(func() (*T, error) { return tensor.MishGrad(x) }))
		return r, k.err
	})
}

// nextafter has no derivative in PyTorch 1.13 (derivatives.yaml:
// not_implemented("nextafter")): a float result records
// NextafterBackward0, whose backward is a NotImplementedError.
func init() {
	def(&Function{Name: "nextafter", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		return nil, &Error{Kind: "NotImplementedError", Msg: "the derivative for 'nextafter' is not implemented."}
	}})
}
