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
