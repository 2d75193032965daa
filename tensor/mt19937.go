package tensor

// mt19937 is the 32-bit Mersenne Twister as at::mt19937 (PyTorch's CPU
// generator engine): seeded by the standard init_genrand recurrence.
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
	for i := 0; i < 624; i++ {
		y := m.state[i]&0x80000000 | m.state[(i+1)%624]&0x7fffffff
		v := m.state[(i+397)%624] ^ y>>1
		if y&1 != 0 {
			v ^= 0x9908b0df
		}
		m.state[i] = v
	}
	m.idx = 0
}

func (m *mt19937) next() uint32 {
	if m.idx >= 624 {
		m.twist()
	}
	y := m.state[m.idx]
	m.idx++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}
