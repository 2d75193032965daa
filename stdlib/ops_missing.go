package stdlib

import (
	"fmt"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// PyTorch functions that were missing: gcd, lcm, ldexp, nextafter (and
// their in-place forms), the products addmv, addr, baddbmm with the
// in-place addmm_, addmv_, addr_, baddbmm_, and index_copy/index_copy_.
// Names, argument names, promotion and error messages follow PyTorch 1.13
// (testdata/gen_missing_fns.py records the goldens).
//
// Autograd: gcd and lcm are integer-only (never recorded); nextafter
// records NextafterBackward0, whose backward fails as PyTorch's; ldexp is
// input * 2**other (recorded pow and mul, MulBackward0); the products are
// composed from recorded matmul/outer/bmm, mul and add and their node is
// renamed to PyTorch's (AddmvBackward0, ...); index_copy records a
// backward giving self the gradient with the copied positions zeroed and
// source the gradient read at them (IndexCopyBackward0).

func init() {
	for _, name := range []string{"gcd", "lcm", "nextafter"} {
		name := name
		fn := map[string]binFn{"gcd": tensor.Gcd, "lcm": tensor.Lcm, "nextafter": tensor.Nextafter}[name]
		doc := map[string]string{
			"gcd":       "gcd(other): the elementwise greatest common divisor (integer dtypes; other a tensor, broadcast and promoted).",
			"lcm":       "lcm(other): the elementwise least common multiple (integer dtypes; other a tensor, broadcast and promoted).",
			"nextafter": "nextafter(other): the next representable value after self towards other (f32, f64, bf16; other a tensor).",
		}[name]
		op := func(e *Engine, self *T, mname string, args []runtime.Value, kwargs []runtime.Kwarg) (*T, error) {
			o, err := tensorOther(mname, args, kwargs)
			if err != nil {
				return nil, err
			}
			if name == "nextafter" {
				return applyBinary(e, "nextafter", fn, self, o.t)
			}
			return fn(self, o.t)
		}
		defMethodFunc(name, doc, func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			return x.result(op(engineOf(th), x.t, name, args, kwargs))
		})
		node := ""
		if name == "nextafter" {
			node = "NextafterBackward0"
		}
		inplaceMethod(name+"_", name+"_(other): "+name+" in place; returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
			r, err := op(e, self, name+"_", args, kwargs)
			return r, node, err
		})
	}

	ldexp := func(e *Engine, self *T, name string, args []runtime.Value, kwargs []runtime.Kwarg) (*T, error) {
		o, err := tensorOther(name, args, kwargs)
		if err != nil {
			return nil, err
		}
		// ATen: at::mul(self, at::pow(2.0, other))
		p, err := applyBinary(e, "pow", tensor.Pow, tensor.ScalarFloat(2), o.t)
		if err != nil {
			return nil, err
		}
		return applyBinary(e, "mul", tensor.Mul, self, p)
	}
	defMethodFunc("ldexp", "ldexp(other): self * 2**other (other a tensor; an integer self and other give the default float dtype).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return x.result(ldexp(engineOf(th), x.t, "ldexp", args, kwargs))
	})
	inplaceMethod("ldexp_", "ldexp_(other): ldexp in place (self *= 2**other); returns self. Not differentiable (PyTorch 1.13 runs it as mul's out= form).", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		if e.GradEnabled() {
			for _, v := range append(append([]runtime.Value{&TensorValue{t: self}}, args...), kwargValues(kwargs)...) {
				if tv, ok := v.(*TensorValue); ok && tv.t.RequiresGrad() {
					return nil, "", runtime.Errorf("RuntimeError", "mul(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.")
				}
			}
		}
		r, err := ldexp(e, self, "ldexp_", args, kwargs)
		return r, "MulBackward0", err
	})

	// ---- products ----
	type product func(e *Engine, self *T, name string, args []runtime.Value, kwargs []runtime.Kwarg, inplace bool) (*T, error)
	for _, p := range []struct {
		name, node, doc string
		f               product
	}{
		{"addmv", "AddmvBackward0", "addmv(mat, vec, beta=1, alpha=1): beta * self + alpha * (mat @ vec) for a matrix [n, m] and a vector [m]; self has n elements or one (ignored, NaN included, when beta is 0).", addmvOp},
		{"addr", "AddrBackward0", "addr(vec1, vec2, beta=1, alpha=1): beta * self + alpha * outer(vec1, vec2); self broadcasts to [n, m] (ignored when beta is 0); dtypes promote; integer results take integer beta and alpha only.", addrOp},
		{"baddbmm", "BaddbmmBackward0", "baddbmm(batch1, batch2, beta=1, alpha=1): beta * self + alpha * bmm(batch1, batch2) for [b, n, m] and [b, m, p]; self broadcasts to [b, n, p] (ignored when beta is 0).", baddbmmOp},
		{"addmm", "AddmmBackward0", "", addmmInplaceOp},
	} {
		p := p
		if p.doc != "" {
			defMethodFunc(p.name, p.doc, func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
				r, err := p.f(engineOf(th), x.t, p.name, args, kwargs, false)
				return x.result(named(p.node, r, err))
			})
		}
		inplaceMethod(p.name+"_", p.name+"_(...): "+p.name+" in place (self must have the result's shape); returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
			r, err := p.f(e, self, p.name+"_", args, kwargs, true)
			if err == nil && !sameShape(r.Shape(), self.Shape()) {
				err = runtime.Errorf("RuntimeError", "Bad in-place call: input tensor size %s and output tensor size %s should match", shapeText(self.Shape()), shapeText(r.Shape()))
			}
			return r, p.node, err
		})
	}

	// ---- index_copy ----
	defMethodFunc("index_copy", "index_copy(dim, index, source): a copy of self with self[..., index[i], ...] = source[..., i, ...] along dim (index: 1-D or 0-d i64; source of self's dtype and shape apart from dim).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return x.result(indexCopyArgs(engineOf(th), "index_copy", x.t, args, kwargs, false))
	})
	defMethod("index_copy_", "index_copy_(dim, index, source): index_copy in place; returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		e := engineOf(th)
		if err := e.CheckInplace(x.t); err != nil {
			return nil, err
		}
		v, err := inplaceFrom(e, x, func() (*T, error) { return indexCopyArgs(e, "index_copy_", x.t, args, kwargs, true) })
		if err == nil && x.t.Base() == nil && x.t.GradFn() != nil {
			autograd.SetGradFnName(x.t, "IndexCopyBackward0")
		}
		return v, err
	})
}

// betaSelfPlusAlpha returns beta * self + alpha * prod, self ignored when beta is
// 0 (the result then has prod's values in the promoted dtype). For an
// integer result a float beta or alpha is an error when strict (addr),
// else truncated (addmv, baddbmm, as ATen's scalar.to<int64_t>()).
func betaSelfPlusAlpha(e *Engine, name string, self, prod *T, beta, alpha runtime.Value, strict bool) (*T, error) {
	bt, ok1 := operand(beta)
	at, ok2 := operand(alpha)
	if !ok1 || !ok2 {
		return nil, runtime.Errorf("TypeError", "%s(): beta and alpha must be numbers", name)
	}
	rt := tensor.ResultType(self, prod)
	if strict { // addr's check_addr_scalar
		for _, sc := range []struct {
			t    *T
			name string
		}{{bt, "beta"}, {at, "alpha"}} {
			if sc.t.DType() == tensor.Bool && rt != tensor.Bool {
				return nil, runtime.Errorf("RuntimeError", "Boolean %s only supported for Boolean results.", sc.name)
			}
		}
		if rt == tensor.Bool {
			// ATen's bool kernel: (beta && self) || (alpha && vec1 && vec2)
			if at.FlatFloat64(0) == 0 {
				p, err := tensor.Zeros(prod.Shape(), tensor.Bool)
				if err != nil {
					return nil, err
				}
				prod = p
			}
			if bt.FlatFloat64(0) == 0 {
				return prod, nil
			}
			return tensor.LogicalOr(self, prod)
		}
	}
	if !rt.IsFloat() {
		for _, s := range []struct {
			t    **T
			name string
		}{{&bt, "beta"}, {&at, "alpha"}} {
			if (*s.t).DType().IsFloat() {
				if strict {
					return nil, runtime.Errorf("RuntimeError", "For integral input tensors, argument %s must not be a floating point number.", s.name)
				}
				*s.t = tensor.ScalarInt(int64((*s.t).FlatFloat64(0)))
			}
		}
	}
	var err error
	p := prod
	if at.FlatFloat64(0) != 1 {
		if p, err = applyBinary(e, "mul", tensor.Mul, p, at); err != nil {
			return nil, err
		}
	}
	bv := bt.FlatFloat64(0)
	if bv == 0 {
		return toOp(e, p, rt)
	}
	s := self
	if bv != 1 {
		if s, err = applyBinary(e, "mul", tensor.Mul, s, bt); err != nil {
			return nil, err
		}
	}
	return applyBinary(e, "add", tensor.Add, s, p)
}

func productArgs(name string, args []runtime.Value, kwargs []runtime.Kwarg, a, b string) (x, y *T, beta, alpha runtime.Value, err error) {
	var ta, tb tensorArg
	beta, alpha = runtime.MakeInt(1), runtime.MakeInt(1)
	err = runtime.UnpackArgs(name, args, kwargs, a, &ta, b, &tb, "beta?", &beta, "alpha?", &alpha)
	return ta.t, tb.t, beta, alpha, err
}

func scalarTypeMismatch(want, got tensor.DType) error {
	return runtime.Errorf("RuntimeError", "expected scalar type %s but found %s", kernels.TorchName(want), kernels.TorchName(got))
}

func addmvOp(e *Engine, self *T, name string, args []runtime.Value, kwargs []runtime.Kwarg, inplace bool) (*T, error) {
	mat, vec, beta, alpha, err := productArgs(name, args, kwargs, "mat", "vec")
	if err != nil {
		return nil, err
	}
	if mat.Dim() != 2 || vec.Dim() != 1 || self.Dim() > 1 {
		return nil, runtime.Errorf("RuntimeError", "vector + matrix @ vector expected, got %d, %d, %d", self.Dim(), mat.Dim(), vec.Dim())
	}
	ms := mat.Shape()
	if ms[1] != vec.Shape()[0] || ms[0] != self.Numel() && self.Numel() != 1 {
		if self.Dim() == 0 {
			return nil, runtime.Errorf("IndexError", "dimension specified as 0 but tensor has no dimensions")
		}
		return nil, runtime.Errorf("RuntimeError", "size mismatch, got %d, %dx%d,%d", self.Shape()[0], ms[0], ms[1], vec.Shape()[0])
	}
	if mat.DType() != vec.DType() {
		return nil, scalarTypeMismatch(mat.DType(), vec.DType())
	}
	if dt := mat.DType(); dt == tensor.Bool || dt == tensor.F16 {
		return nil, notImplementedFor("addmv_impl_cpu", dt)
	}
	p, err := applyBinary(e, "matmul", tensor.Matmul, mat, vec)
	if err != nil {
		return nil, err
	}
	return betaSelfPlusAlpha(e, name, self, p, beta, alpha, false)
}

func addrOp(e *Engine, self *T, name string, args []runtime.Value, kwargs []runtime.Kwarg, inplace bool) (*T, error) {
	v1, v2, beta, alpha, err := productArgs(name, args, kwargs, "vec1", "vec2")
	if err != nil {
		return nil, err
	}
	for _, v := range []struct {
		t    *T
		name string
	}{{v1, "vec1"}, {v2, "vec2"}} {
		if v.t.Dim() != 1 {
			return nil, runtime.Errorf("RuntimeError", "addr: Expected 1-D argument %s, but got %d-D", v.name, v.t.Dim())
		}
	}
	n, m := v1.Shape()[0], v2.Shape()[0]
	if inplace {
		if !sameShape(self.Shape(), []int{n, m}) {
			return nil, runtime.Errorf("RuntimeError", "size mismatch, input: %s, v1: %s, v2: %s", shapeText(self.Shape()), shapeText(v1.Shape()), shapeText(v2.Shape()))
		}
	} else if _, err := self.Expand(n, m); err != nil {
		return nil, err
	}
	// TensorIterator promotes self, vec1 and vec2 to one dtype
	rt := tensor.ResultType(self, v1, v2)
	if v1, err = toOp(e, v1, rt); err != nil {
		return nil, err
	}
	if v2, err = toOp(e, v2, rt); err != nil {
		return nil, err
	}
	p, err := applyBinary(e, "outer", tensor.Outer, v1, v2)
	if err != nil {
		return nil, err
	}
	return betaSelfPlusAlpha(e, name, self, p, beta, alpha, true)
}

func baddbmmOp(e *Engine, self *T, name string, args []runtime.Value, kwargs []runtime.Kwarg, inplace bool) (*T, error) {
	b1, b2, beta, alpha, err := productArgs(name, args, kwargs, "batch1", "batch2")
	if err != nil {
		return nil, err
	}
	if !inplace {
		// ATen expands self to [batch1.size(0), batch1.size(1), batch2.size(2)] first
		size := func(t *T, d int) (int, error) {
			if _, err := normDim(d, t.Dim()); err != nil {
				return 0, err
			}
			if t.Dim() == 0 {
				return 1, nil
			}
			return t.Shape()[d], nil
		}
		var target [3]int
		for i, sd := range []struct {
			t *T
			d int
		}{{b1, 0}, {b1, 1}, {b2, 2}} {
			if target[i], err = size(sd.t, sd.d); err != nil {
				return nil, err
			}
		}
		if _, err := self.Expand(target[:]...); err != nil {
			return nil, err
		}
	}
	if b1.Dim() != 3 {
		return nil, runtime.Errorf("RuntimeError", "batch1 must be a 3D tensor")
	}
	if b2.Dim() != 3 {
		return nil, runtime.Errorf("RuntimeError", "batch2 must be a 3D tensor")
	}
	s1, s2 := b1.Shape(), b2.Shape()
	if s2[0] != s1[0] || s2[1] != s1[2] {
		return nil, runtime.Errorf("RuntimeError", "Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", s1[0], s1[2], s2[0], s2[1])
	}
	if b1.DType() != b2.DType() {
		return nil, scalarTypeMismatch(b1.DType(), b2.DType())
	}
	if dt := b1.DType(); dt == tensor.Bool || dt == tensor.F16 {
		return nil, notImplementedFor("baddbmm", dt)
	}
	p, err := applyBinary(e, "bmm", tensor.Bmm, b1, b2)
	if err != nil {
		return nil, err
	}
	return betaSelfPlusAlpha(e, name, self, p, beta, alpha, false)
}

// addmmInplaceOp is addmm (methodAddmm) on a tensor, for addmm_.
func addmmInplaceOp(e *Engine, self *T, name string, args []runtime.Value, kwargs []runtime.Kwarg, inplace bool) (*T, error) {
	return addmmOp(e, name, self, args, kwargs)
}

// indexCopyArgs parses index_copy's (dim, index, source), makes ATen's
// checks in its order and applies the copy to x.
func indexCopyArgs(e *Engine, name string, x *T, args []runtime.Value, kwargs []runtime.Kwarg, inplace bool) (*T, error) {
	var dim int
	var index, source tensorArg
	if err := runtime.UnpackArgs(name, args, kwargs, "dim", &dim, "index", &index, "source", &source); err != nil {
		return nil, err
	}
	d, err := normDim(dim, x.Dim())
	if err != nil {
		return nil, err
	}
	src, idx := source.t, index.t
	if inplace {
		for _, o := range []*T{idx, src} {
			if err := tensor.CheckNoOverlap(x, o); err != nil {
				return nil, err
			}
		}
	}
	if idx.Dim() >= 2 {
		return nil, runtime.Errorf("IndexError", "index_copy_(): Index should have dimension 1 or 0 (got %d)", idx.Dim())
	}
	n := idx.Numel()
	if src.Dim() == 0 && n != 1 {
		return nil, runtime.Errorf("IndexError", "index_copy_(): When source is scalar, index should have one element (got %d)", n)
	}
	if src.Dim() != x.Dim() && src.Dim() != 0 && x.Dim() != 0 {
		return nil, runtime.Errorf("IndexError", "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source dimensionality (%d), destination dimensionality (%d)", src.Dim(), x.Dim())
	}
	if idx.DType() != tensor.I64 {
		return nil, runtime.Errorf("RuntimeError", "index_copy_(): Expected a long tensor for index, but got %s", kernels.TorchName(idx.DType()))
	}
	if src.DType() != x.DType() {
		return nil, runtime.Errorf("RuntimeError", "index_copy_(): self and source expected to have the same dtype, but got (self) %s and (source) %s", kernels.TorchName(x.DType()), kernels.TorchName(src.DType()))
	}
	sliced := func(s []int) []int {
		if len(s) == 0 {
			return nil
		}
		return append(append([]int(nil), s[:d]...), s[d+1:]...)
	}
	xsl, ssl := sliced(x.Shape()), sliced(src.Shape())
	if !sameShape(xsl, ssl) {
		return nil, runtime.Errorf("RuntimeError", "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: %s at dimension %d and source slice shape: %s at dimension 0.", spaced(xsl), d, spaced(ssl))
	}
	if src.Dim() != 0 && n != src.Shape()[d] {
		return nil, runtime.Errorf("IndexError", "index_copy_(): Number of indices (%d) should be equal to source.size(dim) (%d)", n, src.Shape()[d])
	}
	xs := x.Shape()
	if len(xs) == 0 {
		xs = []int{1}
	}
	iv := idx.ToInt64s()
	for _, v := range iv {
		if v < 0 || v >= int64(xs[d]) {
			return nil, runtime.Errorf("IndexError", "index_copy_(): index %d is out of bounds for dimension %d with size %d", v, d, xs[d])
		}
	}
	// source's shape with dim d (0-d source: one element along d)
	ss := src.Shape()
	if len(ss) == 0 || x.Dim() == 0 {
		ss = append([]int(nil), xs...)
		ss[d] = 1
	}
	dpos, spos := indexedPositions(xs, ss, d, iv, src.Numel())
	return scatterOp(e, "IndexCopyBackward", x, src, 0, dpos, spos, false, 1)
}

// spaced prints sizes as ATen prints a std::vector: "2 4" ("" when empty).
func spaced(s []int) string {
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, " ")
}

func kwargValues(kwargs []runtime.Kwarg) []runtime.Value {
	vs := make([]runtime.Value, len(kwargs))
	for i, kw := range kwargs {
		vs[i] = kw.Value
	}
	return vs
}

// tensorOther reads the tensor argument other (PyTorch's TypeError for a
// number, worded as for the function form, or the in-place method).
func tensorOther(name string, args []runtime.Value, kwargs []runtime.Kwarg) (tensorArg, error) {
	var v runtime.Value
	if err := runtime.UnpackArgs(name, args, kwargs, "other", &v); err != nil {
		return tensorArg{}, err
	}
	tv, ok := v.(*TensorValue)
	if !ok {
		pos := 2
		if strings.HasSuffix(name, "_") { // a method only: other comes first
			pos = 1
		}
		return tensorArg{}, runtime.Errorf("TypeError", "%s(): argument 'other' (position %d) must be Tensor, not %s", name, pos, v.Type())
	}
	return tensorArg{tv.t}, nil
}
