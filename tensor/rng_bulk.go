package tensor

import "github.com/tsrlang/tsr/backends/cpu"

// Float64s sets d to the next len(d) Float64 draws, in order: the same
// values, and the same generator state after them, as len(d) calls of
// Float64 (53 bits of two 32-bit draws, the first the high half; as
// uniform_real_distribution<double>(0, 1)), read straight off the twist
// block. PyTorch's serial per-element kernels (exponential_, cauchy_,
// geometric_) draw one such value per element.
func (g *Generator) Float64s(d []float64) {
	m := &g.mt
	for i := range d {
		var hi, lo uint32
		if m.idx+2 <= 624 {
			hi, lo = cpu.MT19937TemperWord(m.state[m.idx]), cpu.MT19937TemperWord(m.state[m.idx+1])
			m.idx += 2
		} else { // the two words straddle a twist
			hi = m.next()
			lo = m.next()
		}
		d[i] = float64((uint64(hi)<<32|uint64(lo))&(1<<53-1)) * 0x1p-53
	}
}

// FromUniforms returns a contiguous tensor of the given shape and dtype
// dt whose elements, in C order, are f(u) for successive Float64 draws u
// of g, converted to dt as FromFloat64s converts (PyTorch's serial
// transformation kernels: exponential_, cauchy_, geometric_ compute in
// double and cast). The uniforms are drawn a block at a time into a small
// buffer: no float64 copy of an f32 result. Errors: a bad shape, a nil g
// (ValueError).
func FromUniforms(g *Generator, shape []int, dt DType, f func(u float64) float64) (*Tensor, error) {
	if g == nil {
		return nil, errNilGenerator("FromUniforms")
	}
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	st := dt
	if dt != F32 {
		st = F64 // other dtypes are converted from float64 by toDType
	}
	t := empty(shape, st)
	n := t.Numel()
	var buf [1024]float64
	for c := 0; c < n; c += len(buf) {
		u := buf[:min(len(buf), n-c)]
		g.Float64s(u)
		if st == F32 {
			d := t.storage.F32()[c : c+len(u)]
			for i, v := range u {
				d[i] = float32(f(v))
			}
		} else {
			d := t.storage.F64()[c : c+len(u)]
			for i, v := range u {
				d[i] = f(v)
			}
		}
	}
	return t.toDType(dt), nil
}
