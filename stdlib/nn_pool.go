package stdlib

import (
	"fmt"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// Pooling of torch.nn.functional (max_pool1d/2d, avg_pool1d/2d,
// adaptive_avg_pool1d/2d, adaptive_max_pool1d/2d) over tensor's direct
// kernels (tensor.MaxPool2d, ...), each recorded as one node with ATen's
// backward; the 1-d forms unsqueeze a height-1 dim and squeeze it after
// (SqueezeBackward1, as PyTorch 1.13). See nn_conv.go.

// poolInts expands a pooling argument to nd ints (an int, or a sequence
// of 1 or nd ints for 2-d, of 1 for 1-d) with PyTorch's messages; bad is
// the 2-d message.
func poolInts(fname, arg string, v runtime.Value, nd int, bad string) ([]int, error) {
	s, ok := runtime.AsInts(v)
	if !ok || isBool(v) {
		return nil, runtime.Errorf("TypeError", "%s(): argument '%s' must be an int or a tuple of ints, not %s", fname, arg, v.Type())
	}
	if nd == 1 {
		if len(s) != 1 {
			return nil, runtime.Errorf("RuntimeError", "%s() argument '%s' should contain one int (got %d)", fname, arg, len(s))
		}
		return s, nil
	}
	switch len(s) {
	case 1:
		return []int{s[0], s[0]}, nil
	case 2:
		return s, nil
	}
	return nil, runtime.Errorf("RuntimeError", "%s", bad)
}

func poolBuiltin(nd int, kind string) builtinFn {
	name := fmt.Sprintf("%s_pool%dd", kind, nd)
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		var k runtime.Value
		var stride, pad, dil runtime.Value = runtime.None, runtime.Int(0), runtime.Int(1)
		ceil, retIdx, countPad := false, false, true
		var divisor runtime.Value = runtime.None
		spec := []any{"input", &x, "kernel_size", &k, "stride?", &stride, "padding?", &pad}
		if kind == "max" {
			spec = append(spec, "dilation?", &dil, "ceil_mode?", &ceil, "return_indices?", &retIdx)
		} else {
			spec = append(spec, "ceil_mode?", &ceil, "count_include_pad?", &countPad)
			if nd == 2 {
				spec = append(spec, "divisor_override?", &divisor)
			}
		}
		if err := runtime.UnpackArgs(name, args, kwargs, spec...); err != nil {
			return nil, err
		}
		kern, err := poolInts(name, "kernel_size", k, nd, name+": kernel_size must either be a single int, or a tuple of two ints")
		if err != nil {
			return nil, err
		}
		st := kern
		if l, ok := stride.(*runtime.List); stride != runtime.None && !(ok && len(l.Elems) == 0) {
			if st, err = poolInts(name, "stride", stride, nd, name+": stride must either be omitted, a single int, or a tuple of two ints"); err != nil {
				return nil, err
			}
		}
		pd, err := poolInts(name, "padding", pad, nd, name+": padding must be either be a single int, or a tuple of two ints")
		if err != nil {
			return nil, err
		}
		dl, err := poolInts(name, "dilation", dil, nd, name+": dilation must be either a single int, or a tuple of two ints")
		if err != nil {
			return nil, err
		}
		div := 0
		if divisor != runtime.None {
			d, ok := divisor.(runtime.Int)
			if !ok {
				return nil, runtime.Errorf("TypeError", "avg_pool2d(): argument 'divisor_override' must be int, not %s", divisor.Type())
			}
			if d == 0 {
				return nil, runtime.Errorf("RuntimeError", "divisor must be not zero")
			}
			div = int(d)
		}
		e := engineOf(th)
		xt := x.t
		dim := xt.Dim()
		switch {
		case nd == 2 && kind == "max" && dim != 3 && dim != 4:
			return nil, runtime.Errorf("RuntimeError", "non-empty 3D or 4D (batch mode) tensor expected for input")
		case nd == 2 && kind == "avg" && dim < 3:
			return nil, runtime.Errorf("IndexError", "Dimension out of range (expected to be in range of [%d, %d], but got -3)", -max(dim, 1), max(dim, 1)-1)
		case nd == 2 && kind == "avg" && dim > 4:
			return nil, runtime.Errorf("RuntimeError", "non-empty 3D or 4D (batch mode) tensor expected for input")
		case nd == 1 && kind == "max" && dim != 2 && dim != 3:
			return nil, runtime.Errorf("RuntimeError", "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:%s", intList(xt.Shape()))
		case nd == 1 && kind == "avg" && dim != 2 && dim != 3:
			return nil, runtime.Errorf("RuntimeError", "Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for avg_pool1d)", dim)
		}
		kernelName := name
		if kind == "max" && nd == 1 {
			kernelName = "max_pool1d_impl"
		} else if kind == "avg" {
			kernelName = "avg_pool2d"
		}
		cdt, err := computeDType(kernelName, xt.DType(), kind == "avg", false)
		if err != nil {
			return nil, err
		}
		p := tensor.PoolParams{Kernel: pair2(kern, 1), Stride: pair2(st, 1), Padding: pair2(pd, 0), Dilation: pair2(dl, 1),
			CeilMode: ceil, CountIncludePad: countPad, DivisorOverride: div}
		if err := checkPool(xt, nd, p, kind == "max"); err != nil {
			return nil, err
		}
		if nd == 1 {
			if xt, err = unsqueezeOp(e, xt, -2); err != nil {
				return nil, err
			}
		}
		var out, idx *T
		if kind == "max" {
			out, idx, err = maxPoolOp(e, xt, cdt, p)
		} else {
			out, err = avgPoolOp(e, xt, cdt, p)
		}
		if err != nil {
			return nil, err
		}
		if nd == 1 {
			if out, err = squeezeOp(e, out, []int{-2}); err != nil {
				return nil, err
			}
			if idx != nil {
				if idx, err = idx.Squeeze(idx.Dim() - 2); err != nil {
					return nil, err
				}
			}
		}
		if retIdx {
			return runtime.Tuple{NewTensorValue(th, out), NewTensorValue(th, idx)}, nil
		}
		return NewTensorValue(th, out), nil
	}
}

// checkPool checks a pooling window against input x (nd = 1: x not yet
// unsqueezed) with PyTorch's messages.
func checkPool(x *T, nd int, p tensor.PoolParams, isMax bool) error {
	kh, kw := p.Kernel[0], p.Kernel[1]
	sh, sw := p.Stride[0], p.Stride[1]
	switch {
	case sh == 0 || sw == 0:
		return runtime.Errorf("RuntimeError", "stride should not be zero")
	case kh <= 0 || kw <= 0:
		return runtime.Errorf("RuntimeError", "kernel size should be greater than zero, but got kH: %d kW: %d", kh, kw)
	case sh < 0 || sw < 0:
		return runtime.Errorf("RuntimeError", "stride should be greater than zero, but got dH: %d dW: %d", sh, sw)
	case p.Dilation[0] <= 0 || p.Dilation[1] <= 0:
		return runtime.Errorf("RuntimeError", "dilation should be greater than zero, but got dilationH: %d dilationW: %d", p.Dilation[0], p.Dilation[1])
	}
	for i := range 2 {
		if p.Padding[i] < 0 {
			return runtime.Errorf("RuntimeError", "pad must be non-negative, but got pad: %d", p.Padding[i])
		}
		if p.Padding[i] > p.Kernel[i]/2 {
			return runtime.Errorf("RuntimeError", "pad should be at most half of kernel size, but got pad=%d and kernel_size=%d", p.Padding[i], p.Kernel[i])
		}
	}
	s := x.Shape()
	d := len(s)
	h, w := 1, s[d-1]
	c := s[d-2]
	if nd == 2 {
		h, c = s[d-2], s[d-3]
	}
	if h == 0 || w == 0 {
		return runtime.Errorf("RuntimeError", "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:%s", intList(s))
	}
	dil := p.Dilation
	if !isMax {
		dil = [2]int{1, 1}
	}
	oh := tensor.PoolOutputSize(h, kh, p.Padding[0], sh, dil[0], p.CeilMode)
	ow := tensor.PoolOutputSize(w, kw, p.Padding[1], sw, dil[1], p.CeilMode)
	if oh < 1 || ow < 1 {
		return runtime.Errorf("RuntimeError", "Given input size: (%dx%dx%d). Calculated output size: (%dx%dx%d). Output size is too small", c, h, w, c, oh, ow)
	}
	return nil
}

// maxPoolOp records max_pool2d (values and int64 indices) as one
// MaxPool2DWithIndicesBackward0 node; cdt is the compute dtype.
func maxPoolOp(e *Engine, x *T, cdt tensor.DType, p tensor.PoolParams) (out, idx *T, err error) {
	dt := x.DType()
	out, err = e.ApplyLinear("MaxPool2DWithIndicesBackward", []*T{x}, func() (*T, error) {
		c, err := x.To(cdt)
		if err != nil {
			return nil, err
		}
		var o *T
		if o, idx, err = tensor.MaxPool2d(c, p); err != nil {
			return nil, err
		}
		return o.To(dt)
	}, func(g *T) ([]*T, error) {
		gc, err := g.To(cdt)
		if err != nil {
			return nil, err
		}
		gx, err := tensor.MaxPoolBackward(gc, idx, x.Shape())
		if err == nil {
			gx, err = gx.To(dt)
		}
		return []*T{gx}, err
	}, func(us []*T) (*T, error) { return poolGather(us[0], idx) })
	return out, idx, err
}

// poolGather is the tangent of a max pool with argmax positions idx (flat
// in each input plane, PyTorch's indices): u's elements at idx, shaped as
// idx.
func poolGather(u, idx *T) (*T, error) {
	sh := u.Shape()
	plane := 1
	if len(sh) >= 2 {
		plane = sh[len(sh)-1] * sh[len(sh)-2]
	}
	uf, err := u.Contiguous().Reshape(-1, plane)
	if err != nil {
		return nil, err
	}
	is := idx.Shape()
	opl := 1
	if len(is) >= 2 {
		opl = is[len(is)-1] * is[len(is)-2]
	}
	i2, err := idx.Contiguous().Reshape(-1, opl)
	if err != nil {
		return nil, err
	}
	r, err := tensor.Gather(uf, 1, i2)
	if err != nil {
		return nil, err
	}
	return r.Reshape(is...)
}

// avgPoolOp records avg_pool2d as one AvgPool2DBackward0 node.
func avgPoolOp(e *Engine, x *T, cdt tensor.DType, p tensor.PoolParams) (*T, error) {
	dt := x.DType()
	return e.ApplyLinear("AvgPool2DBackward", []*T{x}, func() (*T, error) {
		c, err := x.To(cdt)
		if err != nil {
			return nil, err
		}
		o, err := tensor.AvgPool2d(c, p)
		if err != nil {
			return nil, err
		}
		return o.To(dt)
	}, func(g *T) ([]*T, error) {
		gc, err := g.To(cdt)
		if err != nil {
			return nil, err
		}
		gx, err := tensor.AvgPool2dBackward(gc, x.Shape(), p)
		if err == nil {
			gx, err = gx.To(dt)
		}
		return []*T{gx}, err
	}, func(us []*T) (*T, error) { return avgPoolOp(e, us[0], cdt, p) })
}

func adaptiveBuiltin(nd int, isMax bool) builtinFn {
	kind := "avg"
	if isMax {
		kind = "max"
	}
	name := fmt.Sprintf("adaptive_%s_pool%dd", kind, nd)
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		var osv runtime.Value
		retIdx := false
		spec := []any{"input", &x, "output_size", &osv}
		if isMax {
			spec = append(spec, "return_indices?", &retIdx)
		}
		if err := runtime.UnpackArgs(name, args, kwargs, spec...); err != nil {
			return nil, err
		}
		xt := x.t
		dim := xt.Dim()
		// output_size: an int or a sequence (none keeps the input size)
		var sizes []runtime.Value
		switch v := osv.(type) {
		case runtime.Int:
			sizes = []runtime.Value{v, v}
			if nd == 1 {
				sizes = sizes[:1]
			}
		case runtime.Tuple:
			sizes = v
		case *runtime.List:
			sizes = v.Elems
		default:
			return nil, runtime.Errorf("TypeError", "%s(): argument 'output_size' must be an int or a tuple of ints, not %s", name, osv.Type())
		}
		if nd == 1 && len(sizes) != 1 {
			return nil, runtime.Errorf("RuntimeError", "%s() argument 'output_size' should contain one int (got %d)", name, len(sizes))
		}
		if nd == 2 && len(sizes) != 2 {
			return nil, runtime.Errorf("RuntimeError", "adaptive_%s_pool2d: output_size must be 2", kind)
		}
		switch {
		case nd == 1 && dim != 2 && dim != 3:
			return nil, runtime.Errorf("RuntimeError", "Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for %s)", dim, name)
		case nd == 2 && dim != 3 && dim != 4 && isMax:
			return nil, runtime.Errorf("RuntimeError", "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: %s", intList(xt.Shape()))
		case nd == 2 && dim != 3 && dim != 4:
			return nil, runtime.Errorf("RuntimeError", "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got %s", intList(xt.Shape()))
		}
		out := make([]int, nd)
		for i, v := range sizes {
			switch n := v.(type) {
			case runtime.Int:
				out[i] = int(n)
			default:
				if v != runtime.None {
					return nil, runtime.Errorf("TypeError", "%s(): output_size must hold ints or none, not %s", name, v.Type())
				}
				out[i] = xt.Shape()[dim-nd+i]
			}
		}
		oh, ow := 1, out[nd-1]
		if nd == 2 {
			oh = out[0]
		}
		if oh < 0 || ow < 0 {
			if isMax {
				s := append(append([]int(nil), xt.Shape()[:dim-nd]...), out...)
				return nil, runtime.Errorf("RuntimeError", "Trying to create tensor with negative dimension %d: %s", min(oh, ow), intList(s))
			}
			return nil, runtime.Errorf("RuntimeError", "adaptive_avg_pool%dd: elements of output_size must be greater than or equal to 0 but received {%d, %d}", 2, oh, ow)
		}
		for i := 1; i < dim; i++ {
			if xt.Shape()[i] == 0 {
				return nil, runtime.Errorf("RuntimeError", "adaptive_%s_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty", kind, intList(xt.Shape()), i)
			}
		}
		cdt, err := computeDType("adaptive_"+kind+"_pool2d", xt.DType(), false, false)
		if err != nil {
			return nil, err
		}
		e := engineOf(th)
		if nd == 1 {
			if xt, err = unsqueezeOp(e, xt, -2); err != nil {
				return nil, err
			}
		}
		var r, idx *T
		dt := xt.DType()
		x4 := xt
		switch {
		case !isMax && oh == 1 && ow == 1:
			r, err = meanOp(e, xt, []int{-1, -2}, true)
		case !isMax:
			fwd := func(in *T) (*T, error) {
				c, err := in.To(cdt)
				if err == nil {
					c, err = tensor.AdaptiveAvgPool2d(c, oh, ow)
				}
				if err == nil {
					c, err = c.To(dt)
				}
				return c, err
			}
			r, err = e.ApplyLinear("AdaptiveAvgPool2DBackward", []*T{x4}, func() (*T, error) { return fwd(x4) }, func(g *T) ([]*T, error) {
				c, err := g.To(cdt)
				if err == nil {
					c, err = tensor.AdaptiveAvgPool2dBackward(c, x4.Shape())
				}
				if err == nil {
					c, err = c.To(dt)
				}
				return []*T{c}, err
			}, func(us []*T) (*T, error) { return fwd(us[0]) })
		default:
			var pos *T // the backward's own copy: idx is squeezed below for 1-d pools
			r, err = e.ApplyLinear("AdaptiveMaxPool2DBackward", []*T{x4}, func() (*T, error) {
				c, err := x4.To(cdt)
				if err != nil {
					return nil, err
				}
				if c, idx, err = tensor.AdaptiveMaxPool2d(c, oh, ow); err != nil {
					return nil, err
				}
				pos = idx
				return c.To(dt)
			}, func(g *T) ([]*T, error) {
				c, err := g.To(cdt)
				if err == nil {
					c, err = tensor.MaxPoolBackward(c, pos, x4.Shape())
				}
				if err == nil {
					c, err = c.To(dt)
				}
				return []*T{c}, err
			}, func(us []*T) (*T, error) { return poolGather(us[0], pos) })
		}
		if err != nil {
			return nil, err
		}
		if nd == 1 {
			if r, err = squeezeOp(e, r, []int{-2}); err != nil {
				return nil, err
			}
			if idx != nil {
				if idx, err = idx.Squeeze(idx.Dim() - 2); err != nil {
					return nil, err
				}
			}
		}
		if retIdx {
			return runtime.Tuple{NewTensorValue(th, r), NewTensorValue(th, idx)}, nil
		}
		return NewTensorValue(th, r), nil
	}
}
