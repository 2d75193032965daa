package autograd

import (
	"github.com/tsrlang/tsr/tensor"
)

// The methods below are the differentiable ops derivative formulas are
// written in. Each goes through Apply, so during an ordinary backward pass
// (grad mode off) it is the pure tensor op, and during a create_graph pass
// it is recorded: gradients of gradients come for free.

func (e *Engine) add(a, b *T) (*T, error) {
	return e.Apply("add", []*T{a, b}, nil, func() (*T, error) { return tensor.Add(a, b) })
}

func (e *Engine) sub(a, b *T) (*T, error) {
	return e.Apply("sub", []*T{a, b}, nil, func() (*T, error) { return tensor.Sub(a, b) })
}

func (e *Engine) mul(a, b *T) (*T, error) {
	return e.Apply("mul", []*T{a, b}, nil, func() (*T, error) { return tensor.Mul(a, b) })
}

func (e *Engine) div(a, b *T) (*T, error) {
	return e.Apply("div", []*T{a, b}, nil, func() (*T, error) { return tensor.Div(a, b) })
}

func (e *Engine) neg(a *T) (*T, error) {
	return e.Apply("neg", []*T{a}, nil, func() (*T, error) { return tensor.Neg(a) })
}

func (e *Engine) unary(op string, f func(*T) (*T, error), a *T) (*T, error) {
	return e.Apply(op, []*T{a}, nil, func() (*T, error) { return f(a) })
}

// scalar returns a wrapped 0-d tensor holding v (a Python-number operand).
func scalar(v float64) *T { return tensor.ScalarFloat(v) }

func (e *Engine) mulScalar(a *T, v float64) (*T, error) { return e.mul(a, scalar(v)) }

func (e *Engine) addScalar(a *T, v float64) (*T, error) { return e.add(a, scalar(v)) }

func (e *Engine) where(cond, a, b *T) (*T, error) {
	return e.Apply("where", []*T{cond, a, b}, nil, func() (*T, error) { return tensor.Where(cond, a, b) })
}

func (e *Engine) sum(a *T, dims []int, keepdim bool) (*T, error) {
	return e.Apply("sum", []*T{a}, Attrs{"dim": dims, "keepdim": keepdim}, func() (*T, error) { return tensor.Sum(a, dims, keepdim) })
}

func (e *Engine) reshape(a *T, shape []int) (*T, error) {
	return e.Apply("reshape", []*T{a}, nil, func() (*T, error) { return a.Reshape(shape...) })
}

func (e *Engine) expand(a *T, shape []int) (*T, error) {
	return e.Apply("expand", []*T{a}, nil, func() (*T, error) { return a.Expand(shape...) })
}

func (e *Engine) transpose(a *T, d0, d1 int) (*T, error) {
	return e.Apply("transpose", []*T{a}, Attrs{"dim0": d0, "dim1": d1}, func() (*T, error) { return a.Transpose(d0, d1) })
}

func (e *Engine) permute(a *T, dims []int) (*T, error) {
	return e.Apply("permute", []*T{a}, Attrs{"dims": dims}, func() (*T, error) { return a.Permute(dims...) })
}

func (e *Engine) unsqueeze(a *T, d int) (*T, error) {
	return e.Apply("unsqueeze", []*T{a}, Attrs{"dim": d}, func() (*T, error) { return a.Unsqueeze(d) })
}

func (e *Engine) matmul(a, b *T) (*T, error) {
	return e.Apply("matmul", []*T{a, b}, nil, func() (*T, error) { return tensor.Matmul(a, b) })
}

func (e *Engine) exp(a *T) (*T, error) { return e.unary("exp", tensor.Exp, a) }

func (e *Engine) toDType(a *T, dt tensor.DType) (*T, error) {
	if a.DType() == dt {
		return a, nil
	}
	return e.Apply("to", []*T{a}, nil, func() (*T, error) { return a.To(dt) })
}

// sumTo reduces g to shape by summing broadcast dimensions (the backward of
// broadcasting): leading extra dims, and dims where shape has size 1.
func (e *Engine) sumTo(g *T, shape []int) (*T, error) {
	gs := g.Shape()
	if sameShape(gs, shape) {
		return g, nil
	}
	lead := len(gs) - len(shape)
	var dims []int
	for i := range gs {
		if i < lead {
			dims = append(dims, i)
			continue
		}
		if shape[i-lead] == 1 && gs[i] != 1 {
			dims = append(dims, i)
		}
	}
	s := g
	var err error
	if len(dims) > 0 {
		if s, err = e.sum(g, dims, true); err != nil {
			return nil, err
		}
	}
	return e.reshape(s, shape)
}

// expandReduced undoes a reduction over dims without keepdim: it
// unsqueezes g at the reduced dims and expands it to shape.
func (e *Engine) expandReduced(g *T, shape []int, dims []int, keepdim bool) (*T, error) {
	if dims == nil {
		dims = allDims(len(shape))
	}
	var err error
	if !keepdim {
		ks := append([]int(nil), shape...)
		for _, d := range dims {
			ks[d] = 1
		}
		if g, err = e.reshape(g, ks); err != nil {
			return nil, err
		}
	}
	return e.expand(g, shape)
}

func allDims(n int) []int {
	d := make([]int, n)
	for i := range d {
		d[i] = i
	}
	return d
}

// reducedCount returns the number of elements folded into each output
// element by a reduction over dims (nil = all).
func reducedCount(shape []int, dims []int) int {
	if dims == nil {
		dims = allDims(len(shape))
	}
	n := 1
	for _, d := range dims {
		n *= shape[d]
	}
	return n
}
