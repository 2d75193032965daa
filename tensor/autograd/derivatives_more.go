package autograd

import (
	"math"

	"github.com/tsrlang/tsr/tensor"
)

// Derivative formulas of the inverse-trigonometric / hyperbolic family,
// log2/log10/exp2, deg2rad/rad2deg, sinc, and the binary hypot, fmax,
// fmin and logaddexp (PyTorch's derivatives.yaml). All but sinc are
// written in engine ops, so they are differentiable again.

func (k *calc) un(op string, f func(*T) (*T, error), a *T) *T {
	return k.do(func() (*T, error) { return k.e.unary(op, f, a) })
}
func (k *calc) addS(a *T, v float64) *T {
	return k.do(func() (*T, error) { return k.e.addScalar(a, v) })
}
func (k *calc) where(c, a, b *T) *T { return k.do(func() (*T, error) { return k.e.where(c, a, b) }) }

// input0 returns saved input 0 of c (nil and the error in k when absent).
func (k *calc) input(c *Ctx, i int) *T {
	return k.do(func() (*T, error) { return c.Input(i) })
}
func (k *calc) output(c *Ctx) *T { return k.do(func() (*T, error) { return c.Output(0) }) }

func init() {
	in := func(name string, f func(k *calc, x, g *T) *T) {
		unaryDef(name, true, false, func(c *Ctx, g *T) (*T, error) {
			k := &calc{e: c.E}
			x := k.input(c, 0)
			r := f(k, x, g)
			return r, k.err
		})
	}
	// 1 - x^2 and x^2 + s
	sqPlus := func(k *calc, x *T, s float64) *T { return k.addS(k.mul(x, x), s) }
	oneMinusSq := func(k *calc, x *T) *T { return k.addS(k.neg(k.mul(x, x)), 1) }

	in("log2", func(k *calc, x, g *T) *T { return k.div(g, k.scale(x, math.Ln2)) })
	in("log10", func(k *calc, x, g *T) *T { return k.div(g, k.scale(x, math.Ln10)) })
	in("asin", func(k *calc, x, g *T) *T { return k.mul(g, k.un("rsqrt", tensor.Rsqrt, oneMinusSq(k, x))) })
	in("acos", func(k *calc, x, g *T) *T {
		return k.neg(k.mul(g, k.un("rsqrt", tensor.Rsqrt, oneMinusSq(k, x))))
	})
	in("atan", func(k *calc, x, g *T) *T { return k.div(g, sqPlus(k, x, 1)) })
	in("sinh", func(k *calc, x, g *T) *T { return k.mul(g, k.un("cosh", tensor.Cosh, x)) })
	in("cosh", func(k *calc, x, g *T) *T { return k.mul(g, k.un("sinh", tensor.Sinh, x)) })
	in("asinh", func(k *calc, x, g *T) *T { return k.mul(g, k.un("rsqrt", tensor.Rsqrt, sqPlus(k, x, 1))) })
	in("acosh", func(k *calc, x, g *T) *T { return k.mul(g, k.un("rsqrt", tensor.Rsqrt, sqPlus(k, x, -1))) })
	in("atanh", func(k *calc, x, g *T) *T { return k.div(g, oneMinusSq(k, x)) })
	in("sinc", func(k *calc, x, g *T) *T {
		if k.e.GradEnabled() {
			return k.mul(g, sincGradGraph(k, x))
		}
		return k.mul(g, k.do(func() (*T, error) { return tensor.SincGrad(x) }))
	})
	unaryDef("exp2", false, true, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		r := k.mul(g, k.scale(k.output(c), math.Ln2))
		return r, k.err
	})
	scaled := func(name string, v float64) {
		unaryDef(name, false, false, func(c *Ctx, g *T) (*T, error) { return c.E.mulScalar(g, v) })
	}
	scaled("deg2rad", math.Pi/180)
	scaled("rad2deg", 180/math.Pi)

	// binary: each gradient is summed back to its input's shape
	bin := func(name string, saveOut bool, f func(k *calc, c *Ctx, a, b, g *T) (ga, gb *T)) {
		def(&Function{Name: name, SaveInputs: true, SaveOutput: saveOut, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
			k := &calc{e: c.E}
			a, b := k.input(c, 0), k.input(c, 1)
			ga, gb := f(k, c, a, b, g0(gs))
			ga = k.sumTo(ga, c.InputShape(0))
			gb = k.sumTo(gb, c.InputShape(1))
			if k.err != nil {
				return nil, k.err
			}
			return []*T{ga, gb}, nil
		}})
	}
	bin("hypot", true, func(k *calc, c *Ctx, a, b, g *T) (*T, *T) {
		gOut := k.div(g, k.output(c))
		return k.mul(gOut, a), k.mul(gOut, b)
	})
	bin("logaddexp", false, func(k *calc, c *Ctx, a, b, g *T) (*T, *T) {
		// g / (1 + exp(b - a)) and g / (1 + exp(a - b))
		ea := k.addS(k.un("exp", tensor.Exp, k.sub(b, a)), 1)
		eb := k.addS(k.un("exp", tensor.Exp, k.sub(a, b)), 1)
		return k.div(g, ea), k.div(g, eb)
	})
	bin("logaddexp2", false, func(k *calc, c *Ctx, a, b, g *T) (*T, *T) {
		// g / (1 + 2**(b - a)) and g / (1 + 2**(a - b))
		ea := k.addS(k.un("exp2", tensor.Exp2, k.sub(b, a)), 1)
		eb := k.addS(k.un("exp2", tensor.Exp2, k.sub(a, b)), 1)
		return k.div(g, ea), k.div(g, eb)
	})
	// fmax/fmin: the gradient goes to a where a wins, ties and a NaN b
	// included; to b elsewhere.
	fm := func(name string, cmp func(a, b *T) (*T, error)) {
		bin(name, false, func(k *calc, c *Ctx, a, b, g *T) (*T, *T) {
			toA := k.do(func() (*T, error) {
				w, err := cmp(a, b)
				if err != nil {
					return nil, err
				}
				nb, err := tensor.IsNan(b)
				if err != nil {
					return nil, err
				}
				return tensor.LogicalOr(w, nb)
			})
			zero := tensor.ScalarFloat(0)
			return k.where(toA, g, zero), k.where(toA, zero, g)
		})
	}
	fm("fmax", tensor.Ge)
	fm("fmin", tensor.Le)
}
