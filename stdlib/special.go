package stdlib

import (
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// The special module (torch.special) and polygamma / erfc. Most members
// are other names for existing ops, forwarded at call time; ndtr, entr,
// zeta and multigammaln are new (kernels tensor.Ndtr, Entr, Zeta;
// derivatives in tensor/autograd/derivatives_special.go).
var specialMoreAdded = addSpecialMore()

func addSpecialMore() bool {
	unaryFns["erfc"] = tensor.Erfc
	inplaceUnaryNames = append(inplaceUnaryNames, "erfc")
	return true
}

// specialAliases maps special.<name> to the global op it forwards to.
var specialAliases = map[string]string{
	"expit": "sigmoid", "logit": "logit", "erf": "erf", "erfc": "erfc", "erfinv": "erfinv",
	"gammaln": "lgamma", "digamma": "digamma", "psi": "digamma", "polygamma": "polygamma",
	"xlogy": "xlogy", "sinc": "sinc", "round": "round", "log1p": "log1p", "expm1": "expm1",
	"exp2": "exp2", "softmax": "softmax", "log_softmax": "log_softmax", "logsumexp": "logsumexp",
}

func init() {
	defMethod("polygamma", "polygamma(n): the n-th derivative of digamma (n >= 0; 0 is digamma). grad_fn PolygammaBackward0.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var n int
		if err := runtime.UnpackArgs("polygamma", args, kwargs, "n", &n); err != nil {
			return nil, err
		}
		return x.result(polygammaOp(engineOf(th), n, x.t))
	})
	defGlobal("polygamma", "polygamma(n, input): the n-th derivative of digamma, elementwise (n >= 0; integer and bool inputs give the default float dtype).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var n int
		var x tensorArg
		if err := runtime.UnpackArgs("polygamma", args, kwargs, "n", &n, "input", &x); err != nil {
			return nil, err
		}
		r, err := polygammaOp(engineOf(th), n, x.t)
		return tensorResult(th, r, err)
	})

	members := map[string]runtime.Value{}
	for name, target := range specialAliases {
		target := target
		members[name] = moduleFunc("special", name, "special."+name+": the same as "+target+".", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			return callGlobal(th, target, args, kwargs)
		})
	}
	for _, u := range []struct {
		name, op, doc string
		f             func(*T) (*T, error)
	}{
		{"ndtr", "special_ndtr", "ndtr(input): the standard normal CDF (1 + erf(x / sqrt 2)) / 2. grad_fn MulBackward1 (PyTorch differentiates the composite).", tensor.Ndtr},
		{"entr", "special_entr", "entr(input): -x * log(x) for x > 0, 0 at 0, -inf below 0. grad_fn SpecialEntrBackward0.", tensor.Entr},
	} {
		u := u
		members[u.name] = moduleFunc("special", u.name, u.doc, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var x tensorArg
			if err := runtime.UnpackArgs("special."+u.name, args, kwargs, "input", &x); err != nil {
				return nil, err
			}
			e := engineOf(th)
			r, err := e.Apply(u.op, []*T{x.t}, nil, func() (*T, error) { return u.f(x.t) })
			if err == nil && u.name == "ndtr" && r.GradFn() != nil {
				// PyTorch 1.13 differentiates ndtr as its composite (1 + erf(x / sqrt 2)) * 0.5
				autograd.SetGradFnName(r, "MulBackward1")
			}
			return tensorResult(th, r, err)
		})
	}
	members["zeta"] = moduleFunc("special", "zeta", "zeta(input, other): the Hurwitz zeta function sum over k >= 0 of (k + other)^-input, broadcast (either may be a number). Differentiable in other, -input * zeta(input + 1, other) (grad_fn SpecialZetaBackward0); the derivative in input is a NotImplementedError, as PyTorch's.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x, q operandArg
		if err := runtime.UnpackArgs("special.zeta", args, kwargs, "input", &x, "other", &q); err != nil {
			return nil, err
		}
		a, c := castWrapped(x.t, q.t)
		r, err := zetaOp(engineOf(th), a, c)
		return tensorResult(th, r, err)
	})
	members["multigammaln"] = moduleFunc("special", "multigammaln", "multigammaln(input, p): the log of the multivariate gamma function of dimension p, sum over i < p of lgamma(x - i/2) + p(p-1)/4 log(pi) (defined for x > (p-1)/2; not checked, as PyTorch).", specialMultigammaln)
	registerModule("special", "torch.special: special functions (erf family, gamma family, ndtr, entr, zeta, xlogy, softmax, ...).", members)
}

func polygammaOp(e *Engine, n int, x *T) (*T, error) {
	if n < 0 {
		return nil, runtime.Errorf("RuntimeError", "polygamma(n, x) does not support negative n.")
	}
	return e.Apply("polygamma", []*T{x}, autograd.Attrs{"n": n}, func() (*T, error) { return tensor.Polygamma(n, x) })
}

// specialMultigammaln is ATen's mvlgamma: (x.unsqueeze(-1) + arange(-p/2
// + 1/2, 1/2, 1/2)).lgamma().sum(-1) + p(p-1)/4 log(pi), composed of
// recorded ops. As in PyTorch 1.13 the domain x > (p-1)/2 is not checked
// (lgamma's poles give inf).
func specialMultigammaln(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var p int
	if err := runtime.UnpackArgs("special.multigammaln", args, kwargs, "input", &x, "p", &p); err != nil {
		return nil, err
	}
	if p < 1 {
		return nil, runtime.Errorf("RuntimeError", "p has to be greater than or equal to 1")
	}
	e := engineOf(th)
	xt := x.t
	if !xt.DType().IsFloat() { // integer and bool inputs: lgamma's default float dtype
		var err error
		if xt, err = toOp(e, xt, tensor.DefaultFloat); err != nil {
			return nil, err
		}
	}
	offs := make([]float64, p)
	for i := range offs {
		offs[i] = -float64(p)*0.5 + 0.5 + 0.5*float64(i)
	}
	ar, err := tensor.FromFloat64s(offs, []int{p}, xt.DType())
	if err != nil {
		return nil, err
	}
	u, err := viewOp(e, xt, append(append([]int(nil), xt.Shape()...), 1))
	if err != nil {
		return nil, err
	}
	s, err := applyBinary(e, "add", tensor.Add, u, ar)
	if err != nil {
		return nil, err
	}
	if s, err = unaryOp(e, "lgamma", s); err != nil {
		return nil, err
	}
	if s, err = sumOp(e, s, []int{s.Dim() - 1}, false); err != nil {
		return nil, err
	}
	r, err := applyBinary(e, "add", tensor.Add, s, scalarOf(float64(p*(p-1))*math.Log(math.Pi)/4))
	return tensorResult(th, r, err)
}

// zetaOp is the Hurwitz zeta(a, q), recorded as SpecialZetaBackward0 with
// PyTorch 1.13's formulas: d/dq = -a * zeta(a + 1, q); d/da is not
// implemented (a NotImplementedError when a requires grad).
func zetaOp(e *Engine, a, q *T) (*T, error) {
	qShape := q.Shape()
	backward := func(g *T) ([]*T, error) {
		if a.RequiresGrad() {
			return nil, runtime.Errorf("NotImplementedError", "the derivative for 'zeta' is not implemented.")
		}
		a1, err := tensor.Add(a, tensor.ScalarFloat(1))
		if err != nil {
			return nil, err
		}
		if e.GradEnabled() {
			// create_graph: -a * zeta(a + 1, q) * g in recorded ops
			z, err := zetaOp(e, a1, q)
			if err == nil {
				z, err = applyBinary(e, "mul", tensor.Mul, z, a)
			}
			if err == nil {
				z, err = applyBinary(e, "mul", tensor.Mul, z, g)
			}
			if err == nil {
				z, err = unaryOp(e, "neg", z)
			}
			if err != nil {
				return nil, err
			}
			if !sameShape(z.Shape(), qShape) {
				return nil, runtime.Errorf("NotImplementedError", "the second derivative of zeta with a broadcast other is not implemented")
			}
			return []*T{nil, z}, nil
		}
		z, err := tensor.Zeta(a1, q)
		if err != nil {
			return nil, err
		}
		if z, err = tensor.Mul(z, a); err != nil {
			return nil, err
		}
		if z, err = tensor.Mul(z, g); err != nil {
			return nil, err
		}
		if z, err = tensor.Neg(z); err != nil {
			return nil, err
		}
		gq, err := sumToShape(z, qShape)
		if err == nil && gq.DType() != q.DType() {
			gq, err = gq.To(q.DType())
		}
		return []*T{nil, gq}, err
	}
	return e.ApplyCustom("SpecialZetaBackward", []*T{a, q}, func() (*T, error) { return tensor.Zeta(a, q) }, backward)
}
