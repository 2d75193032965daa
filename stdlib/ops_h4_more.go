package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// diag_embed, block_diag, vander and trapezoid/trapz, composed of
// recorded ops as ATen composes them (so they are differentiable), the
// result's node renamed to PyTorch's where PyTorch records one node
// (DiagEmbedBackward0, BlockDiagBackward0).

func init() {
	defMethodFunc("diag_embed", "diag_embed(offset=0, dim1=-2, dim2=-1): a tensor whose diagonals (offset, in the plane of the new dims dim1 and dim2) hold the last dim of self: shape [..., n] gives n + |offset| along dim1 and dim2, zeros elsewhere. grad_fn DiagEmbedBackward0.", methodDiagEmbed)
	defGlobal("block_diag", "block_diag(*tensors): the block-diagonal matrix of the 0-, 1- or 2-D tensors given (a 0-d tensor is a 1x1 block, a 1-D one a 1xn row), in their promoted dtype. grad_fn BlockDiagBackward0.", builtinBlockDiag)
	defGlobal("vander", "vander(x, N=none, increasing=false): the Vandermonde matrix of the 1-D x, [len(x), N] (N defaults to len(x)): columns x**(N-1), ..., x**0 (x**0 first when increasing); integer and bool inputs give i64. Built as ATen does (a cumulative product of x, flipped).", builtinVander)
	defGlobal("trapezoid", "trapezoid(y, x=none, *, dx=none, dim=-1): the trapezoidal rule integral of y along dim, with the sample points x (1-D of y's size along dim, or broadcastable to y) or the constant spacing dx (default 1). An empty dim gives zeros.", builtinTrapezoid("trapezoid"))
	defGlobal("trapz", "trapz(y, x=none, *, dx=none, dim=-1): the same as trapezoid.", builtinTrapezoid("trapz"))
}

func iv(i int) runtime.Value { return runtime.Int(i) }

func methodDiagEmbed(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	offset, d1, d2 := 0, -2, -1
	if err := runtime.UnpackArgs("diag_embed", args, kwargs, "offset?", &offset, "dim1?", &d1, "dim2?", &d2); err != nil {
		return nil, err
	}
	nd := x.t.Dim() + 1
	n1, err := normDim(d1, nd)
	if err != nil {
		return nil, err
	}
	n2, err := normDim(d2, nd)
	if err != nil {
		return nil, err
	}
	if n1 == n2 {
		return nil, runtime.Errorf("RuntimeError", "diagonal dimensions cannot be identical %d, %d", d1, d2)
	}
	if x.t.Dim() == 0 {
		return nil, runtime.Errorf("IndexError", "Dimension out of range (expected to be in range of [-1, 0], but got -1)")
	}
	shape := x.t.Shape()
	m := shape[len(shape)-1] + max(offset, -offset)
	out := make([]int, 0, nd)
	batch := shape[:len(shape)-1]
	for i, b := 0, 0; i < nd; i++ {
		if i == n1 || i == n2 {
			out = append(out, m)
		} else {
			out = append(out, batch[b])
			b++
		}
	}
	z, err := tensor.Zeros(out, x.t.DType())
	if err != nil {
		return nil, err
	}
	zv := wrap(x.eng, z)
	d, err := callMethod(th, zv, "diagonal", []runtime.Value{iv(offset), iv(n1), iv(n2)}, nil)
	if err != nil {
		return nil, err
	}
	if _, err := callMethod(th, d, "copy_", []runtime.Value{x}, nil); err != nil {
		return nil, err
	}
	autograd.SetGradFnName(zv.t, "DiagEmbedBackward0")
	return zv, nil
}

func builtinBlockDiag(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	if len(kwargs) > 0 {
		return nil, runtime.Errorf("TypeError", "block_diag() got an unexpected keyword argument '%s'", kwargs[0].Name)
	}
	ts := make([]*TensorValue, len(args))
	rows, cols := 0, 0
	var dt tensor.DType = tensor.F32
	eng := engineOf(th)
	for i, a := range args {
		t, ok := a.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "block_diag(): argument 'tensors' must be tuple of Tensors, not %s", a.Type())
		}
		if t.t.Dim() > 2 {
			return nil, runtime.Errorf("RuntimeError", "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %d has %d dimensions", i, t.t.Dim())
		}
		if i == 0 {
			dt = t.t.DType()
		} else {
			dt = tensor.Promote(dt, t.t.DType())
		}
		ts[i] = t
		r, c := blockDims(t.t)
		rows, cols = rows+r, cols+c
	}
	if len(args) == 0 {
		rows = 1 // torch.block_diag() is an empty 1x0 matrix
	}
	z, err := tensor.Zeros([]int{rows, cols}, dt)
	if err != nil {
		return nil, err
	}
	zv := wrap(eng, z)
	r0, c0 := 0, 0
	for _, t := range ts {
		r, c := blockDims(t.t)
		if r > 0 && c > 0 {
			v, err := callMethod(th, zv, "narrow", []runtime.Value{iv(0), iv(r0), iv(r)}, nil)
			if err == nil {
				v, err = callMethod(th, v, "narrow", []runtime.Value{iv(1), iv(c0), iv(c)}, nil)
			}
			var src runtime.Value = t
			if err == nil && t.t.Dim() < 2 {
				src, err = callMethod(th, t, "reshape", []runtime.Value{iv(r), iv(c)}, nil)
			}
			if err == nil {
				_, err = callMethod(th, v, "copy_", []runtime.Value{src}, nil)
			}
			if err != nil {
				return nil, err
			}
		}
		r0, c0 = r0+r, c0+c
	}
	autograd.SetGradFnName(zv.t, "BlockDiagBackward0")
	return zv, nil
}

// blockDims is the block a block_diag input fills: 0-d 1x1, 1-D 1xn.
func blockDims(t *T) (int, int) {
	switch t.Dim() {
	case 0:
		return 1, 1
	case 1:
		return 1, t.Shape()[0]
	}
	return t.Shape()[0], t.Shape()[1]
}

func builtinVander(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var nv intOpt
	inc := false
	if err := runtime.UnpackArgs("vander", args, kwargs, "x", &x, "N?", &nv, "increasing?", &inc); err != nil {
		return nil, err
	}
	if x.t.Dim() != 1 {
		return nil, runtime.Errorf("RuntimeError", "x must be a one-dimensional tensor.")
	}
	n := x.t.Shape()[0]
	if nv.ok {
		if nv.v < 0 {
			return nil, runtime.Errorf("RuntimeError", "N must be non-negative.")
		}
		n = nv.v
	}
	dt := tensor.Promote(x.t.DType(), tensor.I64)
	ones, err := tensor.Ones([]int{x.t.Shape()[0], n}, dt)
	if err != nil {
		return nil, err
	}
	eng := engineOf(th)
	res := runtime.Value(wrap(eng, ones))
	if n == 0 {
		return res, nil
	}
	if n > 1 {
		col, err := callMethod(th, &TensorValue{t: x.t, eng: eng}, "unsqueeze", []runtime.Value{iv(1)}, nil)
		if err == nil {
			col, err = callMethod(th, col, "expand", []runtime.Value{iv(x.t.Shape()[0]), iv(n - 1)}, nil)
		}
		var rest runtime.Value
		if err == nil {
			rest, err = callMethod(th, res, "narrow", []runtime.Value{iv(1), iv(1), iv(n - 1)}, nil)
		}
		if err == nil {
			_, err = callMethod(th, rest, "copy_", []runtime.Value{col}, nil)
		}
		if err != nil {
			return nil, err
		}
	}
	res, err = callMethod(th, res, "cumprod", []runtime.Value{iv(1)}, nil)
	if err != nil || inc {
		// PyTorch 1.13 runs cumprod in place on the ones-and-x matrix:
		// CopySlices (its backward then fails; tsr's does not)
		return scalarNode(res, err, "CopySlices")
	}
	return callMethod(th, res, "flip", []runtime.Value{iv(1)}, nil)
}

func builtinTrapezoid(name string) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var y tensorArg
		var xv, dxv runtime.Value = runtime.None, runtime.None
		dim := -1
		if err := runtime.UnpackArgs(name, args, kwargs, "y", &y, "x?", &xv, "dx?", &dxv, "dim?", &dim); err != nil {
			return nil, err
		}
		if xv != runtime.None && dxv != runtime.None {
			return nil, runtime.Errorf("TypeError", "%s() received an invalid combination of arguments - got both x and dx", name)
		}
		eng := engineOf(th)
		yv := &TensorValue{t: y.t, eng: eng}
		d, err := normDim(dim, y.t.Dim())
		if err != nil {
			return nil, err
		}
		if y.t.Dim() == 0 {
			return nil, runtime.Errorf("IndexError", "Dimension specified as %d but tensor has no dimensions", dim)
		}
		n := y.t.Shape()[d]
		m := func(recv runtime.Value, meth string, a ...runtime.Value) (runtime.Value, error) {
			return callMethod(th, recv, meth, a, nil)
		}
		if n == 0 { // zeros_like_except(y, dim)
			shape := append(append([]int(nil), y.t.Shape()[:d]...), y.t.Shape()[d+1:]...)
			z, err := tensor.Zeros(shape, y.t.DType())
			return tensorResult(th, z, err)
		}
		if xv == runtime.None {
			if y.t.DType() == tensor.Bool {
				return nil, runtime.Errorf("RuntimeError", "trapezoid: received a bool input for `y`, but bool is not supported")
			}
			dx := runtime.Value(runtime.Float(1))
			if dxv != runtime.None {
				dx = dxv
			}
			// (y.sum(dim) - (y.select(dim, 0) + y.select(dim, -1)) * 0.5) * dx
			s, err := m(yv, "sum", iv(d))
			if err != nil {
				return nil, err
			}
			first, err := m(yv, "select", iv(d), iv(0))
			if err != nil {
				return nil, err
			}
			last, err := m(yv, "select", iv(d), iv(-1))
			if err != nil {
				return nil, err
			}
			ends, err := m(first, "add", last)
			if err == nil {
				ends, err = m(ends, "mul", runtime.Float(0.5))
			}
			if err == nil {
				s, err = m(s, "sub", ends)
			}
			if err != nil {
				return nil, err
			}
			r, err := m(s, "mul", dx)
			return scalarNode(r, err, "MulBackward1") // at::mul(Tensor, Scalar)
		}
		xs, err := trapezoidX(th, "trapezoid", name, y, xv, n, d)
		if err != nil {
			return nil, err
		}
		xn := xs.(*TensorValue).t.Shape()[d]
		// dx = x[1:] - x[:-1] along dim; ((dx * (y[1:] + y[:-1])).sum(dim)) / 2
		right, err := m(xs, "narrow", iv(d), iv(1), iv(xn-1))
		if err != nil {
			return nil, err
		}
		left, err := m(xs, "narrow", iv(d), iv(0), iv(xn-1))
		if err != nil {
			return nil, err
		}
		dx, err := m(right, "sub", left)
		if err != nil {
			return nil, err
		}
		yr, err := m(yv, "narrow", iv(d), iv(1), iv(n-1))
		if err != nil {
			return nil, err
		}
		yl, err := m(yv, "narrow", iv(d), iv(0), iv(n-1))
		if err != nil {
			return nil, err
		}
		sum, err := m(yr, "add", yl)
		if err == nil {
			sum, err = m(dx, "mul", sum)
		}
		if err == nil {
			sum, err = m(sum, "sum", iv(d))
		}
		if err != nil {
			return nil, err
		}
		r, err := m(sum, "div", runtime.Float(2))
		return scalarNode(r, err, "DivBackward1") // at::div(Tensor, Scalar)
	}
}

// scalarNode names the node of a tensor result v that an op with a Scalar
// operand recorded (PyTorch's Tensor-Scalar overloads print as
// MulBackward1, DivBackward1).
func scalarNode(v runtime.Value, err error, name string) (runtime.Value, error) {
	if tv, ok := v.(*TensorValue); ok && err == nil && tv.t.GradFn() != nil {
		autograd.SetGradFnName(tv.t, name)
	}
	return v, err
}

// trapezoidX checks the sample points x of trapezoid / cumulative_trapezoid
// (op, for messages; name is the Python-level function name) against y,
// whose dim d has n samples, and returns x viewed so that it broadcasts
// against y as ATen's trapezoid does: a 1-D x along dim d, a lower-rank x
// over y's trailing dims, any other x as it is.
func trapezoidX(th *runtime.Thread, op, name string, y tensorArg, xv runtime.Value, n, d int) (runtime.Value, error) {
	xt, ok := xv.(*TensorValue)
	if !ok {
		return nil, runtime.Errorf("TypeError", "%s(): argument 'x' must be Tensor, not %s", name, xv.Type())
	}
	if y.t.DType() == tensor.Bool || xt.t.DType() == tensor.Bool {
		return nil, runtime.Errorf("RuntimeError", "%s: received a bool input for `x` or `y`, but bool is not supported", op)
	}
	nd := y.t.Dim()
	switch {
	case xt.t.Dim() == 1:
		if xt.t.Shape()[0] != n {
			return nil, runtime.Errorf("RuntimeError", "%s: There must be one `x` value for each sample point", op)
		}
		shape := make([]int, nd)
		for i := range shape {
			shape[i] = 1
		}
		shape[d] = n
		return callMethod(th, xt, "view", []runtime.Value{intList(shape)}, nil)
	case xt.t.Dim() < nd:
		shape := make([]int, nd)
		for i := range shape {
			shape[i] = 1
		}
		copy(shape[nd-xt.t.Dim():], xt.t.Shape())
		return callMethod(th, xt, "view", []runtime.Value{intList(shape)}, nil)
	}
	return xt, nil
}
