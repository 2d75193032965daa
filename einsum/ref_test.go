package einsum

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// dense is the tests' reference tensor: float64 data in C order.
type dense struct {
	shape []int
	data  []float64
}

func numel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

func newDense(shape []int, data []float64) *dense {
	if data == nil {
		data = make([]float64, numel(shape))
	}
	return &dense{shape: slices.Clone(shape), data: data}
}

func stridesOf(shape []int) []int {
	st := make([]int, len(shape))
	acc := 1
	for k := len(shape) - 1; k >= 0; k-- {
		st[k] = acc
		acc *= shape[k]
	}
	return st
}

// forEach calls f with every multi-index of shape in C order.
func forEach(shape []int, f func(idx []int)) {
	if numel(shape) == 0 {
		return
	}
	idx := make([]int, len(shape))
	for {
		f(idx)
		k := len(shape) - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

func (x *dense) at(idx []int) float64 {
	off := 0
	for k, s := range stridesOf(x.shape) {
		off += idx[k] * s
	}
	return x.data[off]
}

// denseOps implements Ops[*dense] simply (every op copies) and records the
// calls it receives.
type denseOps struct{ calls []string }

func (o *denseOps) rec(s string) { o.calls = append(o.calls, s) }

func (o *denseOps) Shape(x *dense) []int { return slices.Clone(x.shape) }

func (o *denseOps) Diagonal(x *dense, d1, d2 int) (*dense, error) {
	o.rec("Diagonal")
	if d1 >= d2 || d2 >= len(x.shape) || x.shape[d1] != x.shape[d2] {
		return nil, fmt.Errorf("Diagonal: bad dims %d,%d for %v", d1, d2, x.shape)
	}
	var shape []int
	for k, s := range x.shape {
		if k != d1 && k != d2 {
			shape = append(shape, s)
		}
	}
	shape = append(shape, x.shape[d1])
	r := newDense(shape, nil)
	src := make([]int, len(x.shape))
	i := 0
	forEach(shape, func(idx []int) {
		m := 0
		for k := range x.shape {
			if k == d1 || k == d2 {
				src[k] = idx[len(idx)-1]
			} else {
				src[k] = idx[m]
				m++
			}
		}
		r.data[i] = x.at(src)
		i++
	})
	return r, nil
}

func (o *denseOps) Permute(x *dense, perm []int) (*dense, error) {
	o.rec("Permute")
	if len(perm) != len(x.shape) {
		return nil, fmt.Errorf("Permute: perm %v for %v", perm, x.shape)
	}
	shape := make([]int, len(perm))
	for k, p := range perm {
		shape[k] = x.shape[p]
	}
	r := newDense(shape, nil)
	src := make([]int, len(perm))
	i := 0
	forEach(shape, func(idx []int) {
		for k, p := range perm {
			src[p] = idx[k]
		}
		r.data[i] = x.at(src)
		i++
	})
	return r, nil
}

func (o *denseOps) Reshape(x *dense, shape []int) (*dense, error) {
	o.rec("Reshape")
	if numel(shape) != len(x.data) {
		return nil, fmt.Errorf("Reshape: %v to %v", x.shape, shape)
	}
	return newDense(shape, slices.Clone(x.data)), nil
}

func (o *denseOps) Expand(x *dense, shape []int) (*dense, error) {
	o.rec("Expand")
	if len(shape) != len(x.shape) {
		return nil, fmt.Errorf("Expand: %v to %v", x.shape, shape)
	}
	r := newDense(shape, nil)
	src := make([]int, len(shape))
	i := 0
	forEach(shape, func(idx []int) {
		for k := range idx {
			if x.shape[k] == 1 {
				src[k] = 0
			} else {
				src[k] = idx[k]
			}
		}
		r.data[i] = x.at(src)
		i++
	})
	return r, nil
}

func (o *denseOps) Sum(x *dense, dims []int, keepdim bool) (*dense, error) {
	o.rec("Sum")
	if keepdim {
		return nil, fmt.Errorf("Sum: keepdim not used by einsum")
	}
	var shape []int
	for k, s := range x.shape {
		if !slices.Contains(dims, k) {
			shape = append(shape, s)
		}
	}
	r := newDense(shape, nil)
	rs := stridesOf(shape)
	forEach(x.shape, func(idx []int) {
		off, m := 0, 0
		for k := range idx {
			if !slices.Contains(dims, k) {
				off += idx[k] * rs[m]
				m++
			}
		}
		r.data[off] += x.at(idx)
	})
	return r, nil
}

func (o *denseOps) Mul(a, b *dense) (*dense, error) {
	o.rec("Mul")
	if len(a.shape) != len(b.shape) {
		return nil, fmt.Errorf("Mul: ranks differ %v %v", a.shape, b.shape)
	}
	shape := make([]int, len(a.shape))
	for k := range shape {
		switch {
		case a.shape[k] == b.shape[k] || b.shape[k] == 1:
			shape[k] = a.shape[k]
		case a.shape[k] == 1:
			shape[k] = b.shape[k]
		default:
			return nil, fmt.Errorf("Mul: shapes %v %v", a.shape, b.shape)
		}
	}
	r := newDense(shape, nil)
	ia, ib := make([]int, len(shape)), make([]int, len(shape))
	i := 0
	forEach(shape, func(idx []int) {
		for k := range idx {
			ia[k], ib[k] = idx[k], idx[k]
			if a.shape[k] == 1 {
				ia[k] = 0
			}
			if b.shape[k] == 1 {
				ib[k] = 0
			}
		}
		r.data[i] = a.at(ia) * b.at(ib)
		i++
	})
	return r, nil
}

func (o *denseOps) Bmm(a, b *dense) (*dense, error) {
	o.rec("Bmm")
	if len(a.shape) != 3 || len(b.shape) != 3 || a.shape[0] != b.shape[0] || a.shape[2] != b.shape[1] {
		return nil, fmt.Errorf("Bmm: shapes %v %v", a.shape, b.shape)
	}
	B, M, K, N := a.shape[0], a.shape[1], a.shape[2], b.shape[2]
	r := newDense([]int{B, M, N}, nil)
	for bb := 0; bb < B; bb++ {
		for i := 0; i < M; i++ {
			for j := 0; j < N; j++ {
				s := 0.0
				for k := 0; k < K; k++ {
					s += a.data[(bb*M+i)*K+k] * b.data[(bb*K+k)*N+j]
				}
				r.data[(bb*M+i)*N+j] = s
			}
		}
	}
	return r, nil
}

func (o *denseOps) Zeros(like *dense, shape []int) (*dense, error) {
	o.rec("Zeros")
	return newDense(shape, nil), nil
}

// bruteForce evaluates an einsum equation without ellipsis by summing over
// every assignment of every index; size-1 operand dimensions broadcast.
// terms are the input subscripts, out the output subscripts (explicit).
func bruteForce(terms []string, out string, ops []*dense) *dense {
	size := map[byte]int{}
	var letters []byte
	for k, t := range terms {
		for d := 0; d < len(t); d++ {
			c := t[d]
			s := ops[k].shape[d]
			if old, ok := size[c]; !ok {
				letters = append(letters, c)
				size[c] = s
			} else if old == 1 {
				size[c] = s
			}
		}
	}
	outShape := make([]int, len(out))
	for i := 0; i < len(out); i++ {
		outShape[i] = size[out[i]]
	}
	r := newDense(outShape, nil)
	dims := make([]int, len(letters))
	for i, c := range letters {
		dims[i] = size[c]
	}
	pos := map[byte]int{}
	for i, c := range letters {
		pos[c] = i
	}
	rs := stridesOf(outShape)
	// Precomputed: for each operand dim, the position of its letter in
	// the assignment (-1: broadcast size-1 dim) and the operand stride.
	type ref struct{ pos, stride int }
	refs := make([][]ref, len(terms))
	for k, t := range terms {
		st := stridesOf(ops[k].shape)
		for d := 0; d < len(t); d++ {
			p := pos[t[d]]
			if ops[k].shape[d] == 1 {
				p = -1
			}
			refs[k] = append(refs[k], ref{p, st[d]})
		}
	}
	outPos := make([]int, len(out))
	for i := 0; i < len(out); i++ {
		outPos[i] = pos[out[i]]
	}
	forEach(dims, func(a []int) {
		v := 1.0
		for k, rk := range refs {
			off := 0
			for _, f := range rk {
				if f.pos >= 0 {
					off += a[f.pos] * f.stride
				}
			}
			v *= ops[k].data[off]
		}
		off := 0
		for i, p := range outPos {
			off += a[p] * rs[i]
		}
		r.data[off] += v
	})
	return r
}

// implicitOutput is an independent implementation of the implicit-mode
// output for letter-only equations: letters used once, in ASCII order
// (capitals first, as torch).
func implicitOutput(terms []string) string {
	count := map[byte]int{}
	for _, t := range terms {
		for i := 0; i < len(t); i++ {
			count[t[i]]++
		}
	}
	var out []byte
	for c, n := range count {
		if n == 1 {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return string(out)
}

// expandEllipsis rewrites an equation with "..." into a letter-only one for
// the given operand ranks, using letters absent from eq for the ellipsis
// dimensions (right-aligned, like broadcasting). It returns the input terms
// and the explicit output.
func expandEllipsis(eq string, ranks []int) ([]string, string) {
	eq = strings.ReplaceAll(eq, " ", "")
	lhs, rhs, explicit := strings.Cut(eq, "->")
	terms := strings.Split(lhs, ",")
	var free []byte
	for _, c := range []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		if !strings.ContainsRune(eq, rune(c)) {
			free = append(free, c)
		}
	}
	E := 0
	for k, t := range terms {
		if strings.Contains(t, "...") {
			E = max(E, ranks[k]-(len(t)-3))
		}
	}
	ell := string(free[:E])
	hasEll := false
	for k, t := range terms {
		if strings.Contains(t, "...") {
			hasEll = true
			e := ranks[k] - (len(t) - 3)
			terms[k] = strings.Replace(t, "...", ell[E-e:], 1)
		}
	}
	if !explicit {
		var plain []string
		for _, t := range strings.Split(lhs, ",") {
			plain = append(plain, strings.ReplaceAll(t, "...", ""))
		}
		rhs = implicitOutput(plain)
		if hasEll {
			rhs = ell + rhs
		}
	} else {
		rhs = strings.Replace(rhs, "...", ell, 1)
	}
	return terms, rhs
}

func maxAbsDiff(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// matmulOps is denseOps plus MatmulOps.Matmul, so that Execute takes the
// separate-batch-dimension lowering (Step.MatLeft etc.).
type matmulOps struct{ denseOps }

func (o *matmulOps) Matmul(a, b *dense) (*dense, error) {
	o.rec("Matmul")
	na, nb := len(a.shape), len(b.shape)
	if na < 2 || na != nb || !slices.Equal(a.shape[:na-2], b.shape[:nb-2]) || a.shape[na-1] != b.shape[nb-2] {
		return nil, fmt.Errorf("Matmul: shapes %v %v", a.shape, b.shape)
	}
	batch := a.shape[:na-2]
	B := numel(batch)
	M, K, N := a.shape[na-2], a.shape[na-1], b.shape[nb-1]
	r, err := o.denseOps.Bmm(newDense([]int{B, M, K}, a.data), newDense([]int{B, K, N}, b.data))
	if err != nil {
		return nil, err
	}
	o.calls = o.calls[:len(o.calls)-1] // the inner Bmm is part of this Matmul
	r.shape = append(slices.Clone(batch), M, N)
	return r, nil
}

func maxAbs(a []float64) float64 {
	m := 0.0
	for _, v := range a {
		m = max(m, math.Abs(v))
	}
	return m
}
