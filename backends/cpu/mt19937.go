package cpu

import "github.com/tsrlang/tsr/backends"

// MT19937, the engine of PyTorch's CPU generator (at::mt19937, the
// standard 32-bit Mersenne Twister), over a caller's 624-word state: the
// twist that regenerates the state and the tempering of state words into
// float32 uniforms, the two steps of drawing uniforms in bulk (randn's
// normal_fill draws all its uniforms first).

const (
	mtN = 624 // state words
	mtM = 397 // the twist's offset
)

type (
	mtTwistFn   func(s *[mtN]uint32)
	mtUniformFn func(dst []float32, s []uint32)
)

var (
	mtTwist   mtTwistFn
	mtUniform mtUniformFn
)

func mtTwistKey() backends.Key {
	return backends.Key{Op: "mt19937_twist", DType: "uint32", Device: "cpu"}
}
func mtUniformKey() backends.Key {
	return backends.Key{Op: "mt19937_uniform", DType: "float32", Device: "cpu"}
}

func init() {
	backends.Register(mtTwistKey(), backends.Candidate{Name: "go", Impl: mtTwistFn(goMTTwist), Requires: backends.TierGeneric})
	backends.Register(mtUniformKey(), backends.Candidate{Name: "go", Impl: mtUniformFn(goMTUniform), Requires: backends.TierGeneric})
	registerMTAsm()
	c, ok := backends.Lookup(mtTwistKey())
	if !ok {
		panic("cpu: no kernel registered for mt19937_twist")
	}
	mtTwist = c.Impl.(mtTwistFn)
	if c, ok = backends.Lookup(mtUniformKey()); !ok {
		panic("cpu: no kernel registered for mt19937_uniform")
	}
	mtUniform = c.Impl.(mtUniformFn)
}

// MT19937Twist regenerates the 624 words of a 32-bit Mersenne Twister
// state in place (the generation step of std::mt19937 and PyTorch's
// at::mt19937, before the next 624 outputs are read from s[0], s[1], ...).
func MT19937Twist(s *[624]uint32) { mtTwist(s) }

// MT19937TemperWord is MT19937's output transform of a state word: the
// next draw of a generator whose next word is y.
func MT19937TemperWord(y uint32) uint32 {
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// MT19937UniformF32 sets dst[i], for i < len(dst), to the float32 uniform
// in [0, 1) drawn from state word s[i]: the low 24 bits of
// MT19937TemperWord(s[i]) times 2^-24 (exact), as PyTorch's
// uniform_real_distribution<float>(0, 1) on its CPU generator. Panics if s
// is shorter than dst.
func MT19937UniformF32(dst []float32, s []uint32) {
	if len(s) < len(dst) {
		panic("cpu.MT19937UniformF32: s shorter than dst")
	}
	mtUniform(dst, s[:len(dst)])
}

// mtTwistWord is the twist of one word: the top bit of a and the low 31
// bits of b, shifted, xor'ed into c, with the matrix constant where the
// low bit is set.
func mtTwistWord(a, b, c uint32) uint32 {
	y := a&0x80000000 | b&0x7fffffff
	return c ^ y>>1 ^ -(y&1)&0x9908b0df
}

// goMTTwist is the twist word by word, in order: word i reads words i+1
// and i+397 modulo 624, those that wrap already regenerated.
func goMTTwist(s *[mtN]uint32) {
	mtTwistRange(s, 0, mtN-1)
	s[mtN-1] = mtTwistWord(s[mtN-1], s[0], s[mtM-1])
}

// mtTwistRange twists words [i, j) of s (j < 624) one at a time.
func mtTwistRange(s *[mtN]uint32, i, j int) {
	for ; i < j && i < mtN-mtM; i++ {
		s[i] = mtTwistWord(s[i], s[i+1], s[i+mtM])
	}
	for ; i < j; i++ {
		s[i] = mtTwistWord(s[i], s[i+1], s[i+mtM-mtN])
	}
}

func goMTUniform(dst []float32, s []uint32) {
	s = s[:len(dst)]
	for i, y := range s {
		dst[i] = float32(MT19937TemperWord(y)&(1<<24-1)) * 0x1p-24
	}
}
