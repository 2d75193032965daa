package stdlib

// scatter_reduce / scatter_reduce_ (PyTorch 1.13's torch.scatter_reduce):
// src's elements are reduced into a copy of self at the positions index
// addresses along dim, with reduce one of "sum", "prod", "mean", "amax"
// and "amin"; include_self=false leaves self's value out of every
// position that receives at least one element. "mean" divides by the
// number of reduced values (self counted when included); integer "mean"
// divides with floor rounding after the sum wraps in the dtype, as
// PyTorch. Bool tensors reduce sum/amax as or and prod/amin as and; bool
// "mean" is PyTorch's not-implemented error. NaN propagates through
// amax/amin. Float reductions round to the dtype after every step.
//
// Backward (ScatterReduceBackward0) follows PyTorch's
// scatter_reduce_backward for all five reductions: prod uses exclusive
// products (exact with zeros), amax/amin share the gradient evenly among
// the values equal to the result (self's count included even when
// include_self is false, as PyTorch's formula does), and self's gradient
// is zero at reduced positions when include_self is false.

import (
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

func init() {
	defMethodFunc("scatter_reduce", "scatter_reduce(dim, index, src, reduce, include_self=true): a copy of self with src[i][j] reduced into self[index[i][j]][j] for dim 0; reduce: \"sum\", \"prod\", \"mean\", \"amax\" or \"amin\"; include_self=false leaves self's value out of reduced positions. Integer \"mean\" rounds down.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return x.result(scatterReduceArgs(engineOf(th), "scatter_reduce", x.t, nil, args, kwargs))
	})
	inplaceMethodDst("scatter_reduce_", "scatter_reduce_(dim, index, src, reduce, include_self=true): scatter_reduce in place (index and src must not share memory with self); returns self.", func(e *Engine, dst, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		r, err := scatterReduceArgs(e, "scatter_reduce_", self, dst, args, kwargs)
		return r, "ScatterReduceBackward0", err
	})
}

// scatterReduceArgs parses (dim, index, src, reduce, include_self=true)
// and checks them in PyTorch's order: dim, index dtype, src dtype, ranks
// and sizes, (in place) overlap with index and src, the reduce name, then
// index bounds. dst is the tensor scatter_reduce_ writes (nil out of
// place).
func scatterReduceArgs(e *Engine, name string, x, dst *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, error) {
	var dim int
	var index tensorArg
	var src runtime.Value
	var reduce string
	includeSelf := true
	if err := runtime.UnpackArgs(name, args, kwargs, "dim", &dim, "index", &index, "src", &src, "reduce", &reduce, "include_self?", &includeSelf); err != nil {
		return nil, err
	}
	s, ok := src.(*TensorValue)
	if !ok {
		return nil, runtime.Errorf("TypeError", "%s(): argument 'src' (position 3) must be Tensor, not %s", name, src.Type())
	}
	d, err := normDim(dim, x.Dim())
	if err != nil {
		return nil, err
	}
	if index.t.DType() != tensor.I64 {
		return nil, runtime.Errorf("RuntimeError", "scatter(): Expected dtype int64 for index")
	}
	if s.t.DType() != x.DType() {
		return nil, runtime.Errorf("RuntimeError", "scatter(): Expected self.dtype to be equal to src.dtype")
	}
	if d0 := d; index.t.Numel() != 0 {
		if max(index.t.Dim(), 1) != max(x.Dim(), 1) {
			return nil, runtime.Errorf("RuntimeError", "Index tensor must have the same number of dimensions as self tensor")
		}
		// PyTorch reads src.size(d) for every d < self.dim() (after
		// checking index against self): a src of lower rank is an
		// IndexError there, one of higher rank is accepted.
		is, xs := index.t.Shape(), x.Shape()
		wrong := false
		for d := range xs {
			if d != d0 && d < len(is) && is[d] > xs[d] {
				wrong = true
				break
			}
		}
		for d := 0; !wrong && d < len(xs); d++ {
			if s.t.Dim() > 0 && d >= s.t.Dim() {
				_, err := normDim(d, s.t.Dim())
				return nil, err
			}
			if s.t.Dim() > 0 && d < len(is) && is[d] > s.t.Shape()[d] {
				break
			}
		}
	}
	// after the shape checks: the in-place overlap checks, then the
	// reduce name (PyTorch's order), then the index values
	dpos, spos, err := scatterPositions("scatter", x.Shape(), d, index.t, append([]int{}, s.t.Shape()...), func() error { // non-nil for a 0-d src
		if err := inplaceNoOverlap(dst, index.t, s.t); err != nil {
			return err
		}
		switch reduce {
		case "sum", "prod", "mean", "amax", "amin":
			return nil
		}
		return runtime.Errorf("RuntimeError", "reduce argument must be either sum, prod, mean, amax or amin.")
	})
	if err != nil {
		return nil, err
	}
	if reduce == "mean" && x.DType() == tensor.Bool {
		return nil, runtime.Errorf("RuntimeError", "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'")
	}
	return scatterReduceOp(e, x, s.t, dpos, spos, reduce, includeSelf)
}

// wrapInt reduces v modulo the width of integer dtype dt (two's
// complement), as arithmetic in that dtype does.
func wrapInt(v int64, dt tensor.DType) int64 {
	switch dt {
	case tensor.I8:
		return int64(int8(v))
	case tensor.U8:
		return int64(uint8(v))
	case tensor.I16:
		return int64(int16(v))
	case tensor.I32:
		return int64(int32(v))
	}
	return v
}

func floorDivInt(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func scatterReduceOp(e *Engine, self, src *T, dpos, spos []int, reduce string, includeSelf bool) (*T, error) {
	dt := self.DType()
	shape := append([]int(nil), self.Shape()...)
	srcShape := append([]int(nil), src.Shape()...)
	n := numelOf(shape)
	count := make([]int, n) // src elements reduced into each position
	for _, p := range dpos {
		count[p]++
	}
	var result []float64 // the float forward's values, for backward
	forward := func() (*T, error) {
		if !dt.IsFloat() {
			out := self.ToInt64s()
			sv := src.ToInt64s()
			if dt == tensor.Bool {
				for i := range out {
					out[i] = min(max(out[i], 0), 1)
				}
				for i := range sv {
					sv[i] = min(max(sv[i], 0), 1)
				}
			}
			info, _ := tensor.Iinfo(dt)
			if !includeSelf {
				for _, p := range dpos {
					switch reduce {
					case "sum", "mean":
						out[p] = 0
					case "prod":
						out[p] = 1
					case "amax":
						out[p] = info.Min
					case "amin":
						out[p] = info.Max
					}
				}
			}
			for k, p := range dpos {
				v := sv[spos[k]]
				switch reduce {
				case "sum", "mean":
					out[p] = wrapInt(out[p]+v, dt)
				case "prod":
					out[p] = wrapInt(out[p]*v, dt)
				case "amax":
					out[p] = max(out[p], v)
				case "amin":
					out[p] = min(out[p], v)
				}
			}
			if reduce == "mean" {
				for p, c := range count {
					if c > 0 {
						if includeSelf {
							c++
						}
						out[p] = floorDivInt(out[p], int64(c))
					}
				}
			}
			if dt == tensor.Bool {
				for i := range out {
					out[i] = min(max(out[i], 0), 1)
				}
			}
			return tensor.FromInt64s(out, shape, dt)
		}
		out := self.ToFloat64s()
		sv := src.ToFloat64s()
		if !includeSelf {
			for _, p := range dpos {
				switch reduce {
				case "sum", "mean":
					out[p] = 0
				case "prod":
					out[p] = 1
				case "amax":
					out[p] = math.Inf(-1)
				case "amin":
					out[p] = math.Inf(1)
				}
			}
		}
		for k, p := range dpos {
			v := sv[spos[k]]
			switch reduce {
			case "sum", "mean":
				out[p] = tensor.RoundToDType(out[p]+v, dt)
			case "prod":
				out[p] = tensor.RoundToDType(out[p]*v, dt)
			case "amax":
				if !math.IsNaN(out[p]) && (math.IsNaN(v) || v > out[p]) {
					out[p] = v
				}
			case "amin":
				if !math.IsNaN(out[p]) && (math.IsNaN(v) || v < out[p]) {
					out[p] = v
				}
			}
		}
		if reduce == "mean" {
			for p, c := range count {
				if c > 0 {
					if includeSelf {
						c++
					}
					out[p] = tensor.RoundToDType(out[p]/float64(c), dt)
				}
			}
		}
		result = out
		return tensor.FromFloat64s(out, shape, dt)
	}
	if !dt.IsFloat() {
		return forward()
	}
	backward := func(g *T) ([]*T, error) {
		gv := g.ToFloat64s()
		sv := src.ToFloat64s()
		gself := append([]float64(nil), gv...)
		gsrc := make([]float64, numelOf(srcShape))
		switch reduce {
		case "sum":
			for k, p := range dpos {
				gsrc[spos[k]] = gv[p]
			}
		case "mean":
			for p, c := range count {
				if includeSelf {
					c++
				}
				gself[p] = gv[p] / float64(max(c, 1))
			}
			for k, p := range dpos {
				gsrc[spos[k]] = gself[p]
			}
		case "prod":
			// exclusive products from the count of zeros and the product
			// of the nonzero values at each position
			xv := self.ToFloat64s()
			zeros := make([]int, n)
			nz := make([]float64, n)
			for p := range nz {
				nz[p] = 1
				if includeSelf || count[p] == 0 {
					if xv[p] == 0 {
						zeros[p]++
					} else {
						nz[p] *= xv[p]
					}
				}
			}
			for k, p := range dpos {
				if v := sv[spos[k]]; v == 0 {
					zeros[p]++
				} else {
					nz[p] *= v
				}
			}
			excl := func(p int, v float64) float64 {
				switch {
				case zeros[p] == 0:
					return nz[p] / v
				case zeros[p] == 1 && v == 0:
					return nz[p]
				}
				return 0
			}
			for p := range gself {
				gself[p] = gv[p] * excl(p, xv[p])
			}
			for k, p := range dpos {
				gsrc[spos[k]] = gv[p] * excl(p, sv[spos[k]])
			}
		case "amax", "amin":
			xv := self.ToFloat64s()
			num := make([]float64, n)
			for p := range num {
				if xv[p] == result[p] {
					num[p] = 1
				}
			}
			for k, p := range dpos {
				if sv[spos[k]] == result[p] {
					num[p]++
				}
			}
			dist := make([]float64, n)
			for p := range dist {
				dist[p] = gv[p] / num[p]
				is := 0.0
				if xv[p] == result[p] {
					is = 1
				}
				gself[p] = is * dist[p]
			}
			for k, p := range dpos {
				is := 0.0
				if sv[spos[k]] == result[p] {
					is = 1
				}
				gsrc[spos[k]] = is * dist[p]
			}
		}
		if !includeSelf {
			for _, p := range dpos {
				gself[p] = 0
			}
		}
		a, err := tensor.FromFloat64s(gself, shape, g.DType())
		if err != nil {
			return nil, err
		}
		b, err := tensor.FromFloat64s(gsrc, srcShape, g.DType())
		if err != nil {
			return nil, err
		}
		return []*T{a, b}, nil
	}
	if reduce == "prod" {
		var recorded *T // the result as returned, with this node as grad_fn
		prodBackward := func(g *T) ([]*T, error) {
			if !e.GradEnabled() || recorded == nil {
				return backward(g)
			}
			return scatterProdGradGraph(e, self, src, recorded, g, dpos, spos, includeSelf)
		}
		r, err := e.ApplyCustom("ScatterReduceBackward", []*T{self, src}, forward, prodBackward)
		recorded = r
		return r, err
	}
	// sum, mean, amax and amin are (piecewise) linear: the backward maps g
	// to (a ⊙ g, b ⊙ g[dpos]) with coefficients a, b that do not depend on
	// g (the backward of ones), and the tangent is its adjoint
	// a ⊙ u_self + Σ_k b_k u_src[spos[k]] at dpos[k]
	tangent := func(us []*T) (*T, error) {
		ones, err := tensor.Ones(shape, us[0].DType())
		if err != nil {
			return nil, err
		}
		ab, err := backward(ones)
		if err != nil {
			return nil, err
		}
		av, bv := ab[0].ToFloat64s(), ab[1].ToFloat64s()
		uself, usrc := us[0].ToFloat64s(), us[1].ToFloat64s()
		out := make([]float64, len(av))
		for p := range out {
			out[p] = av[p] * uself[p]
		}
		for k, p := range dpos {
			out[p] += bv[spos[k]] * usrc[spos[k]]
		}
		return tensor.FromFloat64s(out, shape, us[0].DType())
	}
	return e.ApplyLinear("ScatterReduceBackward", []*T{self, src}, forward, backward, tangent)
}

// scatterProdGradGraph is scatter_reduce "prod"'s backward in recorded ops
// (for a create_graph backward, so it is differentiable again), for self
// and src without zeros: self's gradient g · result / self (0 at the
// written positions without include_self), src's (g · result) read at
// each element's destination over src. With zeros it is a
// NotImplementedError (the ordinary backward handles them exactly).
func scatterProdGradGraph(e *Engine, self, src, result, g *T, dpos, spos []int, includeSelf bool) ([]*T, error) {
	for _, t := range []*T{self, src} {
		for _, v := range t.ToFloat64s() {
			if v == 0 {
				return nil, runtime.Errorf("NotImplementedError", "the second derivative of scatter_reduce(..., \"prod\") at zeros is not implemented")
			}
		}
	}
	gr, err := applyBinary(e, "mul", tensor.Mul, g, result)
	if err != nil {
		return nil, err
	}
	gself, err := applyBinary(e, "div", tensor.Div, gr, self)
	if err != nil {
		return nil, err
	}
	if !includeSelf {
		keep := make([]float64, self.Numel())
		for i := range keep {
			keep[i] = 1
		}
		for _, p := range dpos {
			keep[p] = 0
		}
		k, err := tensor.FromFloat64s(keep, self.Shape(), self.DType())
		if err != nil {
			return nil, err
		}
		if gself, err = applyBinary(e, "mul", tensor.Mul, gself, k); err != nil {
			return nil, err
		}
	}
	// (g · result)[dpos[k]] at src position spos[k]
	dst := make([]int64, src.Numel())
	for k, p := range dpos {
		dst[spos[k]] = int64(p)
	}
	idx, err := tensor.FromInt64s(dst, []int{len(dst)}, tensor.I64)
	if err != nil {
		return nil, err
	}
	flat, err := reshapeOp(e, gr, []int{-1})
	if err != nil {
		return nil, err
	}
	at, err := takeAlongOp(e, "GatherBackward", flat, 0, idx, nil)
	if err != nil {
		return nil, err
	}
	if at, err = reshapeOp(e, at, src.Shape()); err != nil {
		return nil, err
	}
	gsrc, err := applyBinary(e, "div", tensor.Div, at, src)
	if err != nil {
		return nil, err
	}
	return []*T{gself, gsrc}, nil
}
