package stdlib

import (
	"math"
	"sort"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// More of torch's tensor functions for code ported from PyTorch: random
// permutations and sampling (randperm, uniform_, normal_, bernoulli,
// multinomial, normal), joining (hstack, vstack), products (mv, addmm),
// scatter-type writes (scatter, scatter_add, index_add and their in-place
// forms), selection (masked_select, take, kthvalue, cummax, cummin),
// counting and searching (count_nonzero, bincount, searchsorted,
// bucketize), repeat_interleave, nan_to_num, diff, frac, equal, cdist and
// tril_indices/triu_indices. Signatures, result dtypes and error kinds
// follow PyTorch 1.13.
//
// Autograd: functions that pick or move values (masked_select, take,
// repeat_interleave, kthvalue, cummax, cummin, scatter, scatter_add,
// index_add, nan_to_num) record a backward that routes the output gradient
// back to the positions read; the rest (hstack, vstack, mv, addmm, diff,
// frac, cdist) are composed from recorded ops. Random draws, counts,
// indices and searches are not differentiable, as in PyTorch. Every random
// function draws from the interpreter's generator (manual_seed), so
// streams are reproducible for a seed but differ from PyTorch's.

func init() {
	defGlobal("randperm", "randperm(n, dtype=i64, requires_grad=false): a random permutation of 0..n-1 (Fisher-Yates on the interpreter's generator).", builtinRandperm)
	defGlobal("hstack", "hstack(tensors): cat along dim 1, or dim 0 when the tensors are 1-D (0-d tensors count as 1-D).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return stackLike(th, "hstack", args, kwargs)
	})
	defGlobal("vstack", "vstack(tensors): cat along dim 0 after making every tensor at least 2-D (a 1-D [n] becomes [1, n]).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return stackLike(th, "vstack", args, kwargs)
	})
	defMethodFunc("mv", "mv(vec): the product of a matrix [n, m] and a vector [m], shape [n].", methodMv)
	defMethodFunc("addmm", "addmm(mat1, mat2, beta=1, alpha=1): beta * self + alpha * (mat1 @ mat2) for matrices [n, k] and [k, m]; self broadcasts to [n, m] (ignored, NaN included, when beta is 0).", methodAddmm)
	defMethodFunc("equal", "equal(other): true when other has the same shape and equal elements (compared after type promotion; NaN is unequal).", methodEqual)
	for _, s := range []struct {
		name string
		add  bool
		doc  string
	}{
		{"scatter", false, "scatter(dim, index, src): a copy of self with self[index[i][j]][j] = src[i][j] for dim 0 (src a tensor of self's dtype, or a number: value=). index: i64, self's rank, no larger than src (and than self off dim). Repeated indices: the last write wins."},
		{"scatter_add", true, "scatter_add(dim, index, src): a copy of self with src[i][j] added at self[index[i][j]][j] for dim 0 (repeated indices add up)."},
	} {
		s := s
		defMethodFunc(s.name, s.doc, func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			return x.result(scatterArgs(engineOf(th), s.name, x.t, nil, s.add, args, kwargs))
		})
		inplaceMethodDst(s.name+"_", s.name+"_(dim, index, src): "+s.name+" in place (index and src must not share memory with self); returns self.", func(e *Engine, dst, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
			r, err := scatterArgs(e, s.name+"_", self, dst, s.add, args, kwargs)
			node := ""
			if err == nil && r.GradFn() != nil {
				node = r.GradFn().Name() // the out-of-place node's name (ScatterBackward0/1, ScatterAddBackward0)
			}
			return r, node, err
		})
	}
	defMethodFunc("index_add", "index_add(dim, index, source, alpha=1): a copy of self with alpha * source[..., i, ...] added at self[..., index[i], ...] along dim (index: 1-D i64/i32 of length source.size(dim)).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return x.result(indexAddArgs(engineOf(th), "index_add", x.t, nil, args, kwargs))
	})
	defMethod("index_add_", "index_add_(dim, index, source, alpha=1): index_add in place (index and source must not share memory with self); returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		e := engineOf(th)
		return inplaceFrom(e, x, func() (*T, error) { return indexAddArgs(e, "index_add_", x.t, x.t, args, kwargs) })
	})
	defMethodFunc("masked_select", "masked_select(mask): the 1-D tensor of the elements where mask (bool, broadcast with self) is true, in row-major order.", nodeNamed("MaskedSelectBackward0", methodMaskedSelect))
	defMethodFunc("repeat_interleave", "repeat_interleave(repeats, dim=none): repeat each element (each slice along dim) repeats times (an int, or a 1-D tensor with one count per slice); without dim the flattened tensor is repeated. repeat_interleave(counts) alone gives the indices 0.. repeated counts times.", nodeNamed("IndexSelectBackward0", methodRepeatInterleave))
	defMethodFunc("nan_to_num", "nan_to_num(nan=0.0, posinf=none, neginf=none): NaN, +inf and -inf replaced (infinities by default with the dtype's largest and lowest finite values). Integer tensors are copied unchanged.", methodNanToNum)
	defMethodFunc("count_nonzero", "count_nonzero(dim=none): the i64 number of nonzero elements over dim (an int or list of ints; all dims when none).", methodCountNonzero)
	defMethodFunc("diff", "diff(n=1, dim=-1, prepend=none, append=none): the n-th forward difference along dim (xor for bool), after concatenating prepend and append along dim.", methodDiff)
	defMethodFunc("frac", "frac(): the fractional part x - trunc(x) (sign of x; float dtypes only).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("frac", args, kwargs); err != nil {
			return nil, err
		}
		if !x.t.DType().IsFloat() {
			return nil, notImplementedFor("frac_cpu", x.t.DType())
		}
		e := engineOf(th)
		tr, err := unaryOp(e, "trunc", x.t)
		if err != nil {
			return nil, err
		}
		r, err := applyBinary(e, "sub", tensor.Sub, x.t, tr)
		return x.result(named("FracBackward0", r, err))
	})
	defMethodFunc("take", "take(index): the elements of the flattened tensor at index (i64, any shape; negative indices count from the end); the result has index's shape.", nodeNamed("TakeBackward0", methodTake))
	defMethodFunc("bincount", "bincount(weights=none, minlength=0): counts of each value of a 1-D non-negative integer tensor, length max(input.max() + 1, minlength); with weights the sums of the weights (f32 weights give f32, others f64).", methodBincount)
	defMethod("uniform_", "uniform_(from=0, to=1): fill in place with uniform samples in [from, to); bumps the version; returns self.", methodUniform)
	defMethod("normal_", "normal_(mean=0, std=1): fill in place with normal samples; bumps the version; returns self.", methodNormalInplace)
	defMethodFunc("bernoulli", "bernoulli(p=none): 0/1 samples in self's (float) dtype, 1 with probability self (or with probability p, a number in [0, 1], for every element).", methodBernoulli)
	defMethodFunc("multinomial", "multinomial(num_samples, replacement=false): i64 indices sampled from the rows of non-negative weights self ([n] or [rows, n]); without replacement an index is drawn at most once.", methodMultinomial)
	defGlobal("normal", "normal(mean, std, size=none, dtype=none): normal samples; mean and std are tensors (broadcast) or numbers; with two numbers size is required.", builtinNormal)
	defGlobal("searchsorted", "searchsorted(sorted_sequence, values, out_int32=false, right=false, side=none): for each value the index where it would be inserted to keep the innermost dim of sorted_sequence sorted (left: first i with seq[i] >= v; right: first i with seq[i] > v). A 1-D sequence serves every value; else leading dims must match values'.", builtinSearchsorted)
	defGlobal("bucketize", "bucketize(input, boundaries, out_int32=false, right=false): searchsorted(boundaries, input, right=right) for 1-D boundaries.", builtinBucketize)
	defGlobal("cdist", "cdist(x1, x2, p=2.0): pairwise p-norm distances between the rows of x1 [..., P, M] and x2 [..., R, M], shape [..., P, R] (batch dims broadcast). Differentiable.", builtinNamed("CdistBackward0", builtinCdist))
	defGlobal("tril_indices", "tril_indices(row, col, offset=0, dtype=i64): the [2, N] coordinates of the lower triangle of a row x col matrix (diagonal offset), row-major.", triIndices("tril_indices", false))
	defGlobal("triu_indices", "triu_indices(row, col, offset=0, dtype=i64): the [2, N] coordinates of the upper triangle of a row x col matrix (diagonal offset), row-major.", triIndices("triu_indices", true))
	defMethodFunc("cummax", "cummax(dim): the named tuple (values, indices) of running maxima along dim (ties and NaN take the latest index; NaN propagates).", cumExtremum("cummax"))
	defMethodFunc("cummin", "cummin(dim): the named tuple (values, indices) of running minima along dim (ties and NaN take the latest index; NaN propagates).", cumExtremum("cummin"))
	defMethodFunc("kthvalue", "kthvalue(k, dim=-1, keepdim=false): the named tuple (values, indices) of the k-th smallest element along dim (k from 1; NaN sorts largest).", methodKthvalue)
}

func notImplementedFor(kernel string, dt tensor.DType) error {
	return runtime.Errorf("RuntimeError", "\"%s\" not implemented for '%s'", kernel, kernels.TorchName(dt))
}

// tensorList reads a list or tuple of tensors.
func tensorList(name string, seq runtime.Value) ([]*T, error) {
	elems, err := runtime.Elements(seq)
	if err != nil {
		return nil, runtime.Errorf("TypeError", "%s(): argument 'tensors' must be a list or tuple of tensors, not %s", name, seq.Type())
	}
	ts := make([]*T, len(elems))
	for i, v := range elems {
		x, ok := v.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s(): expected a list of tensors, but element %d is %s", name, i, v.Type())
		}
		ts[i] = x.t
	}
	return ts, nil
}

// inplaceFrom writes the out-of-place result of f into x as a recorded
// copy_ (bumping x's version; gradients reach x's previous value through
// f's own record), and returns x.
func inplaceFrom(e *Engine, x *TensorValue, f func() (*T, error)) (runtime.Value, error) {
	r, err := f()
	if err != nil {
		return nil, err
	}
	if err := e.ApplyInplace("copy", x.t, []*T{r}, nil, func() error { return x.t.CopyInplace(r) }); err != nil {
		return nil, err
	}
	return x, nil
}

// ---- creation and joining ----

func builtinRandperm(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var n int
	var o creationOpts
	if err := runtime.UnpackArgs("randperm", args, kwargs, append([]any{"n", &n}, o.pairs()...)...); err != nil {
		return nil, err
	}
	if err := checkSizes([]int{n}); err != nil {
		return nil, err
	}
	if err := tensor.CheckAlloc(tensor.I64, n); err != nil {
		return nil, err
	}
	perm := tensor.Randperm(stateOf(th).gen, n)
	t, err := tensor.FromInt64s(perm, []int{n}, o.dt(tensor.I64))
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}

// stackLike is hstack and vstack: cat after promoting 0-d (and, for
// vstack, 1-d) tensors to the needed rank with recorded reshapes.
func stackLike(th *runtime.Thread, name string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var seq runtime.Value
	if err := runtime.UnpackArgs(name, args, kwargs, "tensors", &seq); err != nil {
		return nil, err
	}
	ts, err := tensorList(name, seq)
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, runtime.Errorf("RuntimeError", "%s expects a non-empty TensorList", name)
	}
	e := engineOf(th)
	dim := 0
	for i, t := range ts {
		switch {
		case t.Dim() == 0 && name == "hstack":
			ts[i], err = reshapeOp(e, t, []int{1})
		case t.Dim() == 0 && name == "vstack":
			ts[i], err = reshapeOp(e, t, []int{1, 1})
		case t.Dim() == 1 && name == "vstack":
			ts[i], err = reshapeOp(e, t, []int{1, t.Numel()})
		}
		if err != nil {
			return nil, err
		}
	}
	if name == "hstack" && ts[0].Dim() > 1 {
		dim = 1
	}
	r, err := e.Apply("cat", ts, autograd.Attrs{"dim": dim}, func() (*T, error) { return tensor.Cat(ts, dim) })
	return tensorResult(th, r, err)
}

// ---- products ----

func methodMv(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var v tensorArg
	if err := runtime.UnpackArgs("mv", args, kwargs, "vec", &v); err != nil {
		return nil, err
	}
	if x.t.Dim() != 2 || v.t.Dim() != 1 {
		return nil, runtime.Errorf("RuntimeError", "vector + matrix @ vector expected, got 1, %d, %d", x.t.Dim(), v.t.Dim())
	}
	if x.t.Shape()[1] != v.t.Shape()[0] {
		return nil, runtime.Errorf("RuntimeError", "size mismatch, got %d, %dx%d,%d", x.t.Shape()[0], x.t.Shape()[0], x.t.Shape()[1], v.t.Shape()[0])
	}
	return x.result(applyBinary(engineOf(th), "matmul", tensor.Matmul, x.t, v.t))
}

func methodAddmm(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return x.result(addmmOp(engineOf(th), "addmm", x.t, args, kwargs))
}

// addmmOp is addmm on self (name: "addmm", or "addmm_" for the in-place
// form).
func addmmOp(e *Engine, name string, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, error) {
	var m1, m2 tensorArg
	var beta, alpha runtime.Value = runtime.MakeInt(1), runtime.MakeInt(1)
	if err := runtime.UnpackArgs(name, args, kwargs, "mat1", &m1, "mat2", &m2, "beta?", &beta, "alpha?", &alpha); err != nil {
		return nil, err
	}
	for i, m := range []*T{m1.t, m2.t} {
		if m.Dim() != 2 {
			return nil, runtime.Errorf("RuntimeError", "mat%d must be a matrix, got %d-D tensor", i+1, m.Dim())
		}
	}
	if m1.t.Shape()[1] != m2.t.Shape()[0] {
		return nil, runtime.Errorf("RuntimeError", "mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", m1.t.Shape()[0], m1.t.Shape()[1], m2.t.Shape()[0], m2.t.Shape()[1])
	}
	out := []int{m1.t.Shape()[0], m2.t.Shape()[1]}
	if bs, err := tensor.BroadcastShapes(self.Shape(), out); err != nil || !sameShape(bs, out) {
		return nil, runtime.Errorf("RuntimeError", "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s", out[len(out)-1], self.Shape()[max(self.Dim()-1, 0)], self.Dim()-1, intList(out), intList(self.Shape()))
	}
	bt, ok1 := operand(beta)
	at, ok2 := operand(alpha)
	if !ok1 || !ok2 {
		return nil, runtime.Errorf("TypeError", "addmm(): beta and alpha must be numbers")
	}
	p, err := applyBinary(e, "mm", tensor.Mm, m1.t, m2.t)
	if err != nil {
		return nil, err
	}
	if at.FlatFloat64(0) != 1 {
		if p, err = applyBinary(e, "mul", tensor.Mul, p, at); err != nil {
			return nil, err
		}
	}
	bv := bt.FlatFloat64(0)
	if bv == 0 {
		return p, nil
	}
	s := self
	if bv != 1 {
		if s, err = applyBinary(e, "mul", tensor.Mul, s, bt); err != nil {
			return nil, err
		}
	}
	return applyBinary(e, "add", tensor.Add, s, p)
}

func methodEqual(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var o tensorArg
	if err := runtime.UnpackArgs("equal", args, kwargs, "other", &o); err != nil {
		return nil, err
	}
	if !sameShape(x.t.Shape(), o.t.Shape()) {
		return runtime.Bool(false), nil
	}
	eq, err := tensor.Eq(x.t, o.t)
	if err != nil {
		return nil, err
	}
	for _, b := range eq.ToBools() {
		if !b {
			return runtime.Bool(false), nil
		}
	}
	return runtime.Bool(true), nil
}

// ---- scatter, scatter_add, index_add ----

// rowMajorStrides returns the element strides of a contiguous tensor of
// the given shape.
func rowMajorStrides(shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = s
		s *= shape[i]
	}
	return st
}

// scatterPositions walks index (row-major) and returns, per element, the
// flat position in a contiguous tensor of shape dst that it addresses
// (its own coordinates with the coordinate along dim replaced by the index
// value) and the flat position of its own coordinates in a contiguous
// tensor of shape src. The checks and messages are PyTorch's scatter/gather
// ones: index has dst's rank, index.size(d) <= src.size(d) for every d and
// <= dst.size(d) for d != dim, values in [0, dst.size(dim)).
//
// beforeBounds, when not nil, runs after the dtype and shape checks and
// before the index values are checked (PyTorch's in-place overlap checks
// sit there); its error is returned.
func scatterPositions(name string, dst []int, dim int, index *T, src []int, beforeBounds func() error) (dpos, spos []int, err error) {
	if index.DType() != tensor.I64 {
		return nil, nil, runtime.Errorf("RuntimeError", "%s(): Expected dtype int64 for index", name)
	}
	if beforeBounds == nil {
		beforeBounds = func() error { return nil }
	}
	if index.Numel() == 0 { // nothing to scatter: PyTorch checks no shapes then
		return nil, nil, beforeBounds()
	}
	is := index.Shape()
	if max(len(is), 1) != max(len(dst), 1) {
		return nil, nil, runtime.Errorf("RuntimeError", "Index tensor must have the same number of dimensions as self tensor")
	}
	if len(dst) == 0 { // 0-d self: treat as [1]
		dst, is = []int{1}, []int{1}
		if src != nil && len(src) == 0 {
			src = []int{1}
		}
	}
	for d := range is {
		if src != nil && is[d] > src[d] {
			return nil, nil, runtime.Errorf("RuntimeError", "Expected index %s to be smaller than self %s apart from dimension %d and to be smaller size than src %s", intList(index.Shape()), intList(dst), dim, intList(src))
		}
		if d != dim && is[d] > dst[d] {
			return nil, nil, runtime.Errorf("RuntimeError", "Expected index %s to be smaller than self %s apart from dimension %d", intList(index.Shape()), intList(dst), dim)
		}
	}
	if err := beforeBounds(); err != nil {
		return nil, nil, err
	}
	dst0, src0 := rowMajorStrides(dst), []int(nil)
	if src != nil {
		src0 = rowMajorStrides(src)
	}
	iv := index.ToInt64s()
	dpos = make([]int, len(iv))
	if src != nil {
		spos = make([]int, len(iv))
	}
	coord := make([]int, len(is))
	size := int64(dst[dim])
	for k, v := range iv {
		if v < 0 || v >= size {
			return nil, nil, runtime.Errorf("RuntimeError", "index %d is out of bounds for dimension %d with size %d", v, dim, size)
		}
		dp, sp := 0, 0
		for d, c := range coord {
			if d == dim {
				dp += int(v) * dst0[d]
			} else {
				dp += c * dst0[d]
			}
			if src != nil {
				sp += c * src0[d]
			}
		}
		dpos[k] = dp
		if src != nil {
			spos[k] = sp
		}
		for d := len(coord) - 1; d >= 0; d-- {
			coord[d]++
			if coord[d] < is[d] {
				break
			}
			coord[d] = 0
		}
	}
	return dpos, spos, nil
}

// scatterOp writes src[spos[k]] (times alpha when add) into a copy of self
// at dpos[k]: assigned, or accumulated when add. src nil means the number
// value everywhere. It records a backward: self's gradient is g (with the
// written positions zeroed for assignment), src's is alpha * g read at
// dpos into src's shape. Floats compute in float64 and round once to the
// dtype (PyTorch rounds after every addition for f16/bf16).
func scatterOp(e *Engine, name string, self, src *T, value float64, dpos, spos []int, add bool, alpha float64) (*T, error) {
	dt := self.DType()
	shape := append([]int(nil), self.Shape()...)
	var srcShape []int
	inputs := []*T{self}
	if src != nil {
		srcShape = append([]int(nil), src.Shape()...)
		inputs = append(inputs, src)
	}
	forward := func() (*T, error) {
		if !dt.IsFloat() {
			out := self.ToInt64s()
			var sv []int64
			if src != nil {
				sv = src.ToInt64s()
			}
			ia := int64(alpha)
			for k, p := range dpos {
				var v int64
				if src != nil {
					v = sv[spos[k]]
				} else {
					v = int64(value)
				}
				if add {
					out[p] += ia * v
				} else {
					out[p] = v
				}
			}
			if dt == tensor.Bool {
				r, err := tensor.FromInt64s(out, shape, tensor.I64)
				if err != nil {
					return nil, err
				}
				return tensor.Ne(r, tensor.ScalarInt(0))
			}
			return tensor.FromInt64s(out, shape, dt)
		}
		out := self.ToFloat64s()
		var sv []float64
		if src != nil {
			sv = src.ToFloat64s()
		}
		for k, p := range dpos {
			v := value
			if src != nil {
				v = sv[spos[k]]
			}
			if add {
				out[p] += alpha * v
			} else {
				out[p] = v
			}
		}
		return tensor.FromFloat64s(out, shape, dt)
	}
	if !dt.IsFloat() {
		return forward()
	}
	backward := func(g *T) ([]*T, error) {
		gv := g.ToFloat64s()
		grads := make([]*T, len(inputs))
		gs := g
		if !add {
			z := append([]float64(nil), gv...)
			for _, p := range dpos {
				z[p] = 0
			}
			var err error
			if gs, err = tensor.FromFloat64s(z, shape, g.DType()); err != nil {
				return nil, err
			}
		}
		grads[0] = gs
		if src != nil {
			buf := make([]float64, numelOf(srcShape))
			for k, p := range dpos {
				buf[spos[k]] = alpha * gv[p]
			}
			gsrc, err := tensor.FromFloat64s(buf, srcShape, g.DType())
			if err != nil {
				return nil, err
			}
			grads[1] = gsrc
		}
		return grads, nil
	}
	// linear in (self, src) jointly; value is a constant
	apply := func(us []*T) (*T, error) {
		switch {
		case src != nil:
			return scatterOp(e, name, us[0], us[1], 0, dpos, spos, add, alpha)
		case add:
			return us[0], nil
		default:
			return scatterOp(e, name, us[0], nil, 0, dpos, spos, false, alpha)
		}
	}
	return e.ApplyLinear(name, inputs, forward, backward, apply)
}

// scatterArgs parses scatter/scatter_add's (dim, index, src) (scatter also
// takes value=, or a number as src) and applies the op to x. dst is the
// tensor an in-place form writes (nil out of place), checked for overlap
// with index and src.
func scatterArgs(e *Engine, name string, x, dst *T, add bool, args []runtime.Value, kwargs []runtime.Kwarg) (*T, error) {
	var dim int
	var index tensorArg
	var src, value runtime.Value = runtime.None, runtime.None
	var reduce runtime.Value = runtime.None
	pairs := []any{"dim", &dim, "index", &index, "src?", &src}
	if !add {
		pairs = append(pairs, "value?", &value, "reduce?", &reduce)
	}
	if err := runtime.UnpackArgs(name, args, kwargs, pairs...); err != nil {
		return nil, err
	}
	if reduce != runtime.None {
		return nil, runtime.Errorf("NotImplementedError", "%s(): reduce= is not supported; use scatter_add", name)
	}
	if src == runtime.None {
		src = value
	}
	d, err := normDim(dim, x.Dim())
	if err != nil {
		return nil, err
	}
	base := name
	if base[len(base)-1] == '_' {
		base = base[:len(base)-1]
	}
	switch s := src.(type) {
	case *TensorValue:
		if s.t.DType() != x.DType() {
			return nil, runtime.Errorf("RuntimeError", "%s(): Expected self.dtype to be equal to src.dtype", base)
		}
		if index.t.Numel() != 0 && max(s.t.Dim(), 1) != max(x.Dim(), 1) { // an empty index is a no-op, as PyTorch's
			return nil, runtime.Errorf("RuntimeError", "Index tensor must have the same number of dimensions as src tensor")
		}
		dpos, spos, err := scatterPositions(base, x.Shape(), d, index.t, s.t.Shape(), func() error { return inplaceNoOverlap(dst, index.t, s.t) })
		if err != nil {
			return nil, err
		}
		node := "ScatterBackward0" // PyTorch's scatter.src
		if add {
			node = "ScatterAddBackward0"
		}
		return scatterOp(e, node, x, s.t, 0, dpos, spos, add, 1)
	case runtime.NoneType:
		return nil, runtime.Errorf("TypeError", "%s() missing required argument 'src'", name)
	}
	if add {
		return nil, runtime.Errorf("TypeError", "%s(): src must be a tensor, not %s", name, src.Type())
	}
	v, ok := runtime.AsFloat(src)
	if !ok {
		return nil, runtime.Errorf("TypeError", "%s(): src must be a tensor or a number, not %s", name, src.Type())
	}
	if err := numberFits(src, x.DType()); err != nil {
		return nil, err
	}
	dpos, _, err := scatterPositions(base, x.Shape(), d, index.t, nil, func() error { return inplaceNoOverlap(dst, index.t) })
	if err != nil {
		return nil, err
	}
	return scatterOp(e, "ScatterBackward1", x, nil, v, dpos, nil, false, 1) // scatter.value
}

// indexAddArgs parses index_add's (dim, index, source, alpha=1); dst is
// the tensor index_add_ writes (nil out of place), checked for overlap
// with index and source.
func indexAddArgs(e *Engine, name string, x, dst *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, error) {
	var dim int
	var index, source tensorArg
	alpha := 1.0
	if err := runtime.UnpackArgs(name, args, kwargs, "dim", &dim, "index", &index, "source", &source, "alpha?", &alpha); err != nil {
		return nil, err
	}
	d, err := normDim(dim, x.Dim())
	if err != nil {
		return nil, err
	}
	if dt := index.t.DType(); dt != tensor.I64 && dt != tensor.I32 {
		return nil, runtime.Errorf("RuntimeError", "index_add_(): Expected dtype int32/int64 for index")
	}
	if index.t.Dim() > 1 {
		return nil, runtime.Errorf("IndexError", "index_add_(): Index is supposed to be a vector")
	}
	if source.t.DType() != x.DType() {
		return nil, runtime.Errorf("RuntimeError", "index_add_(): self (%s) and source (%s) must have the same scalar type", kernels.TorchName(x.DType()), kernels.TorchName(source.t.DType()))
	}
	if x.Dim() != source.t.Dim() && !(x.Dim() <= 1 && source.t.Dim() <= 1) {
		return nil, runtime.Errorf("IndexError", "index_add_(): self and source must have the same number of dimensions")
	}
	xs, ss := x.Shape(), source.t.Shape()
	if len(xs) == 0 {
		xs = []int{1}
	}
	if len(ss) == 0 {
		ss = []int{1}
	}
	n := index.t.Numel()
	if n != ss[d] {
		return nil, runtime.Errorf("RuntimeError", "index_add_(): Number of indices (%d) should be equal to source.size(dim): (%d), for dim: %d", n, ss[d], d)
	}
	for i := range xs {
		if i != d && xs[i] != ss[i] {
			return nil, runtime.Errorf("RuntimeError", "index_add_(): self and source must have the same shape apart from dim %d, got %s and %s", d, intList(x.Shape()), intList(source.t.Shape()))
		}
	}
	if err := inplaceNoOverlap(dst, index.t, source.t); err != nil {
		return nil, err
	}
	iv := index.t.ToInt64s()
	for _, v := range iv {
		if v < 0 || v >= int64(xs[d]) {
			return nil, runtime.Errorf("IndexError", "index out of range in self")
		}
	}
	dpos, spos := indexedPositions(xs, ss, d, iv, source.t.Numel())
	return scatterOp(e, "IndexAddBackward", x, source.t, 0, dpos, spos, true, alpha)
}

// inplaceNoOverlap is PyTorch's assert_no_overlap(dst, other) for each
// other tensor of an in-place index or scatter op writing dst: a
// RuntimeError when one shares memory with dst (see
// tensor.CheckNoOverlap). A nil dst (out of place) passes.
func inplaceNoOverlap(dst *T, others ...*T) error {
	if dst == nil {
		return nil
	}
	for _, o := range others {
		if err := tensor.CheckNoOverlap(dst, o); err != nil {
			return err
		}
	}
	return nil
}

// indexedPositions returns, for each of the n elements of a row-major
// source of shape ss (in order: spos[k] = k), its flat position dpos[k] in a
// row-major destination of shape xs: the same coordinates, with the one
// along dim d mapped through iv (index_add_, index_copy_).
func indexedPositions(xs, ss []int, d int, iv []int64, n int) (dpos, spos []int) {
	xst := rowMajorStrides(xs)
	dpos, spos = make([]int, n), make([]int, n)
	coord := make([]int, len(ss))
	for k := range dpos {
		p := 0
		for i, c := range coord {
			if i == d {
				c = int(iv[c])
			}
			p += c * xst[i]
		}
		dpos[k], spos[k] = p, k
		for i := len(coord) - 1; i >= 0; i-- {
			coord[i]++
			if coord[i] < ss[i] {
				break
			}
			coord[i] = 0
		}
	}
	return dpos, spos
}

// ---- selection ----

func methodMaskedSelect(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var m tensorArg
	if err := runtime.UnpackArgs("masked_select", args, kwargs, "mask", &m); err != nil {
		return nil, err
	}
	if m.t.DType() != tensor.Bool && m.t.DType() != tensor.U8 {
		return nil, runtime.Errorf("RuntimeError", "masked_select: expected BoolTensor or ByteTensor for mask")
	}
	mask := m.t
	if mask.DType() == tensor.U8 {
		var err error
		if mask, err = mask.To(tensor.Bool); err != nil {
			return nil, err
		}
	}
	shape, err := tensor.BroadcastShapes(x.t.Shape(), mask.Shape())
	if err != nil {
		return nil, err
	}
	e := engineOf(th)
	xe, err := expandOp(e, x.t, shape)
	if err != nil {
		return nil, err
	}
	if mask, err = mask.Expand(shape...); err != nil {
		return nil, err
	}
	if len(shape) == 0 {
		if xe, err = reshapeOp(e, xe, []int{1}); err != nil {
			return nil, err
		}
		if mask, err = mask.Reshape(1); err != nil {
			return nil, err
		}
	}
	return x.result(advancedIndex(e, xe, []tensor.Index{tensor.Adv(mask.Contiguous())}))
}

func methodRepeatInterleave(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var repeats runtime.Value = runtime.None
	var dim intOpt
	var outSize runtime.Value = runtime.None
	if err := runtime.UnpackArgs("repeat_interleave", args, kwargs, "repeats?", &repeats, "dim?", &dim, "output_size?", &outSize); err != nil {
		return nil, err
	}
	if repeats == runtime.None {
		// repeat_interleave(counts): indices repeated counts times
		if x.t.Dim() != 1 || x.t.DType().IsFloat() || x.t.DType() == tensor.Bool {
			return nil, runtime.Errorf("RuntimeError", "repeat_interleave(): repeats must be a 1-D integer tensor")
		}
		idx, err := repeatIndices(x.t.ToInt64s(), x.t.Numel())
		if err != nil {
			return nil, err
		}
		return wrap(x.eng, idx), nil
	}
	e := engineOf(th)
	t := x.t
	d := 0
	var err error
	if !dim.ok {
		if t, err = reshapeOp(e, t, []int{-1}); err != nil {
			return nil, err
		}
	} else if d, err = normDim(dim.v, t.Dim()); err != nil {
		return nil, err
	}
	if t.Dim() == 0 {
		if t, err = reshapeOp(e, t, []int{1}); err != nil {
			return nil, err
		}
	}
	size := t.Shape()[d]
	var counts []int64
	switch r := repeats.(type) {
	case runtime.Int:
		counts = make([]int64, size)
		for i := range counts {
			counts[i] = int64(r)
		}
	case *TensorValue:
		if r.t.DType().IsFloat() || r.t.DType() == tensor.Bool || r.t.Dim() > 1 {
			return nil, runtime.Errorf("RuntimeError", "repeat_interleave(): repeats must be an int or a 0-D/1-D integer tensor")
		}
		counts = r.t.ToInt64s()
		if len(counts) == 1 && size != 1 {
			c := counts[0]
			counts = make([]int64, size)
			for i := range counts {
				counts[i] = c
			}
		}
	default:
		return nil, runtime.Errorf("TypeError", "repeat_interleave(): repeats must be an int or a tensor, not %s", repeats.Type())
	}
	if len(counts) != size {
		return nil, runtime.Errorf("RuntimeError", "repeats must have the same size as input along dim")
	}
	idx, err := repeatIndices(counts, size)
	if err != nil {
		return nil, err
	}
	items := indexAlong(d, idx)
	return x.result(advancedIndex(e, t, items))
}

// repeatIndices returns the i64 tensor with i repeated counts[i] times.
func repeatIndices(counts []int64, n int) (*T, error) {
	total := int64(0)
	for _, c := range counts {
		if c < 0 {
			return nil, runtime.Errorf("RuntimeError", "repeats can not be negative")
		}
		if total > math.MaxInt64-c {
			return nil, tensor.CheckAlloc(tensor.I64, -1)
		}
		total += c
	}
	if err := tensor.CheckAlloc(tensor.I64, int(total)); err != nil {
		return nil, err
	}
	out := make([]int64, 0, total)
	for i := 0; i < n; i++ {
		for j := int64(0); j < counts[i]; j++ {
			out = append(out, int64(i))
		}
	}
	return tensor.FromInt64s(out, []int{len(out)}, tensor.I64)
}

func methodNanToNum(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var nan, posinf, neginf floatOpt
	if err := runtime.UnpackArgs("nan_to_num", args, kwargs, "nan?", &nan, "posinf?", &posinf, "neginf?", &neginf); err != nil {
		return nil, err
	}
	if !x.t.DType().IsFloat() {
		return x.result(x.t.Clone(), nil)
	}
	return x.result(nanToNumOp(engineOf(th), x.t, nan, posinf, neginf))
}

// nanToNumOp is nan_to_num of a float tensor t, recorded.
func nanToNumOp(e *Engine, t *T, nan, posinf, neginf floatOpt) (*T, error) {
	var pp, np *float64
	if posinf.ok {
		pp = &posinf.v
	}
	if neginf.ok {
		np = &neginf.v
	}
	// the gradient g where t is finite, else 0: linear in g, and its
	// tangent is u masked the same way
	masked := func(g *T) (*T, error) {
		fin, err := tensor.IsFinite(t)
		if err != nil {
			return nil, err
		}
		z := tensor.ScalarFloat(0)
		return e.Apply("where", []*T{fin, g, z}, nil, func() (*T, error) { return tensor.Where(fin, g, z) })
	}
	return e.ApplyLinear("NanToNumBackward", []*T{t},
		func() (*T, error) { return tensor.NanToNum(t, nan.v, pp, np) },
		func(g *T) ([]*T, error) {
			z, err := masked(g)
			return []*T{z}, err
		}, func(us []*T) (*T, error) { return masked(us[0]) })
}

func methodCountNonzero(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var d dimsOpt
	if err := runtime.UnpackArgs("count_nonzero", args, kwargs, "dim?", &d); err != nil {
		return nil, err
	}
	dims, err := reduceDims(x.t, d)
	if err != nil {
		return nil, err
	}
	nz, err := tensor.Ne(x.t, tensor.ScalarInt(0))
	if err != nil {
		return nil, err
	}
	return x.result(tensor.Sum(nz, dims, false))
}

func methodDiff(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	n, dim := 1, -1
	var pre, app tensorOpt
	if err := runtime.UnpackArgs("diff", args, kwargs, "n?", &n, "dim?", &dim, "prepend?", &pre, "append?", &app); err != nil {
		return nil, err
	}
	if x.t.Dim() == 0 {
		return nil, runtime.Errorf("RuntimeError", "diff expects input to be at least one-dimensional")
	}
	d, err := normDim(dim, x.t.Dim())
	if err != nil {
		return nil, err
	}
	e := engineOf(th)
	t := x.t
	if pre.t != nil || app.t != nil {
		var parts []*T
		for _, p := range []*T{pre.t, t, app.t} {
			if p == nil {
				continue
			}
			if p.Dim() != t.Dim() {
				return nil, runtime.Errorf("RuntimeError", "diff expects prepend or append to be the same dimension as input")
			}
			parts = append(parts, p)
		}
		if t, err = e.Apply("cat", parts, autograd.Attrs{"dim": d}, func() (*T, error) { return tensor.Cat(parts, d) }); err != nil {
			return nil, err
		}
	}
	for i := 0; i < n; i++ {
		L := t.Shape()[d]
		if L == 0 {
			break
		}
		hi, err := narrowOp(e, t, d, 1, L-1)
		if err != nil {
			return nil, err
		}
		lo, err := narrowOp(e, t, d, 0, L-1)
		if err != nil {
			return nil, err
		}
		if t.DType() == tensor.Bool {
			t, err = tensor.LogicalXor(hi, lo)
		} else {
			t, err = applyBinary(e, "sub", tensor.Sub, hi, lo)
		}
		if err != nil {
			return nil, err
		}
	}
	if t == x.t {
		return x, nil
	}
	return x.result(t, nil)
}

func methodTake(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var index tensorArg
	if err := runtime.UnpackArgs("take", args, kwargs, "index", &index); err != nil {
		return nil, err
	}
	if index.t.DType() != tensor.I64 {
		return nil, runtime.Errorf("RuntimeError", "take(): Expected a long tensor for index, but got %s", kernels.TorchName(index.t.DType()))
	}
	n := int64(x.t.Numel())
	iv := index.t.ToInt64s()
	norm := make([]int64, len(iv))
	for i, v := range iv {
		if v < -n || v >= n {
			return nil, runtime.Errorf("IndexError", "out of range: tried to access index %d on a tensor of %d elements.", v, n)
		}
		if v < 0 {
			v += n
		}
		norm[i] = v
	}
	idx, err := tensor.FromInt64s(norm, index.t.Shape(), tensor.I64)
	if err != nil {
		return nil, err
	}
	e := engineOf(th)
	flat, err := reshapeOp(e, x.t, []int{-1})
	if err != nil {
		return nil, err
	}
	return x.result(advancedIndex(e, flat, []tensor.Index{tensor.Adv(idx)}))
}

func methodBincount(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var w tensorOpt
	minlength := 0
	if err := runtime.UnpackArgs("bincount", args, kwargs, "weights?", &w, "minlength?", &minlength); err != nil {
		return nil, err
	}
	dt := x.t.DType()
	if dt.IsFloat() || dt == tensor.Bool {
		return nil, notImplementedFor("bincount_cpu", dt)
	}
	if minlength < 0 {
		return nil, runtime.Errorf("RuntimeError", "minlength should be >= 0")
	}
	if x.t.Dim() != 1 {
		return nil, runtime.Errorf("RuntimeError", "bincount only supports 1-d non-negative integral inputs.")
	}
	vals := x.t.ToInt64s()
	size := int64(minlength)
	for _, v := range vals {
		if v < 0 {
			return nil, runtime.Errorf("RuntimeError", "bincount only supports 1-d non-negative integral inputs.")
		}
		size = max(size, v+1)
	}
	if w.t == nil {
		out := make([]int64, size)
		for _, v := range vals {
			out[v]++
		}
		return x.result(tensor.FromInt64s(out, []int{int(size)}, tensor.I64))
	}
	if w.t.Dim() != 1 || w.t.Numel() != len(vals) {
		return nil, runtime.Errorf("RuntimeError", "weights should be 1-d and have the same length as input")
	}
	out := make([]float64, size)
	wv := w.t.ToFloat64s()
	for i, v := range vals {
		out[v] += wv[i]
	}
	odt := tensor.F64
	if w.t.DType() == tensor.F32 {
		odt = tensor.F32
	}
	return x.result(tensor.FromFloat64s(out, []int{int(size)}, odt))
}

// ---- random fills and sampling ----

// randomFill copies r (f64 samples of x's shape) into x in place,
// recorded as copy_ so that x's version is bumped and a leaf requiring
// grad is refused outside no_grad, as PyTorch.
func randomFill(e *Engine, x *TensorValue, name string, r *T) (runtime.Value, error) {
	if !x.t.DType().IsFloat() {
		return nil, notImplementedFor(name+"_cpu", x.t.DType())
	}
	r, err := r.To(x.t.DType())
	if err != nil {
		return nil, err
	}
	if err := e.ApplyInplace("copy", x.t, []*T{r}, nil, func() error { return x.t.CopyInplace(r) }); err != nil {
		return nil, err
	}
	return x, nil
}

func methodUniform(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	from, to := 0.0, 1.0
	if err := runtime.UnpackArgs("uniform_", args, kwargs, "from?", &from, "to?", &to); err != nil {
		return nil, err
	}
	if from > to {
		return nil, runtime.Errorf("RuntimeError", "uniform_ expects to return a [from, to) range, but found from=%v > to=%v", from, to)
	}
	if !x.t.DType().IsFloat() {
		return nil, notImplementedFor("uniform_cpu", x.t.DType())
	}
	u, err := tensor.Uniform(stateOf(th).gen, x.t.Shape(), x.t.DType(), from, to)
	if err != nil {
		return nil, err
	}
	return randomFill(engineOf(th), x, "uniform", u)
}

func methodNormalInplace(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	mean, std := 0.0, 1.0
	if err := runtime.UnpackArgs("normal_", args, kwargs, "mean?", &mean, "std?", &std); err != nil {
		return nil, err
	}
	if std < 0 {
		return nil, runtime.Errorf("RuntimeError", "normal expects std >= 0.0, but found std %v", std)
	}
	if !x.t.DType().IsFloat() {
		return nil, notImplementedFor("normal_cpu", x.t.DType())
	}
	r, err := tensor.Normal(stateOf(th).gen, x.t.Shape(), x.t.DType(), mean, std)
	if err != nil {
		return nil, err
	}
	return randomFill(engineOf(th), x, "normal", r)
}

// normalSamples returns mean + std * N(0, 1) in f64 for the given shape
// (mean and std broadcast to it).
func normalSamples(g *tensor.Generator, shape []int, mean, std *T) (*T, error) {
	z, err := tensor.Randn(g, shape, tensor.F64)
	if err != nil {
		return nil, err
	}
	if z, err = tensor.Mul(z, std); err != nil {
		return nil, err
	}
	return tensor.Add(z, mean)
}

func methodBernoulli(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var p floatOpt
	var gen runtime.Value = runtime.None
	if err := runtime.UnpackArgs("bernoulli", args, kwargs, "p?", &p, "generator?", &gen); err != nil {
		return nil, err
	}
	dt := x.t.DType()
	if !dt.IsFloat() {
		if p.ok {
			return nil, notImplementedFor("bernoulli_scalar_cpu_", dt)
		}
		return nil, notImplementedFor("bernoulli_tensor_cpu_p_", dt)
	}
	u, err := tensor.Rand(stateOf(th).gen, x.t.Shape(), tensor.F64)
	if err != nil {
		return nil, err
	}
	uv := u.ToFloat64s()
	out := make([]float64, len(uv))
	if p.ok {
		if !(p.v >= 0 && p.v <= 1) {
			return nil, runtime.Errorf("RuntimeError", "bernoulli_ expects p to be in [0, 1], but got p=%v", p.v)
		}
		for i, r := range uv {
			if r < p.v {
				out[i] = 1
			}
		}
	} else {
		for i, q := range x.t.ToFloat64s() {
			if !(q >= 0 && q <= 1) {
				return nil, runtime.Errorf("RuntimeError", "Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
			}
			if uv[i] < q {
				out[i] = 1
			}
		}
	}
	return x.result(tensor.FromFloat64s(out, x.t.Shape(), dt))
}

func methodMultinomial(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var n int
	replacement := false
	var gen runtime.Value = runtime.None
	if err := runtime.UnpackArgs("multinomial", args, kwargs, "num_samples", &n, "replacement?", &replacement, "generator?", &gen); err != nil {
		return nil, err
	}
	dt := x.t.DType()
	if !dt.IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "multinomial only supports floating-point dtypes for input, got: %s", kernels.TorchName(dt))
	}
	if x.t.Dim() != 1 && x.t.Dim() != 2 {
		return nil, runtime.Errorf("RuntimeError", "prob_dist must be 1 or 2 dim")
	}
	if n <= 0 {
		return nil, runtime.Errorf("RuntimeError", "cannot sample n_sample <= 0 samples")
	}
	cats := x.t.Shape()[x.t.Dim()-1]
	if !replacement && n > cats {
		return nil, runtime.Errorf("RuntimeError", "cannot sample n_sample > prob_dist.size(-1) samples without replacement")
	}
	rows := 1
	if x.t.Dim() == 2 {
		rows = x.t.Shape()[0]
	}
	w := x.t.ToFloat64s()
	for _, v := range w {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, runtime.Errorf("RuntimeError", "probability tensor contains either `inf`, `nan` or element < 0")
		}
	}
	g := stateOf(th).gen
	out := make([]int64, 0, rows*n)
	cum := make([]float64, cats)
	for r := 0; r < rows; r++ {
		row := append([]float64(nil), w[r*cats:(r+1)*cats]...)
		total := 0.0
		for _, v := range row {
			total += v
		}
		if !(total > 0) {
			return nil, runtime.Errorf("RuntimeError", "invalid multinomial distribution (sum of probabilities <= 0)")
		}
		taken := make([]bool, cats)
		sum := 0.0
		for s := 0; s < n; s++ {
			// the running sums change only when a draw removes a category
			if s == 0 || !replacement {
				sum = 0
				for i, v := range row {
					sum += v
					cum[i] = sum
				}
			}
			var k int
			if sum > 0 {
				u := g.Float64() * sum
				k = sort.Search(cats, func(i int) bool { return cum[i] > u })
				for k < cats && (row[k] == 0) { // u landed on a zero-width edge
					k++
				}
				if k >= cats {
					k = cats - 1
					for row[k] == 0 {
						k--
					}
				}
			} else {
				// without replacement, only zero weights are left: PyTorch
				// then picks among the untaken categories uniformly
				var left []int
				for i := range taken {
					if !taken[i] {
						left = append(left, i)
					}
				}
				k = left[min(int(g.Float64()*float64(len(left))), len(left)-1)]
			}
			out = append(out, int64(k))
			if !replacement {
				row[k] = 0
				taken[k] = true
			}
		}
	}
	shape := []int{n}
	if x.t.Dim() == 2 {
		shape = []int{rows, n}
	}
	return x.result(tensor.FromInt64s(out, shape, tensor.I64))
}

func builtinNormal(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var mean, std runtime.Value
	var size runtime.Value = runtime.None
	var o creationOpts
	var gen runtime.Value = runtime.None
	std = runtime.Float(1)
	if err := runtime.UnpackArgs("normal", args, kwargs, append([]any{"mean", &mean, "std?", &std, "size?", &size, "generator?", &gen}, o.pairs()...)...); err != nil {
		return nil, err
	}
	mt, ok1 := operand(mean)
	st, ok2 := operand(std)
	if !ok1 || !ok2 || isBool(mean) || isBool(std) {
		return nil, runtime.Errorf("TypeError", "normal(): mean and std must be tensors or numbers")
	}
	_, mTensor := mean.(*TensorValue)
	_, sTensor := std.(*TensorValue)
	var shape []int
	var dt tensor.DType
	switch {
	case !mTensor && !sTensor:
		s, ok := runtime.AsInts(size)
		if size == runtime.None || !ok {
			return nil, runtime.Errorf("TypeError", "normal(): with a number mean and std, size (a list of ints) is required")
		}
		if err := checkSizes(s); err != nil {
			return nil, err
		}
		shape, dt = s, o.dt(tensor.DefaultFloat)
	default:
		if size != runtime.None {
			return nil, runtime.Errorf("TypeError", "normal(): size is only allowed when mean and std are numbers")
		}
		var err error
		if shape, err = tensor.BroadcastShapes(mt.Shape(), st.Shape()); err != nil {
			return nil, err
		}
		dt = tensor.ResultType(mt, st)
		if !dt.IsFloat() {
			return nil, runtime.Errorf("RuntimeError", "normal expects floating-point mean and std, got %s", kernels.TorchName(dt))
		}
		if o.dtype.ok {
			dt = o.dtype.dt
		}
	}
	if !sTensor {
		if s := st.FlatFloat64(0); s < 0 {
			return nil, runtime.Errorf("RuntimeError", "normal expects std >= 0.0, but found std %v", s)
		}
	} else {
		for _, s := range st.ToFloat64s() {
			if s < 0 {
				return nil, runtime.Errorf("RuntimeError", "normal expects all elements of std >= 0.0")
			}
		}
	}
	r, err := normalSamples(stateOf(th).gen, shape, mt, st)
	if err != nil {
		return nil, err
	}
	if r, err = r.To(dt); err != nil {
		return nil, err
	}
	return o.finish(th, r)
}

// ---- searching ----

// searchsorted returns, for each element of values, the insertion index
// into the innermost rows of seq (shared by all values when seq is 1-D).
func searchsorted(seq, values *T, right, int32Out bool) (*T, error) {
	if seq.Dim() == 0 {
		return nil, runtime.Errorf("RuntimeError", "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension")
	}
	if seq.Dim() > 1 {
		vs, ss := values.Shape(), seq.Shape()
		if len(vs) != len(ss) || !sameShape(vs[:len(vs)-1], ss[:len(ss)-1]) {
			return nil, runtime.Errorf("RuntimeError", "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor %s and input value tensor %s", intList(ss), intList(vs))
		}
	}
	L := seq.Shape()[seq.Dim()-1]
	inner := 1
	if values.Dim() > 0 {
		inner = values.Shape()[values.Dim()-1]
	}
	n := values.Numel()
	out := make([]int64, n)
	rowOf := func(i int) int {
		if seq.Dim() == 1 {
			return 0
		}
		return i / inner
	}
	intCmp := !seq.DType().IsFloat() && !values.DType().IsFloat()
	if intCmp {
		sv, vv := seq.ToInt64s(), values.ToInt64s()
		for i, v := range vv {
			row := sv[rowOf(i)*L : (rowOf(i)+1)*L]
			if right {
				out[i] = int64(sort.Search(L, func(j int) bool { return row[j] > v }))
			} else {
				out[i] = int64(sort.Search(L, func(j int) bool { return row[j] >= v }))
			}
		}
	} else {
		sv, vv := seq.ToFloat64s(), values.ToFloat64s()
		for i, v := range vv {
			row := sv[rowOf(i)*L : (rowOf(i)+1)*L]
			// ATen's cus_lower_bound / cus_upper_bound: a comparison with
			// NaN is false, so a NaN value (or a NaN boundary met on the
			// way) moves the search right: searchsorted(.., nan) is L.
			lo, hi := 0, L
			for lo < hi {
				mid := lo + (hi-lo)/2
				if (right && !(row[mid] > v)) || (!right && !(row[mid] >= v)) {
					lo = mid + 1
				} else {
					hi = mid
				}
			}
			out[i] = int64(lo)
		}
	}
	dt := tensor.I64
	if int32Out {
		dt = tensor.I32
	}
	return tensor.FromInt64s(out, values.Shape(), dt)
}

func builtinSearchsorted(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var seq tensorArg
	var values operandArg
	out32, right := false, false
	var side, sorter runtime.Value = runtime.None, runtime.None
	if err := runtime.UnpackArgs("searchsorted", args, kwargs, "sorted_sequence", &seq, "values", &values, "out_int32?", &out32, "right?", &right, "side?", &side, "sorter?", &sorter); err != nil {
		return nil, err
	}
	if sorter != runtime.None {
		return nil, runtime.Errorf("NotImplementedError", "searchsorted(): sorter= is not supported; sort the sequence first")
	}
	if s, ok := side.(runtime.String); ok {
		switch s {
		case "left":
			if right {
				return nil, runtime.Errorf("RuntimeError", "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True")
			}
		case "right":
			right = true
		default:
			return nil, runtime.Errorf("RuntimeError", "torch.searchsorted(): side can only be 'left' or 'right' but got %s", string(s))
		}
	}
	r, err := searchsorted(seq.t, values.t, right, out32)
	return tensorResult(th, r, err)
}

func builtinBucketize(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var input operandArg
	var bounds tensorArg
	out32, right := false, false
	if err := runtime.UnpackArgs("bucketize", args, kwargs, "input", &input, "boundaries", &bounds, "out_int32?", &out32, "right?", &right); err != nil {
		return nil, err
	}
	if bounds.t.Dim() != 1 {
		return nil, runtime.Errorf("RuntimeError", "boundaries tensor must be 1 dimension, but got dim(%d)", bounds.t.Dim())
	}
	r, err := searchsorted(bounds.t, input.t, right, out32)
	return tensorResult(th, r, err)
}

// ---- distances and index helpers ----

// builtinCdist composes x1.unsqueeze(-2) - x2.unsqueeze(-3) and a p-norm
// over the last dim (PyTorch's direct kernel; its matmul shortcut for
// large p=2 inputs is not used, so results are at least as accurate).
func builtinCdist(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x1, x2 tensorArg
	p := 2.0
	var mode runtime.Value = runtime.None
	if err := runtime.UnpackArgs("cdist", args, kwargs, "x1", &x1, "x2", &x2, "p?", &p, "compute_mode?", &mode); err != nil {
		return nil, err
	}
	for i, x := range []*T{x1.t, x2.t} {
		if x.Dim() < 2 {
			return nil, runtime.Errorf("RuntimeError", "cdist only supports at least 2D tensors, X%d got: %dD", i+1, x.Dim())
		}
		if !x.DType().IsFloat() {
			return nil, runtime.Errorf("RuntimeError", "cdist only supports floating-point dtypes, X%d got: %s", i+1, kernels.TorchName(x.DType()))
		}
	}
	if p < 0 {
		return nil, runtime.Errorf("RuntimeError", "cdist only supports non-negative p values")
	}
	c1, c2 := x1.t.Shape()[x1.t.Dim()-1], x2.t.Shape()[x2.t.Dim()-1]
	if c1 != c2 {
		return nil, runtime.Errorf("RuntimeError", "X1 and X2 must have the same number of columns. X1: %d X2: %d", c1, c2)
	}
	e := engineOf(th)
	a, err := unsqueezeOp(e, x1.t, -2)
	if err != nil {
		return nil, err
	}
	bb, err := unsqueezeOp(e, x2.t, -3)
	if err != nil {
		return nil, err
	}
	d, err := applyBinary(e, "sub", tensor.Sub, a, bb)
	if err != nil {
		return nil, err
	}
	last := []int{d.Dim() - 1}
	r, err := e.Apply("norm", []*T{d}, autograd.Attrs{"p": p, "dim": last, "keepdim": false}, func() (*T, error) { return tensor.Norm(d, p, last, false) })
	return tensorResult(th, r, err)
}

func triIndices(name string, upper bool) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var row, col int
		offset := 0
		var o creationOpts
		if err := runtime.UnpackArgs(name, args, kwargs, append([]any{"row", &row, "col", &col, "offset?", &offset}, o.pairs()...)...); err != nil {
			return nil, err
		}
		if row < 0 {
			return nil, runtime.Errorf("RuntimeError", "row must be non-negative, got%d", row)
		}
		if col < 0 {
			return nil, runtime.Errorf("RuntimeError", "col must be non-negative, got%d", col)
		}
		var rs, cs []int64
		for i := 0; i < row; i++ {
			for j := 0; j < col; j++ {
				if (!upper && j-i <= offset) || (upper && j-i >= offset) {
					rs = append(rs, int64(i))
					cs = append(cs, int64(j))
				}
			}
		}
		t, err := tensor.FromInt64s(append(rs, cs...), []int{2, len(rs)}, o.dt(tensor.I64))
		if err != nil {
			return nil, err
		}
		return o.finish(th, t)
	}
}

// ---- running extrema and k-th value ----

// cumExtremum implements cummax/cummin: PyTorch's rule is that element x
// replaces the running value m when x is NaN, or m is not NaN and
// x >= m (cummax) / x <= m (cummin), so ties and NaNs take the latest
// index. Values are recorded with a scatter-add backward at the indices.
func cumExtremum(name string) methodFn {
	return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var dim int
		if err := runtime.UnpackArgs(name, args, kwargs, "dim", &dim); err != nil {
			return nil, err
		}
		e := engineOf(th)
		isMax := name == "cummax"
		v, i, err := as1D(e, x.t, func(t *T, d int) (*T, *T, error) {
			shape := t.Shape()
			st := rowMajorStrides(shape)
			L, stride := shape[d], st[d]
			idx := make([]int64, t.Numel())
			if t.DType().IsFloat() {
				vals := t.ToFloat64s()
				for base := range vals {
					if (base/stride)%L != 0 {
						continue
					}
					var m float64
					var mi int64
					for k := 0; k < L; k++ {
						xv := vals[base+k*stride]
						if k == 0 || xv != xv || (m == m && ((isMax && xv >= m) || (!isMax && xv <= m))) {
							m, mi = xv, int64(k)
						}
						idx[base+k*stride] = mi
					}
				}
			} else {
				vals := t.ToInt64s()
				for base := range vals {
					if (base/stride)%L != 0 {
						continue
					}
					var m, mi int64
					for k := 0; k < L; k++ {
						xv := vals[base+k*stride]
						if k == 0 || (isMax && xv >= m) || (!isMax && xv <= m) {
							m, mi = xv, int64(k)
						}
						idx[base+k*stride] = mi
					}
				}
			}
			it, err := tensor.FromInt64s(idx, shape, tensor.I64)
			if err != nil {
				return nil, nil, err
			}
			v, err := takeAlongOp(e, "Cum"+name[3:]+"Backward", t, d, it, nil)
			return v, it, err
		}, dim)
		if err != nil {
			return nil, err
		}
		return valuesIndices(name, x.eng, v, i), nil
	}
}

func methodKthvalue(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var k int
	dim, keep := -1, false
	if err := runtime.UnpackArgs("kthvalue", args, kwargs, "k", &k, "dim?", &dim, "keepdim?", &keep); err != nil {
		return nil, err
	}
	e := engineOf(th)
	v, i, err := as1D(e, x.t, func(t *T, d int) (*T, *T, error) {
		if k < 1 || k > t.Shape()[d] {
			return nil, nil, runtime.Errorf("RuntimeError", "kthvalue(): selected number k out of range for dimension %d", d)
		}
		_, idx, err := tensor.Sort(t, d, false)
		if err != nil {
			return nil, nil, err
		}
		if idx, err = idx.Narrow(d, k-1, 1); err != nil {
			return nil, nil, err
		}
		idx = idx.Contiguous()
		v, err := takeAlongOp(e, "KthvalueBackward", t, d, idx, nil)
		if err != nil {
			return nil, nil, err
		}
		if !keep || x.t.Dim() == 0 {
			if v, err = squeezeOp(e, v, []int{d}); err != nil {
				return nil, nil, err
			}
			autograd.SetGradFnName(v, "KthvalueBackward0")
			if idx, err = idx.Squeeze(d); err != nil {
				return nil, nil, err
			}
		}
		return v, idx, nil
	}, dim)
	if err != nil {
		return nil, err
	}
	return valuesIndices("kthvalue", x.eng, v, i), nil
}
