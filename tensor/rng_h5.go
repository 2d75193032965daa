package tensor

import (
	bin "encoding/binary"
	"math"
)

// RNGStateSize is the length in bytes of a generator state as PyTorch
// 1.13's torch.get_rng_state() returns it on CPU (CPUGeneratorImplState:
// the legacy THGeneratorState, then the cached float normal sample).
const RNGStateSize = 5056

// rngStateLegacySize is the size of a bare THGeneratorState, which
// PyTorch's set_rng_state also accepts.
const rngStateLegacySize = 5048

// InitialSeed returns the seed g was last seeded with (torch.initial_seed).
func (g *Generator) InitialSeed() uint64 { return g.seed }

// Uint32 returns the next 32-bit draw (CPUGeneratorImpl::random).
func (g *Generator) Uint32() uint32 { return g.random() }

// Uint64 returns the next 64-bit draw, two 32-bit draws with the first as
// the high half (CPUGeneratorImpl::random64).
func (g *Generator) Uint64() uint64 { return g.random64() }

// NormalFloat64 returns one sample of at::normal_distribution<double>
// (Box-Muller on two f64 uniforms, the second value cached for the next
// call), as PyTorch's serial CPU kernels (log_normal_) draw them.
func (g *Generator) NormalFloat64(mean, std float64) float64 { return g.normal(mean, std) }

// State returns g's state in PyTorch's byte layout (little-endian x86-64
// CPUGeneratorImplState, RNGStateSize bytes): initial seed (u64), left
// (i32), seeded (i32), next (u64), the 624 Mersenne Twister words (each
// as u64), normal_x, normal_y, normal_rho (f64), normal_is_valid (i32),
// the float normal sample (f32) and its valid flag (bool). A state taken
// right after manual_seed is byte-identical to PyTorch's; after a whole
// multiple of 624 draws the next field reads 0 where PyTorch's reads 624
// (the two mean the same: the twist runs on the next draw).
func (g *Generator) State() []byte {
	b := make([]byte, RNGStateSize)
	le := bin.LittleEndian
	le.PutUint64(b[0:], g.seed)
	idx := g.mt.idx
	le.PutUint32(b[8:], uint32(625-idx))
	le.PutUint32(b[12:], 1)
	next := idx
	if idx >= 624 {
		next = 0
	}
	le.PutUint64(b[16:], uint64(next))
	for i, w := range g.mt.state {
		le.PutUint64(b[24+8*i:], uint64(w))
	}
	if g.hasNormal {
		le.PutUint64(b[5024:], math.Float64bits(g.nextNormal))
		le.PutUint32(b[5040:], 1)
	}
	return b
}

// SetState restores a state made by State or by PyTorch's
// torch.get_rng_state() (RNGStateSize bytes, or the 5048-byte legacy
// THGeneratorState); the draws that follow repeat those that followed
// the saved state. Errors: RuntimeError for a state of another size or
// with an out-of-range position.
func (g *Generator) SetState(b []byte) error {
	if len(b) != RNGStateSize && len(b) != rngStateLegacySize {
		return errorf(RuntimeError, "Expected either a CPUGeneratorImplStateLegacy of size %d or a CPUGeneratorImplState of size %d but found the input RNG state size to be %d", rngStateLegacySize, RNGStateSize, len(b))
	}
	le := bin.LittleEndian
	left := int(int32(le.Uint32(b[8:])))
	if left < 1 || left > 624 {
		return errorf(RuntimeError, "set_rng_state: invalid generator state (left = %d, expected 1 to 624)", left)
	}
	g.seed = le.Uint64(b[0:])
	for i := range g.mt.state {
		g.mt.state[i] = uint32(le.Uint64(b[24+8*i:]))
	}
	g.mt.idx = 625 - left
	g.hasNormal = le.Uint32(b[5040:]) != 0
	g.nextNormal = math.Float64frombits(le.Uint64(b[5024:]))
	return nil
}
