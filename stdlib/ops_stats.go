package stdlib

import (
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// Statistics and set ops PyTorch users reach for that tsr lacked: mode,
// msort, dist, isin, cov and corrcoef (PyTorch 1.13 signatures and
// results). mode picks its values with takeAlongOp (gradient to the
// position read, as ModeBackward0); dist, cov and corrcoef are composed
// of recorded ops (differentiable); isin is a bool result (not
// differentiable).

func init() {
	defMethodFunc("mode", "mode(dim=-1, keepdim=false): the named tuple (values, indices) of the most frequent value along dim; ties go to the smallest value; the index is the one PyTorch 1.13's CPU kernel reports (the last of the run after libstdc++'s unstable std::sort: the last occurrence for up to 16 elements), and NaNs never count as equal.", methodMode)
	defMethodFunc("msort", "msort(): the values sorted along dim 0 (sort(dim=0).values).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("msort", args, kwargs); err != nil {
			return nil, err
		}
		r, err := callMethod(th, x, "sort", []runtime.Value{runtime.MakeInt(0)}, nil)
		if err != nil {
			return nil, err
		}
		return r.(*runtime.NamedTuple).Tuple[0], nil
	})
	defMethodFunc("dist", "dist(other, p=2): the p-norm of (self - other), broadcast; a 0-d floating tensor (integer inputs are a RuntimeError, as in PyTorch).", nodeNamed("DistBackward0", methodDist))
	defMethodFunc("cov", "cov(correction=1, fweights=none, aweights=none): the covariance matrix of the variables in the rows of a 1-D or 2-D input (columns are observations); fweights are integer frequency weights, aweights float observation weights, as torch.cov. A 1-D input gives a 0-d result; integer inputs are computed in the default float dtype.", methodCov)
	defMethodFunc("corrcoef", "corrcoef(): the Pearson correlation coefficients of the rows of a 1-D or 2-D input (cov normalised by the standard deviations, clamped to [-1, 1]), as torch.corrcoef.", methodCorrcoef)
	defGlobal("isin", "isin(elements, test_elements, assume_unique=false, invert=false): a bool tensor of elements' shape, true where the element is in test_elements (either may be a number); values compare after type promotion, NaN is in nothing.", builtinIsin)
}

// methodMode is torch.mode: per slice along dim, the value with the most
// occurrences (the smallest on ties) and the index of its last occurrence.
// Algorithm: a stable ascending sort of each slice, then one pass over
// the runs of equal values (NaN != NaN, so each NaN is a run of one).
func methodMode(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	dim, keep := -1, false
	if err := runtime.UnpackArgs("mode", args, kwargs, "dim?", &dim, "keepdim?", &keep); err != nil {
		return nil, err
	}
	e := engineOf(th)
	v, i, err := as1D(e, x.t, func(t *T, d int) (*T, *T, error) {
		return modeAlong(e, t, d, keep && x.t.Dim() > 0)
	}, dim)
	if err != nil {
		return nil, err
	}
	return valuesIndices("mode", x.eng, v, i), nil
}

func modeAlong(e *Engine, x *T, dim int, keep bool) (*T, *T, error) {
	nd := x.Dim()
	n := x.Shape()[dim]
	if n == 0 {
		return nil, nil, runtime.Errorf("IndexError", "mode(): Expected reduction dim %d to have non-zero size.", dim)
	}
	last, err := x.Movedim([]int{dim}, []int{nd - 1})
	if err != nil {
		return nil, nil, err
	}
	// ATen's mode kernel: each row's (value, index) pairs through
	// libstdc++'s std::sort by value, then the index of the last pair of
	// the first longest run (NaN != NaN: each NaN is a run of its own)
	rows := x.Numel() / n
	idx := make([]int64, rows)
	order := make([]int64, n)
	pick := func(r int, equal func(a, b int) bool) {
		best, run, bestRun := 0, 0, 0
		for i := 0; i < n; i++ {
			run++
			if i == n-1 || !equal(i, i+1) {
				if run > bestRun {
					best, bestRun = i, run
				}
				run = 0
			}
		}
		idx[r] = order[best]
	}
	reset := func() {
		for i := range order {
			order[i] = int64(i)
		}
	}
	if x.DType() == tensor.I64 {
		all := last.Contiguous().ToInt64s()
		for r := 0; r < rows; r++ {
			ks := all[r*n : (r+1)*n]
			reset()
			stdSortPairs(ks, order)
			pick(r, func(a, b int) bool { return ks[a] == ks[b] })
		}
	} else {
		all := last.Contiguous().ToFloat64s()
		for r := 0; r < rows; r++ {
			ks := all[r*n : (r+1)*n]
			reset()
			stdSortPairs(ks, order)
			pick(r, func(a, b int) bool { return ks[a] == ks[b] })
		}
	}
	ishape := append(append([]int(nil), last.Shape()[:nd-1]...), 1)
	it, err := tensor.FromInt64s(idx, ishape, tensor.I64)
	if err != nil {
		return nil, nil, err
	}
	if it, err = it.Movedim([]int{nd - 1}, []int{dim}); err != nil {
		return nil, nil, err
	}
	it = it.Contiguous()
	v, err := takeAlongOp(e, "ModeBackward0", x, dim, it, nil)
	if err != nil {
		return nil, nil, err
	}
	if !keep {
		if v, err = squeezeOp(e, v, []int{dim}); err != nil {
			return nil, nil, err
		}
		autograd.SetGradFnName(v, "ModeBackward0")
		if it, err = it.Squeeze(dim); err != nil {
			return nil, nil, err
		}
	}
	return v, it, nil
}

func methodDist(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var other runtime.Value
	var p runtime.Value = runtime.MakeInt(2)
	if err := runtime.UnpackArgs("dist", args, kwargs, "other", &other, "p?", &p); err != nil {
		return nil, err
	}
	if _, ok := other.(*TensorValue); !ok {
		return nil, runtime.Errorf("TypeError", "dist(): argument 'other' (position 1) must be Tensor, not %s", other.Type())
	}
	diff, err := callMethod(th, x, "sub", []runtime.Value{other}, nil)
	if err != nil {
		return nil, err
	}
	if dt := diff.(*TensorValue).t.DType(); !dt.IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "norm(): input dtype should be either floating point or complex. Got %s instead.", dt.TorchName())
	}
	return callMethod(th, diff, "norm", []runtime.Value{p}, nil)
}

// covOf is torch.cov (aten/src/ATen/native/Correlation.cpp): with w the
// product of the weights given, avg = sum(x*w, 1)/sum(w), the normaliser
// sum(w) - correction (or sum(w) - correction*sum(w*aweights)/sum(w) with
// aweights), clamped at 0, and cov = (x-avg) * w @ (x-avg)^T / norm.
func covOf(th *runtime.Thread, x *TensorValue, correction runtime.Value, fw, aw runtime.Value) (runtime.Value, error) {
	if x.t.Dim() > 2 {
		return nil, runtime.Errorf("RuntimeError", "cov(): expected input to have two or fewer dimensions but got an input with %d dimensions", x.t.Dim())
	}
	if x.t.DType() == tensor.Bool {
		return nil, runtime.Errorf("RuntimeError", "cov(): bool dtype is not supported for input")
	}
	m := func(recv runtime.Value, name string, args ...runtime.Value) (runtime.Value, error) {
		return callMethod(th, recv, name, args, nil)
	}
	var in runtime.Value = x
	var err error
	if !x.t.DType().IsFloat() {
		if in, err = m(x, "to", &DTypeValue{dt: tensor.F32}); err != nil {
			return nil, err
		}
	}
	if x.t.Dim() < 2 {
		if in, err = m(in, "view", intList([]int{1, -1})); err != nil {
			return nil, err
		}
	}
	nObs := in.(*TensorValue).t.Shape()[1]
	var w runtime.Value = runtime.None
	for k, wv := range []runtime.Value{fw, aw} {
		if wv == runtime.None {
			continue
		}
		wt, ok := wv.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "cov(): argument '%s' must be Tensor, not %s", [2]string{"fweights", "aweights"}[k], wv.Type())
		}
		name := [2]string{"fweights", "aweights"}[k]
		// ATen's order: rank, dtype, numel, sign
		if wt.t.Dim() > 1 {
			return nil, runtime.Errorf("RuntimeError", "cov(): expected %s to have one or fewer dimensions but got %s with %d dimensions", name, name, wt.t.Dim())
		}
		if k == 0 && !wt.t.DType().IsInt() {
			return nil, runtime.Errorf("RuntimeError", "cov(): expected fweights to have integral dtype but got fweights with %s dtype", wt.t.DType().TorchName())
		}
		if k == 1 && !wt.t.DType().IsFloat() {
			return nil, runtime.Errorf("RuntimeError", "cov(): expected aweights to have floating point dtype but got aweights with %s dtype", wt.t.DType().TorchName())
		}
		if wt.t.Numel() != nObs {
			return nil, runtime.Errorf("RuntimeError", "cov(): expected %s to have the same numel as there are observations in the input but got %d != %d", name, wt.t.Numel(), nObs)
		}
		for _, v := range wt.t.ToFloat64s() {
			if !(v >= 0) { // ATen: min().ge(0), so a NaN weight fails too
				return nil, runtime.Errorf("RuntimeError", "cov(): %s cannot be negative", name)
			}
		}
		if w == runtime.None {
			w = wv
		} else if w, err = m(w, "mul", wv); err != nil {
			return nil, err
		}
	}
	var avg, wSum, norm runtime.Value
	if w == runtime.None {
		if avg, err = m(in, "mean", runtime.MakeInt(1)); err != nil {
			return nil, err
		}
		wSum = runtime.MakeInt(int64(nObs))
		if norm, err = runtime.Binary(runtime.MINUS, wSum, correction); err != nil {
			return nil, err
		}
	} else {
		if wSum, err = m(w, "sum"); err != nil {
			return nil, err
		}
		if wSum.(*TensorValue).t.FlatFloat64(0) == 0 {
			return nil, runtime.Errorf("RuntimeError", "cov(): weights sum to zero, can't be normalized")
		}
		xw, err := m(in, "mul", w)
		if err != nil {
			return nil, err
		}
		if xw, err = m(xw, "sum", runtime.MakeInt(1)); err != nil {
			return nil, err
		}
		if avg, err = m(xw, "div", wSum); err != nil {
			return nil, err
		}
		if aw == runtime.None {
			norm, err = runtime.Binary(runtime.MINUS, wSum, correction)
		} else {
			var s runtime.Value
			if s, err = m(w, "mul", aw); err == nil {
				if s, err = m(s, "sum"); err == nil {
					if s, err = m(s, "mul", correction); err == nil {
						if s, err = m(s, "div", wSum); err == nil {
							norm, err = runtime.Binary(runtime.MINUS, wSum, s)
						}
					}
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	// a non-positive normaliser is clamped to 0 (the result is inf/nan)
	if nt, ok := norm.(*TensorValue); ok {
		if norm, err = m(nt, "clamp", runtime.MakeInt(0)); err != nil {
			return nil, err
		}
	} else if f, _ := runtime.AsFloat(norm); f < 0 {
		norm = runtime.MakeInt(0)
	}
	avgCol, err := m(avg, "unsqueeze", runtime.MakeInt(1))
	if err != nil {
		return nil, err
	}
	xm, err := m(in, "sub", avgCol)
	if err != nil {
		return nil, err
	}
	lhs := xm
	if w != runtime.None {
		if lhs, err = m(xm, "mul", w); err != nil {
			return nil, err
		}
	}
	xt, err := m(xm, "t")
	if err != nil {
		return nil, err
	}
	c, err := m(lhs, "mm", xt)
	if err != nil {
		return nil, err
	}
	if c, err = m(c, "div", norm); err != nil {
		return nil, err
	}
	return m(c, "squeeze")
}

func methodCov(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var correction runtime.Value = runtime.MakeInt(1)
	var fw, aw runtime.Value = runtime.None, runtime.None
	if err := runtime.UnpackArgs("cov", args, kwargs, "correction?", &correction, "fweights?", &fw, "aweights?", &aw); err != nil {
		return nil, err
	}
	return covOf(th, x, correction, fw, aw)
}

// methodCorrcoef is torch.corrcoef: cov / (stddev_i * stddev_j), clamped
// to [-1, 1]; a 0-d covariance gives c / c.
func methodCorrcoef(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	if err := runtime.UnpackArgs("corrcoef", args, kwargs); err != nil {
		return nil, err
	}
	m := func(recv runtime.Value, name string, args ...runtime.Value) (runtime.Value, error) {
		return callMethod(th, recv, name, args, nil)
	}
	c, err := covOf(th, x, runtime.MakeInt(1), runtime.None, runtime.None)
	if err != nil {
		return nil, err
	}
	if c.(*TensorValue).t.Dim() == 0 {
		return m(c, "div", c)
	}
	d, err := m(c, "diagonal")
	if err != nil {
		return nil, err
	}
	sd, err := m(d, "sqrt")
	if err != nil {
		return nil, err
	}
	col, err := m(sd, "unsqueeze", runtime.MakeInt(1))
	if err != nil {
		return nil, err
	}
	row, err := m(sd, "unsqueeze", runtime.MakeInt(0))
	if err != nil {
		return nil, err
	}
	if c, err = m(c, "div", col); err != nil {
		return nil, err
	}
	if c, err = m(c, "div", row); err != nil {
		return nil, err
	}
	return m(c, "clamp", runtime.MakeInt(-1), runtime.MakeInt(1))
}

// builtinIsin is torch.isin: elements and test_elements compare after
// type promotion (integers exactly, as int64, unless either side is
// floating); the result is a new bool tensor of elements' shape.
func builtinIsin(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var elems, tests runtime.Value
	unique, invert := false, false
	if err := runtime.UnpackArgs("isin", args, kwargs, "elements", &elems, "test_elements", &tests, "assume_unique?", &unique, "invert?", &invert); err != nil {
		return nil, err
	}
	et, eok := elems.(*TensorValue)
	tt, tok := tests.(*TensorValue)
	if !eok && !tok {
		return nil, runtime.Errorf("TypeError", "isin() received an invalid combination of arguments: at least one of elements and test_elements must be a Tensor")
	}
	for _, v := range []runtime.Value{elems, tests} { // ATen's isin kernels take no bool
		if t, ok := v.(*TensorValue); (ok && t.t.DType() == tensor.Bool) || isBool(v) {
			return nil, runtime.Errorf("RuntimeError", "Unsupported input type encountered for isin(): Bool")
		}
	}
	var err error
	var ets, tts *T
	if eok {
		ets = et.t
	}
	if tok {
		tts = tt.t
	}
	if ets == nil {
		if ets, err = valueTensor(elems, tensor.ResultTypeScalar(tts.DType(), scalarKind(elems))); err != nil {
			return nil, err
		}
	}
	if tts == nil {
		if tts, err = valueTensor(tests, tensor.ResultTypeScalar(ets.DType(), scalarKind(tests))); err != nil {
			return nil, err
		}
	}
	out := make([]float64, ets.Numel())
	if !ets.DType().IsFloat() && !tts.DType().IsFloat() {
		set := map[int64]bool{}
		for _, v := range tts.ToInt64s() {
			set[v] = true
		}
		for i, v := range ets.ToInt64s() {
			if set[v] != invert {
				out[i] = 1
			}
		}
	} else {
		// compare in the promoted floating dtype (f32 rounding included)
		dt := tensor.ResultType(ets, tts)
		ec, err := ets.To(dt)
		if err != nil {
			return nil, err
		}
		tc, err := tts.To(dt)
		if err != nil {
			return nil, err
		}
		set := map[float64]bool{}
		for _, v := range tc.ToFloat64s() {
			if !math.IsNaN(v) {
				set[v+0] = true // -0.0 and 0.0 are one key
			}
		}
		for i, v := range ec.ToFloat64s() {
			if set[v+0] != invert {
				out[i] = 1
			}
		}
	}
	r, err := tensor.FromFloat64s(out, ets.Shape(), tensor.Bool)
	if err != nil {
		return nil, err
	}
	return wrap(engineOf(th), r), nil
}

// scalarKind is the PyTorch wrapped-number kind of a tsr number (a list or
// other value counts as a float).
func scalarKind(v runtime.Value) tensor.ScalarKind {
	switch v.(type) {
	case runtime.Bool:
		return tensor.BoolScalar
	case runtime.Int:
		return tensor.IntScalar
	}
	return tensor.FloatScalar
}
