package stdlib

import (
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// combinations, frexp, renorm, addbmm, slice_scatter, select_scatter,
// diagonal_scatter, index_put and gradient as PyTorch 1.13, composed of
// recorded ops (differentiable as PyTorch's), result nodes renamed to
// PyTorch's (StackBackward0, FrexpBackward0, RenormBackward0,
// AddbmmBackward0, SliceScatterBackward0, SelectScatterBackward0,
// DiagonalScatterBackward0, IndexPutBackward0, CatBackward0).

func init() {
	defMethodFunc("combinations", "combinations(r=2, with_replacement=false): the length-r combinations of the elements of the 1-D self, [C, r] in lexicographic order of positions (itertools.combinations, or combinations_with_replacement); r=0 gives an empty 1-D tensor. grad_fn StackBackward0.", methodCombinations)
	defMethodFunc("frexp", "frexp() -> (mantissa, exponent): self = mantissa * 2**exponent with |mantissa| in [0.5, 1) (0 for 0; inf and nan kept with exponent 0); mantissa in self's (float) dtype, exponent i32. grad_fn FrexpBackward0 (grad / 2**exponent).", methodFrexp)
	defMethodFunc("renorm", "renorm(p, dim, maxnorm): each slice of self along dim whose p-norm exceeds maxnorm scaled to norm maxnorm (by maxnorm / (norm + 1e-7)); others unchanged. self needs 2 or more dims. grad_fn RenormBackward0.", methodRenorm)
	inplaceOfMethod("renorm_", "renorm", "RenormBackward0", "renorm_(p, dim, maxnorm): renorm in place; returns self.")
	defMethodFunc("addbmm", "addbmm(batch1, batch2, *, beta=1, alpha=1): beta * self + alpha * sum_b batch1[b] @ batch2[b] (batch1 [B, n, m], batch2 [B, m, p], self broadcastable to [n, p]); beta=0 ignores self (nan included). grad_fn AddbmmBackward0.", methodAddbmm)
	inplaceOfMethod("addbmm_", "addbmm", "AddbmmBackward0", "addbmm_(batch1, batch2, *, beta=1, alpha=1): addbmm in place (self must be [n, p]); returns self.")
	defMethodFunc("slice_scatter", "slice_scatter(src, dim=0, start=none, end=none, step=1): a copy of self with self[start:end:step] along dim replaced by src (of exactly that slice's shape). grad_fn SliceScatterBackward0.", methodScatterInto("slice_scatter"))
	defMethodFunc("select_scatter", "select_scatter(src, dim, index): a copy of self with self.select(dim, index) replaced by src (of exactly that shape). grad_fn SelectScatterBackward0.", methodScatterInto("select_scatter"))
	defMethodFunc("diagonal_scatter", "diagonal_scatter(src, offset=0, dim1=0, dim2=1): a copy of self with self.diagonal(offset, dim1, dim2) replaced by src (of exactly that shape). grad_fn DiagonalScatterBackward0.", methodScatterInto("diagonal_scatter"))
	defMethodFunc("index_put", "index_put(indices, values, accumulate=false): a copy of self with self[indices] = values (indices a tuple of i64, u8 or bool tensors, values broadcast); accumulate=true adds values instead, duplicates summed. values must have self's dtype. grad_fn IndexPutBackward0.", methodIndexPut)
	inplaceOfMethod("index_put_", "index_put", "IndexPutBackward0", "index_put_(indices, values, accumulate=false): index_put in place; returns self.")
	defFunctional("index_put_", "index_put_(input, indices, values, accumulate=false): input.index_put_(indices, values, accumulate); returns input.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return callMethod(th, x, "index_put_", args, kwargs)
	})
	defGlobal("gradient", "gradient(input, *, spacing=1, dim=none, edge_order=1): the estimated derivative of input along each dim of dim (all by default), a tuple of tensors of input's shape: central differences inside, one-sided differences of order edge_order (1 or 2) at the ends. spacing is a number, a list of numbers (one per dim) or a list of 1-D coordinate tensors (one per dim, non-uniform spacing). Integer input gives f32. Differentiable.", builtinGradient)
}

func methodCombinations(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	r := 2
	withRep := false
	if err := runtime.UnpackArgs("combinations", args, kwargs, "r?", &r, "with_replacement?", &withRep); err != nil {
		return nil, err
	}
	if x.t.Dim() != 1 {
		return nil, runtime.Errorf("RuntimeError", "Expect a 1D vector, but got shape %s", fmtInts(x.t.Shape()))
	}
	if r < 0 {
		return nil, runtime.Errorf("RuntimeError", "Expect a non-negative number, but got %d", r)
	}
	if r == 0 {
		z, err := tensor.Zeros([]int{0}, x.t.DType())
		return tensorResult(th, z, err)
	}
	n := x.t.Shape()[0]
	cols := make([][]int64, r)
	pos := make([]int, r)
	var rec func(k, from int)
	rec = func(k, from int) {
		if k == r {
			for j, p := range pos {
				cols[j] = append(cols[j], int64(p))
			}
			return
		}
		for i := from; i < n; i++ {
			pos[k] = i
			if withRep {
				rec(k+1, i)
			} else {
				rec(k+1, i+1)
			}
		}
	}
	rec(0, 0)
	c := &callChain{th: th}
	parts := make([]runtime.Value, r)
	for j := range cols {
		idx, err := tensor.FromInt64s(cols[j], []int{len(cols[j])}, tensor.I64)
		if err != nil {
			return nil, err
		}
		parts[j] = c.m(x, "index_select", iv(0), wrap(x.eng, idx))
	}
	return c.doneNamed(c.g("stack", runtime.NewList(parts), iv(1)), "StackBackward0")
}

func methodFrexp(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	if err := noArgs("frexp", args, kwargs); err != nil {
		return nil, err
	}
	if !x.t.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "torch.frexp() only supports floating-point dtypes")
	}
	vals := x.t.ToFloat64s()
	exps := make([]int64, len(vals))
	// two power-of-two factors, each representable in the dtype even for
	// subnormal or huge inputs, so that both products are exact
	scale := make([]float64, len(vals))
	scale2 := make([]float64, len(vals))
	for i, v := range vals {
		_, e := math.Frexp(v)
		exps[i] = int64(e)
		scale[i] = math.Ldexp(1, -e/2)
		scale2[i] = math.Ldexp(1, -e-(-e/2))
	}
	shape := x.t.Shape()
	E, err := tensor.FromInt64s(exps, shape, tensor.I32)
	if err != nil {
		return nil, err
	}
	// mantissa = self * 2**-exponent: exact, and recorded (its gradient is
	// grad / 2**exponent, PyTorch's FrexpBackward0)
	S, err := tensor.FromFloat64s(scale, shape, x.t.DType())
	if err != nil {
		return nil, err
	}
	S2, err := tensor.FromFloat64s(scale2, shape, x.t.DType())
	if err != nil {
		return nil, err
	}
	c := &callChain{th: th}
	m := c.m(c.m(x, "mul", wrap(x.eng, S)), "mul", wrap(x.eng, S2))
	if c.err != nil {
		return nil, c.err
	}
	mt := m.(*TensorValue).t
	if mt.GradFn() != nil {
		autograd.SetGradFnName(mt, "FrexpBackward0")
	}
	return &runtime.NamedTuple{TypeName: "frexp", Fields: []string{"mantissa", "exponent"}, Tuple: runtime.Tuple{m, NewTensorValue(th, E)}}, nil
}

func methodRenorm(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var p, maxnorm float64
	var dim int
	if err := runtime.UnpackArgs("renorm", args, kwargs, "p", &p, "dim", &dim, "maxnorm", &maxnorm); err != nil {
		return nil, err
	}
	if p <= 0 {
		return nil, runtime.Errorf("RuntimeError", "renorm: non-positive-norm not supported")
	}
	if maxnorm < 0 {
		return nil, runtime.Errorf("RuntimeError", "renorm: expected maxnorm to be >= 0 but got %s", fmtG(maxnorm))
	}
	if x.t.Dim() <= 1 {
		return nil, runtime.Errorf("RuntimeError", "renorm: input needs at least 2 dimensions, got %d dimensions", x.t.Dim())
	}
	d, err := normDim(dim, x.t.Dim())
	if err != nil {
		return nil, err
	}
	if !x.t.DType().IsFloat() {
		return nil, notImplementedFor("renorm_out", x.t.DType())
	}
	var dims []runtime.Value
	for i := 0; i < x.t.Dim(); i++ {
		if i != d {
			dims = append(dims, iv(i))
		}
	}
	c := &callChain{th: th}
	norm := c.mk(x, "norm", []runtime.Value{runtime.Float(p), runtime.NewList(dims)}, []runtime.Kwarg{{Name: "keepdim", Value: runtime.Bool(true)}})
	scaled := c.m(c.m(norm, "add", runtime.Float(1e-7)), "reciprocal")
	scaled = c.m(scaled, "mul", runtime.Float(maxnorm))
	factor := c.g("where", c.m(norm, "gt", runtime.Float(maxnorm)), scaled, runtime.Float(1))
	return c.doneNamed(c.m(x, "mul", factor), "RenormBackward0")
}

func methodAddbmm(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var b1, b2 tensorArg
	var beta, alpha runtime.Value = runtime.Int(1), runtime.Int(1)
	if err := runtime.UnpackArgs("addbmm", args, kwargs, "batch1", &b1, "batch2", &b2, "beta?", &beta, "alpha?", &alpha); err != nil {
		return nil, err
	}
	if b1.t.Dim() != 3 {
		return nil, runtime.Errorf("RuntimeError", "batch1 must be a 3D tensor")
	}
	if b2.t.Dim() != 3 {
		return nil, runtime.Errorf("RuntimeError", "batch2 must be a 3D tensor")
	}
	c := &callChain{th: th}
	s := c.m(c.g("bmm", argAt(args, kwargs, 0, "batch1"), argAt(args, kwargs, 1, "batch2")), "sum", iv(0))
	if !isOne(alpha) {
		s = c.m(s, "mul", alpha)
	}
	var r runtime.Value
	switch {
	case isZero(beta):
		r = c.m(c.m(s, "expand_as", c.g("broadcast_tensors", x, s).(runtime.Tuple)[0]), "clone")
	case isOne(beta):
		r = c.m(x, "add", s)
	default:
		r = c.m(c.m(x, "mul", beta), "add", s)
	}
	return c.doneNamed(r, "AddbmmBackward0")
}

// isOne and isZero report whether a beta/alpha number is exactly 1 or 0.
func isOne(v runtime.Value) bool  { f, ok := numberOf(v); return ok && f == 1 }
func isZero(v runtime.Value) bool { f, ok := numberOf(v); return ok && f == 0 }

func numberOf(v runtime.Value) (float64, bool) {
	switch n := v.(type) {
	case runtime.Int:
		return float64(n), true
	case runtime.Float:
		return float64(n), true
	case runtime.Bool:
		if n {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// methodScatterInto is slice_scatter, select_scatter or diagonal_scatter:
// a clone of self whose view (the slice, selection or diagonal) is
// overwritten by src.
func methodScatterInto(name string) methodFn {
	node := map[string]string{"slice_scatter": "SliceScatterBackward0", "select_scatter": "SelectScatterBackward0", "diagonal_scatter": "DiagonalScatterBackward0"}[name]
	return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var src tensorArg
		c := &callChain{th: th}
		r := c.m(x, "clone")
		if c.err != nil {
			return nil, c.err
		}
		var view runtime.Value
		switch name {
		case "slice_scatter":
			dim := 0
			var start, end, step runtime.Value = runtime.None, runtime.None, runtime.Int(1)
			if err := runtime.UnpackArgs(name, args, kwargs, "src", &src, "dim?", &dim, "start?", &start, "end?", &end, "step?", &step); err != nil {
				return nil, err
			}
			d, err := normDim(dim, x.t.Dim())
			if err != nil {
				return nil, err
			}
			if s, ok := step.(runtime.Int); ok && s <= 0 {
				return nil, runtime.Errorf("RuntimeError", "slice step must be positive")
			}
			key := make(runtime.Tuple, d+1)
			for i := range d {
				key[i] = &runtime.Slice{Start: runtime.None, Stop: runtime.None, Step: runtime.None}
			}
			key[d] = &runtime.Slice{Start: start, Stop: end, Step: step}
			v, err := r.(*TensorValue).Index(key)
			if err != nil {
				return nil, err
			}
			view = v
		case "select_scatter":
			var dim, index int
			if err := runtime.UnpackArgs(name, args, kwargs, "src", &src, "dim", &dim, "index", &index); err != nil {
				return nil, err
			}
			view = c.m(r, "select", iv(dim), iv(index))
		default:
			offset, d1, d2 := 0, 0, 1
			if err := runtime.UnpackArgs(name, args, kwargs, "src", &src, "offset?", &offset, "dim1?", &d1, "dim2?", &d2); err != nil {
				return nil, err
			}
			view = c.m(r, "diagonal", iv(offset), iv(d1), iv(d2))
		}
		if c.err != nil {
			return nil, c.err
		}
		vs := view.(*TensorValue).t.Shape()
		if !equalInts(vs, src.t.Shape()) {
			return nil, runtime.Errorf("RuntimeError", "expected src to have a size equal to the slice of self. src size = %s, slice size = %s", fmtInts(src.t.Shape()), fmtInts(vs))
		}
		c.m(view, "copy_", args0(args, kwargs, "src"))
		return c.doneNamed(r, node)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func methodIndexPut(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var indices runtime.Value
	var values tensorArg
	acc := false
	if err := runtime.UnpackArgs("index_put", args, kwargs, "indices", &indices, "values", &values, "accumulate?", &acc); err != nil {
		return nil, err
	}
	var items []runtime.Value
	switch v := indices.(type) {
	case runtime.Tuple:
		items = v
	case *runtime.List:
		items = v.Elems
	default:
		return nil, runtime.Errorf("TypeError", "index_put(): argument 'indices' must be tuple of Tensors, not %s", indices.Type())
	}
	for _, it := range items {
		t, ok := it.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "index_put(): argument 'indices' must be tuple of Tensors, not %s", it.Type())
		}
		if dt := t.t.DType(); dt != tensor.I64 && dt != tensor.U8 && dt != tensor.Bool {
			return nil, runtime.Errorf("IndexError", "tensors used as indices must be long, byte or bool tensors")
		}
	}
	if values.t.DType() != x.t.DType() {
		return nil, runtime.Errorf("RuntimeError", "Index put requires the source and destination dtypes match, got %s for the destination and %s for the source.", tensor.CastErrorName(x.t.DType()), tensor.CastErrorName(values.t.DType()))
	}
	vals := argAt(args, kwargs, 1, "values")
	c := &callChain{th: th}
	if !acc {
		r := c.m(x, "clone")
		if c.err != nil {
			return nil, c.err
		}
		if err := r.(*TensorValue).SetIndex(runtime.Tuple(items), vals); err != nil {
			return nil, err
		}
		return c.doneNamed(r, "IndexPutBackward0")
	}
	// accumulate: the index tensors (bool masks expanded to their
	// nonzero positions) become one linear index into self viewed as
	// [prod(shape[:k]), shape[k:]...], and values are index_add-ed there
	var idx []runtime.Value
	for _, it := range items {
		t := it.(*TensorValue)
		if t.t.DType() == tensor.I64 {
			idx = append(idx, t)
			continue
		}
		nz := c.mk(t, "nonzero", nil, []runtime.Kwarg{{Name: "as_tuple", Value: runtime.Bool(true)}})
		if c.err != nil {
			return nil, c.err
		}
		idx = append(idx, nz.(runtime.Tuple)...)
	}
	shape := x.t.Shape()
	k := len(idx)
	if k > len(shape) {
		return nil, runtime.Errorf("IndexError", "too many indices for tensor of dimension %d (got %d)", len(shape), k)
	}
	if k == 0 {
		return callMethod(th, x, "add", []runtime.Value{vals}, nil)
	}
	bc := c.g("broadcast_tensors", idx...)
	if c.err != nil {
		return nil, c.err
	}
	var lin runtime.Value
	for i, v := range bc.(runtime.Tuple) {
		t := v.(*TensorValue).t
		for j := 0; j < t.Numel(); j++ {
			if n := t.FlatInt64(j); n < -int64(shape[i]) || n >= int64(shape[i]) {
				return nil, runtime.Errorf("IndexError", "index %d is out of bounds for dimension %d with size %d", n, i, shape[i])
			}
		}
		term := c.m(v, "remainder", iv(shape[i]))
		if lin == nil {
			lin = term
		} else {
			lin = c.m(c.m(lin, "mul", iv(shape[i])), "add", term)
		}
	}
	rows := 1
	for _, s := range shape[:k] {
		rows *= s
	}
	rest := shape[k:]
	flatShape := append([]int{rows}, rest...)
	lin = c.m(lin, "reshape", iv(-1))
	if c.err != nil {
		return nil, c.err
	}
	ishape := bc.(runtime.Tuple)[0].(*TensorValue).t.Shape()
	vshape := append(append([]int(nil), ishape...), rest...)
	v := c.m(c.m(vals, "expand", intList(vshape)), "reshape", intList(append([]int{-1}, rest...)))
	r := c.m(c.m(c.m(x, "reshape", intList(flatShape)), "index_add", iv(0), lin, v), "reshape", intList(shape))
	return c.doneNamed(r, "IndexPutBackward0")
}

func builtinGradient(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var in tensorArg
	var spacing, dimv runtime.Value = runtime.Int(1), runtime.None
	edge := 1
	if err := runtime.UnpackArgs("gradient", args, kwargs, "input", &in, "spacing?", &spacing, "dim?", &dimv, "edge_order?", &edge); err != nil {
		return nil, err
	}
	x := args0(args, kwargs, "input").(*TensorValue)
	nd := in.t.Dim()
	var dims []int
	switch d := dimv.(type) {
	case runtime.Int:
		n, err := normDim(int(d), nd)
		if err != nil {
			return nil, err
		}
		dims = []int{n}
	default:
		if dimv == runtime.None {
			for i := range nd {
				dims = append(dims, i)
			}
			break
		}
		var ds []int
		if err := runtime.UnpackArgs("gradient", []runtime.Value{dimv}, nil, "dim", &ds); err != nil {
			return nil, err
		}
		for _, v := range ds {
			n, err := normDim(v, nd)
			if err != nil {
				return nil, err
			}
			dims = append(dims, n)
		}
	}
	if edge != 1 && edge != 2 {
		return nil, runtime.Errorf("RuntimeError", "torch.gradient only supports edge_order=1 and edge_order=2.")
	}
	for _, d := range dims {
		if in.t.Shape()[d] < edge+1 {
			return nil, runtime.Errorf("RuntimeError", "torch.gradient expected each dimension size to be at least edge_order+1")
		}
	}
	// spacing: one number or coordinate tensor per dim
	sp := make([]runtime.Value, len(dims))
	switch s := spacing.(type) {
	case runtime.Int, runtime.Float:
		for i := range sp {
			sp[i] = s
		}
	case *runtime.List, runtime.Tuple:
		var elems []runtime.Value
		if l, ok := s.(*runtime.List); ok {
			elems = l.Elems
		} else {
			elems = s.(runtime.Tuple)
		}
		if len(elems) != len(dims) {
			return nil, runtime.Errorf("RuntimeError", "torch.gradient expected spacing to be unspecified, a scalar or a list of length %d but got a list of length %d", len(dims), len(elems))
		}
		copy(sp, elems)
	default:
		return nil, runtime.Errorf("TypeError", "gradient(): argument 'spacing' must be a number, a list of numbers or a list of tensors, not %s", spacing.Type())
	}
	c := &callChain{th: th}
	sl := func(d, start int, end any) runtime.Value {
		var stop runtime.Value = runtime.None
		if e, ok := end.(int); ok {
			stop = iv(e)
		}
		key := make(runtime.Tuple, d+1)
		for i := range d {
			key[i] = &runtime.Slice{Start: runtime.None, Stop: runtime.None, Step: runtime.None}
		}
		key[d] = &runtime.Slice{Start: iv(start), Stop: stop, Step: runtime.None}
		if c.err != nil {
			return nil
		}
		v, err := x.Index(key)
		c.err = err
		return v
	}
	f := func(v float64) runtime.Value { return runtime.Float(v) }
	out := make(runtime.Tuple, len(dims))
	for i, d := range dims {
		var center, pre, app runtime.Value
		if coord, ok := sp[i].(*TensorValue); ok {
			if coord.t.Dim() != 1 {
				return nil, runtime.Errorf("RuntimeError", "torch.gradient expected each element of spacing to have one dimension, but got an element with %d dimensions!", coord.t.Dim())
			}
			shape := make([]int, nd)
			for j := range shape {
				shape[j] = 1
			}
			shape[d] = -1
			dx := c.m(coord, "diff")
			if c.err != nil {
				return nil, c.err
			}
			m := dx.(*TensorValue).t.Shape()[0]
			dx1 := c.m(dx, "narrow", iv(0), iv(0), iv(max(m-1, 0)))
			dx2 := c.m(dx, "narrow", iv(0), iv(min(1, m)), iv(max(m-1, 0)))
			sum12 := c.m(dx1, "add", dx2)
			a := c.m(c.m(c.m(dx2, "neg"), "div", c.m(dx1, "mul", sum12)), "reshape", intList(shape))
			bb := c.m(c.m(c.m(dx2, "sub", dx1), "div", c.m(dx1, "mul", dx2)), "reshape", intList(shape))
			cc := c.m(c.m(dx1, "div", c.m(dx2, "mul", sum12)), "reshape", intList(shape))
			center = c.m(c.m(c.m(a, "mul", sl(d, 0, -2)), "add", c.m(bb, "mul", sl(d, 1, -1))), "add", c.m(cc, "mul", sl(d, 2, nil)))
			at := func(k int) runtime.Value { return c.m(dx, "select", iv(0), iv(k)) }
			if edge == 1 {
				pre = c.m(c.m(sl(d, 1, 2), "sub", sl(d, 0, 1)), "div", at(0))
				app = c.m(c.m(sl(d, -1, nil), "sub", sl(d, -2, -1)), "div", at(-1))
			} else {
				d0, d1 := at(0), at(1)
				s01 := c.m(d0, "add", d1)
				a := c.m(c.m(c.m(d0, "mul", f(2)), "add", d1), "div", c.m(d0, "mul", s01))
				a = c.m(a, "neg")
				b := c.m(s01, "div", c.m(d0, "mul", d1))
				cc := c.m(c.m(d0, "neg"), "div", c.m(d1, "mul", s01))
				pre = c.m(c.m(c.m(a, "mul", sl(d, 0, 1)), "add", c.m(b, "mul", sl(d, 1, 2))), "add", c.m(cc, "mul", sl(d, 2, 3)))
				l1, l2 := at(-1), at(-2)
				s12 := c.m(l1, "add", l2)
				a = c.m(l1, "div", c.m(l2, "mul", s12))
				b = c.m(c.m(s12, "div", c.m(l1, "mul", l2)), "neg")
				cc = c.m(c.m(c.m(l1, "mul", f(2)), "add", l2), "div", c.m(l1, "mul", s12))
				app = c.m(c.m(c.m(a, "mul", sl(d, -3, -2)), "add", c.m(b, "mul", sl(d, -2, -1))), "add", c.m(cc, "mul", sl(d, -1, nil)))
			}
		} else {
			h := sp[i]
			if _, ok := numberOf(h); !ok {
				return nil, runtime.Errorf("TypeError", "gradient(): spacing must hold numbers or tensors, not %s", h.Type())
			}
			center = c.m(c.m(c.m(sl(d, 2, nil), "sub", sl(d, 0, -2)), "div", h), "div", f(2))
			if edge == 1 {
				pre = c.m(c.m(sl(d, 1, 2), "sub", sl(d, 0, 1)), "div", h)
				app = c.m(c.m(sl(d, -1, nil), "sub", sl(d, -2, -1)), "div", h)
			} else {
				pre = c.m(c.m(c.m(c.m(sl(d, 0, 1), "mul", f(-1.5)), "add", c.m(sl(d, 1, 2), "mul", f(2))), "sub", c.m(sl(d, 2, 3), "mul", f(0.5))), "div", h)
				app = c.m(c.m(c.m(c.m(sl(d, -3, -2), "mul", f(0.5)), "sub", c.m(sl(d, -2, -1), "mul", f(2))), "add", c.m(sl(d, -1, nil), "mul", f(1.5))), "div", h)
			}
		}
		out[i] = c.g("cat", runtime.NewList([]runtime.Value{pre, center, app}), iv(d))
		if c.err != nil {
			return nil, c.err
		}
	}
	return out, nil
}

// argAt returns the argument at position pos, or the keyword argument
// name, or nil when absent.
func argAt(args []runtime.Value, kwargs []runtime.Kwarg, pos int, name string) runtime.Value {
	if pos < len(args) {
		return args[pos]
	}
	for _, k := range kwargs {
		if k.Name == name {
			return k.Value
		}
	}
	return nil
}
