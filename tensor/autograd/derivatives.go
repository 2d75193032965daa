package autograd

import (
	"math"
	"sort"

	"github.com/tsrlang/tsr/tensor"
)

// Function is one differentiable op's entry in the derivative table: the
// counterpart of an entry of PyTorch's derivatives.yaml. Formulas receive
// one gradient per output (zeros where an output got none) and return one
// gradient per input, of the input's shape (nil for inputs without one).
type Function struct {
	// Name is the op's PyTorch name ("mul", "sum", "as_strided").
	Name string
	// SaveInputs / SaveOutput say which tensors the formula reads; they
	// are saved with their version for the in-place check.
	SaveInputs bool
	SaveOutput bool
	// View marks ops whose output is a view of input 0; their default
	// backward scatters the gradient through the view's geometry.
	View bool
	// Backward is the derivative formula.
	Backward func(c *Ctx, grads []*T) ([]*T, error)
	// Tangent, for an op linear in its inputs whose Backward runs
	// outside the engine, applies the op to tangents us (one per input,
	// zeros where none) in engine ops: a create_graph backward then
	// records the gradient as differentiable in the output gradient
	// (linearDoubleBackward).
	Tangent func(c *Ctx, us []*T) (*T, error)

	node string // cached node name
}

func (f *Function) nodeName() string {
	if f.node == "" {
		f.node = makeNodeName(f.Name)
	}
	return f.node
}

var table = map[string]*Function{}

func def(f *Function) {
	f.node = makeNodeName(f.Name)
	table[f.Name] = f
}

// Ops lists the op names that have a derivative formula, sorted.
func Ops() []string {
	names := make([]string, 0, len(table))
	for n := range table {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// HasDerivative reports whether op has a derivative formula.
func HasDerivative(op string) bool { _, ok := table[op]; return ok }

func g0(grads []*T) *T { return grads[0] }

// unaryDef declares a one-input op whose gradient is grad * f'(x, out).
func unaryDef(name string, saveIn, saveOut bool, d func(c *Ctx, g *T) (*T, error)) {
	def(&Function{Name: name, SaveInputs: saveIn, SaveOutput: saveOut, Backward: func(c *Ctx, grads []*T) ([]*T, error) {
		gi, err := d(c, g0(grads))
		return []*T{gi}, err
	}})
}

func zeroGrad(c *Ctx, g *T) (*T, error) {
	return tensor.Zeros(c.InputShape(0), c.InputDType(0))
}

func init() {
	e := func(c *Ctx) *Engine { return c.E }

	// ---- binary arithmetic (broadcasting: sumTo the input shapes) ----
	def(&Function{Name: "add", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		g := g0(gs)
		ga, err := e(c).sumTo(g, c.InputShape(0))
		if err != nil {
			return nil, err
		}
		gb := g
		if alpha := c.Float("alpha", 1); alpha != 1 {
			if gb, err = e(c).mulScalar(g, alpha); err != nil {
				return nil, err
			}
		}
		gb, err = e(c).sumTo(gb, c.InputShape(1))
		return []*T{ga, gb}, err
	}})
	def(&Function{Name: "sub", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		g := g0(gs)
		ga, err := e(c).sumTo(g, c.InputShape(0))
		if err != nil {
			return nil, err
		}
		gb, err := e(c).mulScalar(g, -c.Float("alpha", 1))
		if err != nil {
			return nil, err
		}
		gb, err = e(c).sumTo(gb, c.InputShape(1))
		return []*T{ga, gb}, err
	}})
	def(&Function{Name: "mul", SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		g := g0(gs)
		// Each factor is read (and its version checked) only for the
		// other's gradient, as PyTorch saves it only then.
		var ga, gb *T
		if c.NeedsGrad(0) {
			b, err := c.Input(1)
			if err != nil {
				return nil, err
			}
			if ga, err = e(c).mul(g, b); err != nil {
				return nil, err
			}
			if ga, err = e(c).sumTo(ga, c.InputShape(0)); err != nil {
				return nil, err
			}
		}
		if c.NeedsGrad(1) {
			a, err := c.Input(0)
			if err != nil {
				return nil, err
			}
			if gb, err = e(c).mul(g, a); err != nil {
				return nil, err
			}
			if gb, err = e(c).sumTo(gb, c.InputShape(1)); err != nil {
				return nil, err
			}
		}
		return []*T{ga, gb}, nil
	}})
	def(&Function{Name: "div", SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		g := g0(gs)
		// The dividend is read only for the divisor's gradient (PyTorch
		// saves self only when other requires grad).
		var a *T
		b, err := c.Input(1)
		if err != nil {
			return nil, err
		}
		if c.NeedsGrad(1) {
			if a, err = c.Input(0); err != nil {
				return nil, err
			}
		}
		var ga, gb *T
		if c.NeedsGrad(0) {
			if ga, err = e(c).div(g, b); err != nil {
				return nil, err
			}
			if ga, err = e(c).sumTo(ga, c.InputShape(0)); err != nil {
				return nil, err
			}
		}
		if c.NeedsGrad(1) {
			// -g * a / b^2
			t, err := e(c).div(a, b)
			if err != nil {
				return nil, err
			}
			if t, err = e(c).div(t, b); err != nil {
				return nil, err
			}
			if t, err = e(c).mul(g, t); err != nil {
				return nil, err
			}
			if gb, err = e(c).neg(t); err != nil {
				return nil, err
			}
			if gb, err = e(c).sumTo(gb, c.InputShape(1)); err != nil {
				return nil, err
			}
		}
		return []*T{ga, gb}, nil
	}})
	def(&Function{Name: "pow", SaveInputs: true, SaveOutput: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		g := g0(gs)
		a, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		b, err := c.Input(1)
		if err != nil {
			return nil, err
		}
		var ga, gb *T
		E := e(c)
		if c.NeedsGrad(0) {
			// g * b * a^(b-1), with 0 where b == 0 (PyTorch's pow_backward)
			bm1, err := E.addScalar(b, -1)
			if err != nil {
				return nil, err
			}
			p, err := E.Apply("pow", []*T{a, bm1}, nil, func() (*T, error) { return tensor.Pow(a, bm1) })
			if err != nil {
				return nil, err
			}
			if p, err = E.mul(p, b); err != nil {
				return nil, err
			}
			bz, err := tensor.Eq(b, scalar(0))
			if err != nil {
				return nil, err
			}
			z, err := tensor.Zeros([]int{}, p.DType())
			if err != nil {
				return nil, err
			}
			if p, err = E.where(bz, z, p); err != nil {
				return nil, err
			}
			if ga, err = E.mul(g, p); err != nil {
				return nil, err
			}
			if ga, err = E.sumTo(ga, c.InputShape(0)); err != nil {
				return nil, err
			}
		}
		if c.NeedsGrad(1) {
			// g * out * log(a), with 0 where a == 0 and b >= 0
			out, err := c.Output(0)
			if err != nil {
				return nil, err
			}
			la, err := E.unary("log", tensor.Log, a)
			if err != nil {
				return nil, err
			}
			t, err := E.mul(out, la)
			if err != nil {
				return nil, err
			}
			az, err := tensor.Eq(a, scalar(0))
			if err != nil {
				return nil, err
			}
			bp, err := tensor.Ge(b, scalar(0))
			if err != nil {
				return nil, err
			}
			mask, err := tensor.LogicalAnd(az, bp)
			if err != nil {
				return nil, err
			}
			z, err := tensor.Zeros([]int{}, t.DType())
			if err != nil {
				return nil, err
			}
			if t, err = E.where(mask, z, t); err != nil {
				return nil, err
			}
			if gb, err = E.mul(g, t); err != nil {
				return nil, err
			}
			if gb, err = E.sumTo(gb, c.InputShape(1)); err != nil {
				return nil, err
			}
		}
		return []*T{ga, gb}, nil
	}})
	minmax := func(name string, cmp func(a, b *T) (*T, error)) {
		def(&Function{Name: name, SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
			g := g0(gs)
			a, err := c.Input(0)
			if err != nil {
				return nil, err
			}
			b, err := c.Input(1)
			if err != nil {
				return nil, err
			}
			// PyTorch: the winner gets g, ties split g evenly.
			win, err := cmp(a, b)
			if err != nil {
				return nil, err
			}
			tie, err := tensor.Eq(a, b)
			if err != nil {
				return nil, err
			}
			wa, err := maskWeights(win, tie, g.DType())
			if err != nil {
				return nil, err
			}
			lose, err := cmp(b, a)
			if err != nil {
				return nil, err
			}
			wb, err := maskWeights(lose, tie, g.DType())
			if err != nil {
				return nil, err
			}
			ga, err := e(c).mul(g, wa)
			if err != nil {
				return nil, err
			}
			gb, err := e(c).mul(g, wb)
			if err != nil {
				return nil, err
			}
			if ga, err = e(c).sumTo(ga, c.InputShape(0)); err != nil {
				return nil, err
			}
			gb, err = e(c).sumTo(gb, c.InputShape(1))
			return []*T{ga, gb}, err
		}})
	}
	minmax("maximum", tensor.Gt)
	minmax("minimum", tensor.Lt)
	def(&Function{Name: "atan2", SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		g := g0(gs)
		a, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		b, err := c.Input(1)
		if err != nil {
			return nil, err
		}
		E := e(c)
		a2, err := E.mul(a, a)
		if err != nil {
			return nil, err
		}
		b2, err := E.mul(b, b)
		if err != nil {
			return nil, err
		}
		den, err := E.add(a2, b2)
		if err != nil {
			return nil, err
		}
		ga, err := E.mul(g, b)
		if err != nil {
			return nil, err
		}
		if ga, err = E.div(ga, den); err != nil {
			return nil, err
		}
		gb, err := E.mul(g, a)
		if err != nil {
			return nil, err
		}
		if gb, err = E.div(gb, den); err != nil {
			return nil, err
		}
		if gb, err = E.neg(gb); err != nil {
			return nil, err
		}
		if ga, err = E.sumTo(ga, c.InputShape(0)); err != nil {
			return nil, err
		}
		gb, err = E.sumTo(gb, c.InputShape(1))
		return []*T{ga, gb}, err
	}})
	def(&Function{Name: "remainder", SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		g := g0(gs)
		a, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		if a.IsWrappedNumber() {
			// 2 % x, remainder(2, x): PyTorch's remainder.Scalar_Tensor
			return nil, errorf(errRemainderScalarSelf)
		}
		b, err := c.Input(1)
		if err != nil {
			return nil, err
		}
		E := e(c)
		ga, err := E.sumTo(g, c.InputShape(0))
		if err != nil {
			return nil, err
		}
		q, err := tensor.FloorDivide(a, b)
		if err != nil {
			return nil, err
		}
		gb, err := E.mul(g, q)
		if err != nil {
			return nil, err
		}
		if gb, err = E.neg(gb); err != nil {
			return nil, err
		}
		gb, err = E.sumTo(gb, c.InputShape(1))
		return []*T{ga, gb}, err
	}})
	// floor_divide is not differentiable in PyTorch 1.13 (derivatives.yaml:
	// not_implemented): its node prints <NotImplemented> and backward fails.
	nodeNames["floor_divide"] = "NotImplemented"
	def(&Function{Name: "floor_divide", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		return nil, errorf(errFloorDivideBackward)
	}})
	// div_floor is div(rounding_mode="floor") (PyTorch's DivBackward2:
	// zero gradients, the quotient is piecewise constant).
	def(&Function{Name: "div_floor", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		ga, err := tensor.Zeros(c.InputShape(0), c.InputDType(0))
		if err != nil {
			return nil, err
		}
		gb, err := tensor.Zeros(c.InputShape(1), c.InputDType(1))
		return []*T{ga, gb}, err
	}})
	def(&Function{Name: "where", SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		g := g0(gs)
		cond, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		E := e(c)
		z, err := tensor.Zeros([]int{}, g.DType())
		if err != nil {
			return nil, err
		}
		var ga, gb *T
		if c.NeedsGrad(1) {
			if ga, err = E.where(cond, g, z); err != nil {
				return nil, err
			}
			if ga, err = E.sumTo(ga, c.InputShape(1)); err != nil {
				return nil, err
			}
		}
		if c.NeedsGrad(2) {
			if gb, err = E.where(cond, z, g); err != nil {
				return nil, err
			}
			if gb, err = E.sumTo(gb, c.InputShape(2)); err != nil {
				return nil, err
			}
		}
		return []*T{nil, ga, gb}, nil
	}})
	def(&Function{Name: "masked_fill", SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		return maskedFillBackward(c, gs, false)
	}})
	// masked_fill_tensor is masked_fill with a 0-d value tensor that
	// requires grad (inputs x, mask, value; PyTorch's MaskedFillBackward1):
	// the value's gradient is the sum of the gradient where mask is true.
	def(&Function{Name: "masked_fill_tensor", SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		return maskedFillBackward(c, gs, true)
	}})
	def(&Function{Name: "clamp", SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		g := g0(gs)
		x, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		ok, err := tensor.Full(x.Shape(), 1, tensor.Bool)
		if err != nil {
			return nil, err
		}
		if v, has := c.Attr("min").(float64); has {
			m, err := tensor.Ge(x, scalar(v))
			if err != nil {
				return nil, err
			}
			if ok, err = tensor.LogicalAnd(ok, m); err != nil {
				return nil, err
			}
		}
		if v, has := c.Attr("max").(float64); has {
			m, err := tensor.Le(x, scalar(v))
			if err != nil {
				return nil, err
			}
			if ok, err = tensor.LogicalAnd(ok, m); err != nil {
				return nil, err
			}
		}
		z, err := tensor.Zeros([]int{}, g.DType())
		if err != nil {
			return nil, err
		}
		gi, err := e(c).where(ok, g, z)
		return []*T{gi}, err
	}})

	// ---- unary ----
	unaryDef("neg", false, false, func(c *Ctx, g *T) (*T, error) { return e(c).neg(g) })
	unaryDef("abs", true, false, func(c *Ctx, g *T) (*T, error) {
		x, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		s, err := tensor.Sign(x)
		if err != nil {
			return nil, err
		}
		return e(c).mul(g, s)
	})
	for _, name := range []string{"sign", "floor", "ceil", "round", "trunc"} {
		unaryDef(name, false, false, zeroGrad)
	}
	unaryDef("square", true, false, func(c *Ctx, g *T) (*T, error) {
		x, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		t, err := e(c).mulScalar(x, 2)
		if err != nil {
			return nil, err
		}
		return e(c).mul(g, t)
	})
	// relu: PyTorch's threshold_backward(grad, result, 0), zero where
	// result <= 0 and grad elsewhere (a NaN result passes its gradient)
	unaryDef("relu", false, true, func(c *Ctx, g *T) (*T, error) {
		out, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		off, err := tensor.Le(out, scalar(0))
		if err != nil {
			return nil, err
		}
		z, err := tensor.Zeros([]int{}, g.DType())
		if err != nil {
			return nil, err
		}
		return e(c).where(off, z, g)
	})
	unaryDef("exp", false, true, func(c *Ctx, g *T) (*T, error) {
		out, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		return e(c).mul(g, out)
	})
	unaryDef("log", true, false, func(c *Ctx, g *T) (*T, error) {
		x, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		return e(c).div(g, x)
	})
	unaryDef("log1p", true, false, func(c *Ctx, g *T) (*T, error) {
		x, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		d, err := e(c).addScalar(x, 1)
		if err != nil {
			return nil, err
		}
		return e(c).div(g, d)
	})
	unaryDef("expm1", false, true, func(c *Ctx, g *T) (*T, error) {
		out, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		d, err := e(c).addScalar(out, 1)
		if err != nil {
			return nil, err
		}
		return e(c).mul(g, d)
	})
	unaryDef("sqrt", false, true, func(c *Ctx, g *T) (*T, error) {
		out, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		d, err := e(c).mulScalar(out, 2)
		if err != nil {
			return nil, err
		}
		return e(c).div(g, d)
	})
	unaryDef("rsqrt", false, true, func(c *Ctx, g *T) (*T, error) {
		out, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		o3, err := e(c).mul(out, out)
		if err != nil {
			return nil, err
		}
		if o3, err = e(c).mul(o3, out); err != nil {
			return nil, err
		}
		if o3, err = e(c).mulScalar(o3, -0.5); err != nil {
			return nil, err
		}
		return e(c).mul(g, o3)
	})
	unaryDef("sin", true, false, func(c *Ctx, g *T) (*T, error) {
		x, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		d, err := e(c).unary("cos", tensor.Cos, x)
		if err != nil {
			return nil, err
		}
		return e(c).mul(g, d)
	})
	unaryDef("cos", true, false, func(c *Ctx, g *T) (*T, error) {
		x, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		d, err := e(c).unary("sin", tensor.Sin, x)
		if err != nil {
			return nil, err
		}
		if d, err = e(c).neg(d); err != nil {
			return nil, err
		}
		return e(c).mul(g, d)
	})
	oneMinusOrPlusSq := func(sign float64) func(c *Ctx, g *T) (*T, error) {
		return func(c *Ctx, g *T) (*T, error) {
			out, err := c.Output(0)
			if err != nil {
				return nil, err
			}
			sq, err := e(c).mul(out, out)
			if err != nil {
				return nil, err
			}
			if sq, err = e(c).mulScalar(sq, sign); err != nil {
				return nil, err
			}
			d, err := e(c).addScalar(sq, 1)
			if err != nil {
				return nil, err
			}
			return e(c).mul(g, d)
		}
	}
	unaryDef("tan", false, true, oneMinusOrPlusSq(1))
	unaryDef("tanh", false, true, oneMinusOrPlusSq(-1))
	unaryDef("sigmoid", false, true, func(c *Ctx, g *T) (*T, error) {
		out, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		om, err := e(c).mulScalar(out, -1)
		if err != nil {
			return nil, err
		}
		if om, err = e(c).addScalar(om, 1); err != nil {
			return nil, err
		}
		d, err := e(c).mul(out, om)
		if err != nil {
			return nil, err
		}
		return e(c).mul(g, d)
	})
	unaryDef("reciprocal", false, true, func(c *Ctx, g *T) (*T, error) {
		out, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		sq, err := e(c).mul(out, out)
		if err != nil {
			return nil, err
		}
		if sq, err = e(c).neg(sq); err != nil {
			return nil, err
		}
		return e(c).mul(g, sq)
	})
	unaryDef("erf", true, false, func(c *Ctx, g *T) (*T, error) {
		x, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		sq, err := e(c).mul(x, x)
		if err != nil {
			return nil, err
		}
		if sq, err = e(c).neg(sq); err != nil {
			return nil, err
		}
		ex, err := e(c).exp(sq)
		if err != nil {
			return nil, err
		}
		if ex, err = e(c).mulScalar(ex, 2/math.Sqrt(math.Pi)); err != nil {
			return nil, err
		}
		return e(c).mul(g, ex)
	})
	unaryDef("gelu", true, false, geluBackward)
	unaryDef("to", false, false, func(c *Ctx, g *T) (*T, error) { return e(c).toDType(g, c.InputDType(0)) })
	unaryDef("contiguous", false, false, func(c *Ctx, g *T) (*T, error) { return g, nil })
	unaryDef("clone", false, false, func(c *Ctx, g *T) (*T, error) { return g, nil })

	// ---- views ----
	reshapeBack := func(c *Ctx, g *T) (*T, error) { return e(c).reshape(g, c.InputShape(0)) }
	for _, name := range []string{"view", "reshape", "flatten", "unflatten", "squeeze"} {
		def(&Function{Name: name, View: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
			gi, err := reshapeBack(c, g0(gs))
			return []*T{gi}, err
		}})
	}
	def(&Function{Name: "transpose", View: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		gi, err := e(c).transpose(g0(gs), c.Int("dim0", 0), c.Int("dim1", 1))
		return []*T{gi}, err
	}})
	def(&Function{Name: "permute", View: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		dims := c.Ints("dims")
		inv := make([]int, len(dims))
		for i, d := range dims {
			inv[d] = i
		}
		gi, err := e(c).permute(g0(gs), inv)
		return []*T{gi}, err
	}})
	def(&Function{Name: "expand", View: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		gi, err := e(c).sumTo(g0(gs), c.InputShape(0))
		return []*T{gi}, err
	}})
	def(&Function{Name: "unsqueeze", View: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		gi, err := e(c).reshape(g0(gs), c.InputShape(0))
		return []*T{gi}, err
	}})
	// Views whose gradient is the output gradient scattered back through
	// the view's geometry (summing where the view overlaps itself).
	for _, name := range []string{"narrow", "select", "slice", "diagonal", "unfold", "movedim", "as_strided", "index"} {
		def(&Function{Name: name, View: true, Backward: geometryBackward})
	}

	// ---- reductions ----
	def(&Function{Name: "sum", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		gi, err := e(c).expandReduced(g0(gs), c.InputShape(0), c.Ints("dim"), c.Bool("keepdim"))
		return []*T{gi}, err
	}})
	def(&Function{Name: "mean", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		shape := c.InputShape(0)
		n := reducedCount(shape, c.Ints("dim"))
		g, err := e(c).mulScalar(g0(gs), 1/float64(n))
		if err != nil {
			return nil, err
		}
		gi, err := e(c).expandReduced(g, shape, c.Ints("dim"), c.Bool("keepdim"))
		return []*T{gi}, err
	}})
	def(&Function{Name: "prod", SaveInputs: true, SaveOutput: true, Backward: prodBackward})
	ext := func(name string) {
		def(&Function{Name: name, SaveInputs: true, SaveOutput: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
			// Ties share the gradient evenly (PyTorch's amax/amin backward).
			x, err := c.Input(0)
			if err != nil {
				return nil, err
			}
			out, err := c.Output(0)
			if err != nil {
				return nil, err
			}
			dims := c.Ints("dim")
			keep := c.Bool("keepdim")
			shape := c.InputShape(0)
			ob, err := e(c).expandReduced(out, shape, dims, keep)
			if err != nil {
				return nil, err
			}
			mask, err := tensor.Eq(x, ob)
			if err != nil {
				return nil, err
			}
			mf, err := mask.To(x.DType())
			if err != nil {
				return nil, err
			}
			cnt, err := tensor.Sum(mf, dims, true)
			if err != nil {
				return nil, err
			}
			w, err := tensor.Div(mf, cnt)
			if err != nil {
				return nil, err
			}
			gb, err := e(c).expandReduced(g0(gs), shape, dims, keep)
			if err != nil {
				return nil, err
			}
			gi, err := e(c).mul(gb, w)
			return []*T{gi}, err
		}})
	}
	ext("amax")
	ext("amin")
	ext("max_all")
	ext("min_all")
	for _, name := range []string{"max", "min"} {
		def(&Function{Name: name, SaveOutput: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
			// Only the returned index gets the gradient.
			idx, err := c.Output(1)
			if err != nil {
				return nil, err
			}
			dim := c.Int("dim", 0)
			keep := c.Bool("keepdim")
			shape := c.InputShape(0)
			g := g0(gs)
			if !keep {
				if g, err = e(c).unsqueeze(g, dim); err != nil {
					return nil, err
				}
				if idx, err = idx.Unsqueeze(dim); err != nil {
					return nil, err
				}
			}
			oneHot, err := oneHotAlong(idx, shape, dim, g.DType())
			if err != nil {
				return nil, err
			}
			gi, err := e(c).mul(g, oneHot)
			return []*T{gi}, err
		}})
	}
	def(&Function{Name: "var", SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		return varStdBackward(c, g0(gs), false)
	}})
	def(&Function{Name: "std", SaveInputs: true, SaveOutput: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		return varStdBackward(c, g0(gs), true)
	}})
	def(&Function{Name: "norm", SaveInputs: true, SaveOutput: true, Backward: normBackward})
	def(&Function{Name: "cumsum", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		// reverse cumulative sum: total - cumsum(g) + g
		g := g0(gs)
		dim := c.Int("dim", 0)
		E := e(c)
		cs, err := E.Apply("cumsum", []*T{g}, Attrs{"dim": dim}, func() (*T, error) { return tensor.Cumsum(g, dim) })
		if err != nil {
			return nil, err
		}
		tot, err := E.sum(g, []int{dim}, true)
		if err != nil {
			return nil, err
		}
		r, err := E.sub(tot, cs)
		if err != nil {
			return nil, err
		}
		gi, err := E.add(r, g)
		return []*T{gi}, err
	}})
	def(&Function{Name: "cumprod", SaveInputs: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		// sum_{j>=k} g_j prod_{i<=j, i!=k} x_i, exact where x has zeros
		x, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		if recording(c) {
			k := &calc{e: c.E}
			return []*T{cumprodGradGraph(k, x, g0(gs), c.Int("dim", 0))}, k.err
		}
		gi, err := tensor.CumprodBackward(x, g0(gs), c.Int("dim", 0))
		return []*T{gi}, err
	}})
	def(&Function{Name: "logcumsumexp", SaveInputs: true, SaveOutput: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		x, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		y, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		if recording(c) {
			k := &calc{e: c.E}
			return []*T{logcumsumexpGradGraph(k, x, g0(gs), c.Int("dim", 0))}, k.err
		}
		gi, err := tensor.LogCumSumExpBackward(x, y, g0(gs), c.Int("dim", 0))
		return []*T{gi}, err
	}})
	def(&Function{Name: "logsumexp", SaveInputs: true, SaveOutput: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		x, err := c.Input(0)
		if err != nil {
			return nil, err
		}
		out, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		dims, keep, shape := c.Ints("dim"), c.Bool("keepdim"), c.InputShape(0)
		E := e(c)
		ob, err := E.expandReduced(out, shape, dims, keep)
		if err != nil {
			return nil, err
		}
		d, err := E.sub(x, ob)
		if err != nil {
			return nil, err
		}
		if d, err = E.exp(d); err != nil {
			return nil, err
		}
		gb, err := E.expandReduced(g0(gs), shape, dims, keep)
		if err != nil {
			return nil, err
		}
		gi, err := E.mul(gb, d)
		return []*T{gi}, err
	}})
	def(&Function{Name: "softmax", SaveOutput: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		out, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		dim := c.Int("dim", -1)
		E := e(c)
		gy, err := E.mul(g0(gs), out)
		if err != nil {
			return nil, err
		}
		s, err := E.sum(gy, []int{dim}, true)
		if err != nil {
			return nil, err
		}
		t, err := E.mul(out, s)
		if err != nil {
			return nil, err
		}
		gi, err := E.sub(gy, t)
		return []*T{gi}, err
	}})
	def(&Function{Name: "log_softmax", SaveOutput: true, Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		out, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		dim := c.Int("dim", -1)
		E := e(c)
		g := g0(gs)
		if dim < 0 {
			dim += out.Dim()
		}
		if !E.GradEnabled() {
			if gi, ok := tensor.LogSoftmaxBackward(g, out, dim); ok {
				return []*T{gi}, nil
			}
		}
		s, err := E.sum(g, []int{dim}, true)
		if err != nil {
			return nil, err
		}
		p, err := E.exp(out)
		if err != nil {
			return nil, err
		}
		t, err := E.mul(p, s)
		if err != nil {
			return nil, err
		}
		gi, err := E.sub(g, t)
		return []*T{gi}, err
	}})

	// ---- matrix products ----
	for _, name := range []string{"matmul", "mm", "bmm", "dot", "outer"} {
		def(&Function{Name: name, SaveInputs: true, Backward: matmulBackward})
	}
	def(&Function{Name: "trace", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		shape := c.InputShape(0)
		eye, err := tensor.Eye(shape[0], shape[1], c.InputDType(0))
		if err != nil {
			return nil, err
		}
		gi, err := e(c).mul(g0(gs), eye)
		return []*T{gi}, err
	}})
	def(&Function{Name: "diag", Backward: diagBackward, Tangent: func(c *Ctx, us []*T) (*T, error) {
		off, u := c.Int("diagonal", 0), us[0]
		return c.E.Apply("diag", us, Attrs{"diagonal": off}, func() (*T, error) { return tensor.Diag(u, off) })
	}})

	// ---- joining ----
	def(&Function{Name: "cat", Backward: catBackward})
	def(&Function{Name: "stack", Backward: stackBackward})
	def(&Function{Name: "split", Backward: splitBackward})

	// ---- indexing ----
	// index_put (x[idx] = v with advanced indices, no accumulation): the
	// overwritten positions pass no gradient to x; v receives the gradient
	// read back at those positions, summed over broadcasting. Attr
	// "indices" holds the []tensor.Index of the subscript.
	def(&Function{Name: "index_put", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		items, ok := c.Attr("indices").([]tensor.Index)
		if !ok {
			return nil, errorf("internal error: index_put without indices")
		}
		g := g0(gs)
		gSelf := g.Clone()
		z, err := tensor.Zeros([]int{}, g.DType())
		if err != nil {
			return nil, err
		}
		if err := gSelf.IndexPut(items, z); err != nil {
			return nil, err
		}
		gv, err := g.Index(items...)
		if err != nil {
			return nil, err
		}
		if gv, err = c.E.sumTo(gv, c.InputShape(1)); err != nil {
			return nil, err
		}
		gv, err = c.E.toDType(gv.Contiguous(), c.InputDType(1))
		return []*T{gSelf, gv}, err
	}, Tangent: func(c *Ctx, us []*T) (*T, error) {
		// x[idx] = v is linear in (x, v): the tangent writes v's into x's
		items, _ := c.Attr("indices").([]tensor.Index)
		r := us[0].Clone()
		if err := r.IndexPut(items, us[1]); err != nil {
			return nil, err
		}
		return r, nil
	}})

	// ---- in-place only ----
	def(&Function{Name: "zero", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		gi, err := zeroGrad(c, nil)
		return []*T{gi}, err
	}})
	def(&Function{Name: "fill", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		gi, err := zeroGrad(c, nil)
		return []*T{gi}, err
	}})
	def(&Function{Name: "copy", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		gself, err := zeroGrad(c, nil)
		if err != nil {
			return nil, err
		}
		gsrc, err := e(c).sumTo(g0(gs), c.InputShape(1))
		if err != nil {
			return nil, err
		}
		gsrc, err = e(c).toDType(gsrc, c.InputDType(1))
		return []*T{gself, gsrc}, err
	}})
}

// maskWeights returns 1 where win, 0.5 where tie, 0 elsewhere, in dtype dt.
func maskWeights(win, tie *T, dt tensor.DType) (*T, error) {
	w, err := win.To(dt)
	if err != nil {
		return nil, err
	}
	t, err := tie.To(dt)
	if err != nil {
		return nil, err
	}
	half, err := tensor.Mul(t, scalar(0.5))
	if err != nil {
		return nil, err
	}
	return tensor.Add(w, half)
}

// oneHotAlong returns a tensor of shape whose entries are 1 where the
// position along dim equals idx (broadcast over dim), else 0.
func oneHotAlong(idx *T, shape []int, dim int, dt tensor.DType) (*T, error) {
	ar, err := tensor.ArangeInt(0, int64(shape[dim]), 1, tensor.I64)
	if err != nil {
		return nil, err
	}
	vs := make([]int, len(shape))
	for i := range vs {
		vs[i] = 1
	}
	vs[dim] = shape[dim]
	if ar, err = ar.Reshape(vs...); err != nil {
		return nil, err
	}
	eq, err := tensor.Eq(ar, idx)
	if err != nil {
		return nil, err
	}
	return eq.To(dt)
}

func geluBackward(c *Ctx, g *T) (*T, error) {
	x, err := c.Input(0)
	if err != nil {
		return nil, err
	}
	approx := c.String("approximate")
	if recording(c) {
		k := &calc{e: c.E}
		return k.mul(g, geluGradGraph(k, x, approx)), k.err
	}
	vals := x.ToFloat64s()
	d := make([]float64, len(vals))
	for i, v := range vals {
		if approx == "tanh" {
			k := math.Sqrt(2 / math.Pi)
			inner := k * (v + 0.044715*v*v*v)
			th := math.Tanh(inner)
			d[i] = 0.5*(1+th) + 0.5*v*(1-th*th)*k*(1+3*0.044715*v*v)
		} else {
			cdf := 0.5 * (1 + math.Erf(v/math.Sqrt2))
			pdf := math.Exp(-0.5*v*v) / math.Sqrt(2*math.Pi)
			d[i] = cdf + v*pdf
		}
	}
	dt, err := tensor.FromFloat64s(d, x.Shape(), x.DType())
	if err != nil {
		return nil, err
	}
	return c.E.mul(g, dt)
}

// geometryBackward is the gradient of any view op: the output gradient is
// scattered into a zero tensor shaped like the input through the storage
// positions the view and its input share, accumulating where the view
// reads one element several times (expand, overlapping as_strided). When
// the input itself overlaps (a slice of an expanded tensor), each storage
// position's sum is split evenly among the input elements that alias it,
// as ATen's as_strided_backward divides by the input geometry's count;
// the backward of the view that made the overlap (expand's sum, unfold's
// fold) adds the shares back, so no gradient is counted twice.
func geometryBackward(c *Ctx, gs []*T) ([]*T, error) {
	in, ok := c.Attr("_in_geo").(viewGeo)
	out, ok2 := c.Attr("_out_geo").(viewGeo)
	if !ok || !ok2 {
		return nil, errorf("internal error: view geometry missing for %s", c.node.name)
	}
	g := g0(gs)
	lo, hi := in.span()
	if l2, h2 := out.span(); l2 < lo || h2 > hi {
		lo, hi = min(lo, l2), max(hi, h2)
	}
	acc := make([]float64, hi-lo+1)
	gv := g.ToFloat64s()
	i := 0
	out.offsets(func(off int) {
		acc[off-lo] += gv[i]
		i++
	})
	count := make([]int32, len(acc))
	overlap := false
	in.offsets(func(off int) {
		count[off-lo]++
		overlap = overlap || count[off-lo] > 1
	})
	res := make([]float64, 0, prodInts(in.shape))
	in.offsets(func(off int) {
		v := acc[off-lo]
		if overlap {
			v /= float64(count[off-lo])
		}
		res = append(res, v)
	})
	gi, err := tensor.FromFloat64s(res, in.shape, g.DType())
	return []*T{gi}, err
}

type viewGeo struct {
	shape, strides []int
	offset         int
}

func geoOf(t *T) viewGeo {
	return viewGeo{append([]int(nil), t.Shape()...), append([]int(nil), t.Strides()...), t.StorageOffset()}
}

func (v viewGeo) span() (lo, hi int) {
	lo, hi = v.offset, v.offset
	for i, s := range v.shape {
		if s == 0 {
			return v.offset, v.offset
		}
		hi += (s - 1) * v.strides[i]
	}
	return lo, hi
}

func (v viewGeo) offsets(fn func(int)) {
	n := prodInts(v.shape)
	if n == 0 {
		return
	}
	idx := make([]int, len(v.shape))
	off := v.offset
	for k := 0; k < n; k++ {
		fn(off)
		for d := len(v.shape) - 1; d >= 0; d-- {
			idx[d]++
			off += v.strides[d]
			if idx[d] < v.shape[d] {
				break
			}
			off -= idx[d] * v.strides[d]
			idx[d] = 0
		}
	}
}

func prodInts(xs []int) int {
	n := 1
	for _, x := range xs {
		n *= x
	}
	return n
}

func prodBackward(c *Ctx, gs []*T) ([]*T, error) {
	x, err := c.Input(0)
	if err != nil {
		return nil, err
	}
	out, err := c.Output(0)
	if err != nil {
		return nil, err
	}
	shape := c.InputShape(0)
	var dims []int
	if d, ok := c.Attr("dim").(int); ok {
		dims = []int{d}
	}
	keep := c.Bool("keepdim")
	E := c.E
	// d prod / d x_i = prod_{j != i} x_j. Computed as out / x where x != 0;
	// where x has zeros, by the exclusive product directly.
	gb, err := E.expandReduced(g0(gs), shape, dims, keep)
	if err != nil {
		return nil, err
	}
	ob, err := E.expandReduced(out, shape, dims, keep)
	if err != nil {
		return nil, err
	}
	hasZero := false
	for _, v := range x.ToFloat64s() {
		if v == 0 {
			hasZero = true
			break
		}
	}
	if !hasZero {
		q, err := E.div(ob, x)
		if err != nil {
			return nil, err
		}
		gi, err := E.mul(gb, q)
		return []*T{gi}, err
	}
	// Exclusive products by brute force over each reduced group.
	xc := x.Contiguous()
	vals := xc.ToFloat64s()
	excl := make([]float64, len(vals))
	if dims == nil {
		for i := range vals {
			p := 1.0
			for j, v := range vals {
				if j != i {
					p *= v
				}
			}
			excl[i] = p
		}
	} else {
		d := dims[0]
		inner := 1
		for _, s := range shape[d+1:] {
			inner *= s
		}
		n := shape[d]
		outer := len(vals) / max(1, n*inner)
		for o := 0; o < outer; o++ {
			for in := 0; in < inner; in++ {
				for i := 0; i < n; i++ {
					p := 1.0
					for j := 0; j < n; j++ {
						if j != i {
							p *= vals[(o*n+j)*inner+in]
						}
					}
					excl[(o*n+i)*inner+in] = p
				}
			}
		}
	}
	et, err := tensor.FromFloat64s(excl, shape, x.DType())
	if err != nil {
		return nil, err
	}
	gi, err := E.mul(gb, et)
	return []*T{gi}, err
}

func varStdBackward(c *Ctx, g *T, isStd bool) ([]*T, error) {
	x, err := c.Input(0)
	if err != nil {
		return nil, err
	}
	dims, keep, shape := c.Ints("dim"), c.Bool("keepdim"), c.InputShape(0)
	corr := c.Float("correction", 1)
	n := float64(reducedCount(shape, dims))
	E := c.E
	mean, err := E.Apply("mean", []*T{x}, Attrs{"dim": dims, "keepdim": true}, func() (*T, error) {
		return tensor.Mean(x, dims, true)
	})
	if err != nil {
		return nil, err
	}
	d, err := E.sub(x, mean)
	if err != nil {
		return nil, err
	}
	// var: g * 2 (x - mean) / (N - correction)
	gb, err := E.expandReduced(g, shape, dims, keep)
	if err != nil {
		return nil, err
	}
	scale := 2 / math.Max(n-corr, 0)
	if isStd {
		// std = sqrt(var): g / (2 std) * dvar
		out, err := c.Output(0)
		if err != nil {
			return nil, err
		}
		ob, err := E.expandReduced(out, shape, dims, keep)
		if err != nil {
			return nil, err
		}
		if gb, err = E.div(gb, ob); err != nil {
			return nil, err
		}
		// PyTorch's std_backward: (g / (2 std)).masked_fill_(std == 0, 0),
		// so a constant slice gets 0, not NaN
		zero, err := tensor.Eq(ob, scalar(0))
		if err != nil {
			return nil, err
		}
		if gb, err = E.where(zero, scalar(0), gb); err != nil {
			return nil, err
		}
		scale /= 2
	}
	t, err := E.mulScalar(d, scale)
	if err != nil {
		return nil, err
	}
	gi, err := E.mul(gb, t)
	return []*T{gi}, err
}

func normBackward(c *Ctx, gs []*T) ([]*T, error) {
	x, err := c.Input(0)
	if err != nil {
		return nil, err
	}
	out, err := c.Output(0)
	if err != nil {
		return nil, err
	}
	p := c.Float("p", 2)
	dims, keep, shape := c.Ints("dim"), c.Bool("keepdim"), c.InputShape(0)
	E := c.E
	gb, err := E.expandReduced(g0(gs), shape, dims, keep)
	if err != nil {
		return nil, err
	}
	ob, err := E.expandReduced(out, shape, dims, keep)
	if err != nil {
		return nil, err
	}
	var d *T
	switch {
	case p == 0:
		return []*T{mustZeros(shape, x.DType())}, nil
	case p == 1:
		d, err = tensor.Sign(x)
	case p == 2:
		// x / norm, 0 where norm == 0
		d, err = E.div(x, ob)
		if err == nil {
			nz, err2 := tensor.Eq(ob, scalar(0))
			if err2 != nil {
				return nil, err2
			}
			z, _ := tensor.Zeros([]int{}, x.DType())
			d, err = E.where(nz, z, d)
		}
	case math.IsInf(p, 0):
		// sign(x) where |x| == norm, shared evenly among ties
		ax, err2 := tensor.Abs(x)
		if err2 != nil {
			return nil, err2
		}
		m, err2 := tensor.Eq(ax, ob)
		if err2 != nil {
			return nil, err2
		}
		mf, err2 := m.To(x.DType())
		if err2 != nil {
			return nil, err2
		}
		cnt, err2 := tensor.Sum(mf, dims, true)
		if err2 != nil {
			return nil, err2
		}
		s, err2 := tensor.Sign(x)
		if err2 != nil {
			return nil, err2
		}
		if mf, err2 = tensor.Mul(mf, s); err2 != nil {
			return nil, err2
		}
		d, err = tensor.Div(mf, cnt)
	default:
		if recording(c) {
			k := &calc{e: E}
			d = normGradGraph(k, x, ob, p)
			err = k.err
			break
		}
		d, err = normBackwardP(x, ob, p)
	}
	if err != nil {
		return nil, err
	}
	gi, err := E.mul(gb, d)
	return []*T{gi}, err
}

// normBackwardP is PyTorch's norm_backward for p other than 0, 1, 2 and
// inf, without the grad factor: sgn(x) |x|^(p-1) (0 where x == 0) times
// norm^(1-p) for p < 1; sgn(x) |x|^(p-1) / norm^(p-1) for 1 < p < 2 and
// x |x|^(p-2) / norm^(p-1) above, 0 where the norm is 0.
func normBackwardP(x, norm *T, p float64) (*T, error) {
	ax, err := tensor.Abs(x)
	if err != nil {
		return nil, err
	}
	var num *T
	if p < 2 {
		pw, err := tensor.Pow(ax, scalar(p-1))
		if err != nil {
			return nil, err
		}
		if p < 1 {
			x0, err := tensor.Eq(x, scalar(0))
			if err != nil {
				return nil, err
			}
			if pw, err = tensor.Where(x0, scalar(0), pw); err != nil {
				return nil, err
			}
		}
		sg, err := tensor.Sign(x)
		if err != nil {
			return nil, err
		}
		if num, err = tensor.Mul(sg, pw); err != nil {
			return nil, err
		}
	} else {
		pw, err := tensor.Pow(ax, scalar(p-2))
		if err != nil {
			return nil, err
		}
		if num, err = tensor.Mul(x, pw); err != nil {
			return nil, err
		}
	}
	if p < 1 {
		f, err := tensor.Pow(norm, scalar(1-p))
		if err != nil {
			return nil, err
		}
		return tensor.Mul(num, f)
	}
	den, err := tensor.Pow(norm, scalar(p-1))
	if err != nil {
		return nil, err
	}
	d, err := tensor.Div(num, den)
	if err != nil {
		return nil, err
	}
	n0, err := tensor.Eq(norm, scalar(0))
	if err != nil {
		return nil, err
	}
	return tensor.Where(n0, scalar(0), d)
}

func mustZeros(shape []int, dt tensor.DType) *T {
	z, _ := tensor.Zeros(shape, dt)
	return z
}

// matmulBackward covers matmul, mm, bmm, dot and outer: vectors are
// promoted to matrices as matmul does, and broadcast batch dims are summed.
func matmulBackward(c *Ctx, gs []*T) ([]*T, error) {
	// Each operand is read (and its version checked) only for the other's
	// gradient, as PyTorch saves it only then.
	var a, b *T
	var err error
	if c.NeedsGrad(1) {
		if a, err = c.Input(0); err != nil {
			return nil, err
		}
	}
	if c.NeedsGrad(0) {
		if b, err = c.Input(1); err != nil {
			return nil, err
		}
	}
	g := g0(gs)
	E := c.E
	name := c.node.fn.Name
	var ga, gb *T
	if name == "outer" {
		// out[i,j] = a[i] b[j]
		if b != nil {
			if b, err = E.unsqueeze(b, 0); err != nil {
				return nil, err
			}
			if ga, err = E.mul(g, b); err != nil {
				return nil, err
			}
			if ga, err = E.sum(ga, []int{1}, false); err != nil {
				return nil, err
			}
		}
		if a != nil {
			if a, err = E.unsqueeze(a, 1); err != nil {
				return nil, err
			}
			if gb, err = E.mul(g, a); err != nil {
				return nil, err
			}
			gb, err = E.sum(gb, []int{0}, false)
		}
		return []*T{ga, gb}, err
	}
	ash, bsh := c.InputShape(0), c.InputShape(1)
	if len(ash) == 1 && len(bsh) == 1 {
		if b != nil {
			if ga, err = E.mul(g, b); err != nil {
				return nil, err
			}
		}
		if a != nil {
			gb, err = E.mul(g, a)
		}
		return []*T{ga, gb}, err
	}
	g2 := g
	a2sh, b2sh := ash, bsh // the operands as matrices
	if len(ash) == 1 {
		a2sh = []int{1, ash[0]}
		if g2, err = E.unsqueeze(g2, g2.Dim()-1); err != nil {
			return nil, err
		}
	}
	if len(bsh) == 1 {
		b2sh = []int{bsh[0], 1}
		if g2, err = E.unsqueeze(g2, g2.Dim()); err != nil {
			return nil, err
		}
	}
	if c.NeedsGrad(0) {
		b2 := b
		if len(bsh) == 1 {
			if b2, err = E.unsqueeze(b, 1); err != nil {
				return nil, err
			}
		}
		bt, err := E.transpose(b2, -2, -1)
		if err != nil {
			return nil, err
		}
		if ga, err = E.matmul(g2, bt); err != nil {
			return nil, err
		}
		if ga, err = E.sumTo(ga, a2sh); err != nil {
			return nil, err
		}
		if ga, err = E.reshape(ga, ash); err != nil {
			return nil, err
		}
	}
	if c.NeedsGrad(1) {
		a2 := a
		if len(ash) == 1 {
			if a2, err = E.unsqueeze(a, 0); err != nil {
				return nil, err
			}
		}
		at, err := E.transpose(a2, -2, -1)
		if err != nil {
			return nil, err
		}
		if gb, err = E.matmul(at, g2); err != nil {
			return nil, err
		}
		if gb, err = E.sumTo(gb, b2sh); err != nil {
			return nil, err
		}
		if gb, err = E.reshape(gb, bsh); err != nil {
			return nil, err
		}
	}
	return []*T{ga, gb}, nil
}

func diagBackward(c *Ctx, gs []*T) ([]*T, error) {
	g := g0(gs)
	off := c.Int("diagonal", 0)
	shape := c.InputShape(0)
	if len(shape) == 1 {
		// input vector -> output matrix: take the diagonal back
		d, err := g.Diagonal(off, 0, 1)
		if err != nil {
			return nil, err
		}
		return []*T{d.Contiguous()}, nil
	}
	z, err := tensor.Zeros(shape, g.DType())
	if err != nil {
		return nil, err
	}
	d, err := z.Diagonal(off, 0, 1)
	if err != nil {
		return nil, err
	}
	if err := d.CopyInplace(g); err != nil {
		return nil, err
	}
	return []*T{z}, nil
}

func catBackward(c *Ctx, gs []*T) ([]*T, error) {
	g := g0(gs)
	dim := c.Int("dim", 0)
	out := make([]*T, c.node.nIn)
	start := 0
	for i := range out {
		sh := c.InputShape(i)
		if len(sh) == 1 && sh[0] == 0 && g.Dim() != 1 {
			continue // PyTorch skips legacy empty tensors
		}
		n := sh[dim]
		v, err := c.E.Apply("narrow", []*T{g}, Attrs{"dim": dim, "start": start, "length": n}, func() (*T, error) {
			return g.Narrow(dim, start, n)
		})
		if err != nil {
			return nil, err
		}
		out[i] = v
		start += n
	}
	return out, nil
}

func stackBackward(c *Ctx, gs []*T) ([]*T, error) {
	g := g0(gs)
	dim := c.Int("dim", 0)
	out := make([]*T, c.node.nIn)
	for i := range out {
		idx := i
		v, err := c.E.Apply("select", []*T{g}, Attrs{"dim": dim, "index": idx}, func() (*T, error) {
			return g.Select(dim, idx)
		})
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func splitBackward(c *Ctx, gs []*T) ([]*T, error) {
	dim := c.Int("dim", 0)
	g, err := c.E.Apply("cat", gs, Attrs{"dim": dim}, func() (*T, error) { return tensor.Cat(gs, dim) })
	return []*T{g}, err
}

// maskedFillBackward is masked_fill's backward (inputs x, mask, and with
// value the 0-d value tensor): x gets the gradient with the filled
// positions zeroed, the value the sum of the gradient at them.
func maskedFillBackward(c *Ctx, gs []*T, value bool) ([]*T, error) {
	g := g0(gs)
	mask, err := c.Input(1)
	if err != nil {
		return nil, err
	}
	z, err := tensor.Zeros([]int{}, g.DType())
	if err != nil {
		return nil, err
	}
	var gi, gv *T
	if c.NeedsGrad(0) {
		if gi, err = c.E.where(mask, z, g); err != nil {
			return nil, err
		}
		if gi, err = c.E.sumTo(gi, c.InputShape(0)); err != nil {
			return nil, err
		}
	}
	if !value {
		return []*T{gi, nil}, nil
	}
	if c.NeedsGrad(2) {
		if gv, err = c.E.where(mask, g, z); err != nil {
			return nil, err
		}
		if gv, err = c.E.sum(gv, nil, false); err != nil {
			return nil, err
		}
		if gv, err = c.E.toDType(gv, c.InputDType(2)); err != nil {
			return nil, err
		}
	}
	return []*T{gi, nil, gv}, nil
}
