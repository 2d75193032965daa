package autograd

import (
	"math"

	"github.com/tsrlang/tsr/tensor"
)

// Derivatives of erfc, special_ndtr, special_entr and polygamma (PyTorch
// 1.13's derivatives.yaml): erfc's -2/sqrt(pi) exp(-x²) grad, ndtr's
// grad * exp(-x²/2) / sqrt(2 pi), entr's grad * -(1 + log x) and
// polygamma(n, x)'s grad * polygamma(n + 1, x), all written in engine ops
// (differentiable again).
func init() {
	unaryDef("erfc", true, false, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		x := k.input(c, 0)
		e := k.un("exp", tensor.Exp, k.neg(k.mul(x, x)))
		return k.mul(g, k.scale(e, -2/math.Sqrt(math.Pi))), k.err
	})
	unaryDef("special_ndtr", true, false, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		x := k.input(c, 0)
		e := k.un("exp", tensor.Exp, k.scale(k.mul(x, x), -0.5))
		return k.mul(g, k.scale(e, 1/math.Sqrt(2*math.Pi))), k.err
	})
	unaryDef("special_entr", true, false, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		x := k.input(c, 0)
		l := k.addS(k.un("log", tensor.Log, x), 1)
		return k.mul(g, k.neg(l)), k.err
	})
	unaryDef("polygamma", true, false, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		x := k.input(c, 0)
		n, _ := c.Attr("n").(int)
		return k.mul(g, k.polygamma(n+1, x)), k.err
	})
}

// i0's derivative is I1 (I0Backward0: grad * i1(x)); angle's, on real
// inputs, is zero (angle_backward). i1 is recorded as special_i1, whose
// own derivative (derivatives_create.go) makes i0 differentiable twice.
func init() {
	unaryDef("i0", true, false, func(c *Ctx, g *T) (*T, error) {
		k := &calc{e: c.E}
		x := k.input(c, 0)
		return k.mul(g, k.un("special_i1", tensor.I1, x)), k.err
	})
	unaryDef("angle", false, false, func(c *Ctx, g *T) (*T, error) {
		return tensor.Zeros(c.InputShape(0), c.InputDType(0))
	})
}
