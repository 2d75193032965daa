package tensor

import "github.com/tsrlang/tsr/backends/cpu"

// mt19937 is the 32-bit Mersenne Twister as at::mt19937 (PyTorch's CPU
// generator engine): seeded by the standard init_genrand recurrence. The
// twist and the bulk float32 uniforms are backends/cpu kernels.
type mt19937 struct {
	state [624]uint32
	idx   int
}

func (m *mt19937) seed(s uint32) {
	m.state[0] = s
	for i := 1; i < 624; i++ {
		p := m.state[i-1]
		m.state[i] = 1812433253*(p^(p>>30)) + uint32(i)
	}
	m.idx = 624
}

func (m *mt19937) twist() {
	cpu.MT19937Twist(&m.state)
	m.idx = 0
}

func (m *mt19937) next() uint32 {
	if m.idx >= 624 {
		m.twist()
	}
	y := m.state[m.idx]
	m.idx++
	return cpu.MT19937TemperWord(y)
}

// uniformF32 sets d to the next len(d) draws as float32 uniforms in
// [0, 1), in order: the low 24 bits of each 32-bit draw times 2^-24
// (exact), as uniform_real_distribution<float>(0, 1) and uniform01(F32).
func (m *mt19937) uniformF32(d []float32) {
	for len(d) > 0 {
		if m.idx >= 624 {
			m.twist()
		}
		k := min(624-m.idx, len(d))
		cpu.MT19937UniformF32(d[:k], m.state[m.idx:m.idx+k])
		m.idx += k
		d = d[k:]
	}
}
