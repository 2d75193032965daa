package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// mtSeed is std::mt19937's seeding (init_genrand).
func mtSeed(s *[mtN]uint32, seed uint32) {
	s[0] = seed
	for i := 1; i < mtN; i++ {
		s[i] = 1812433253*(s[i-1]^s[i-1]>>30) + uint32(i)
	}
}

// Every twist kernel regenerates states as the word-by-word recurrence,
// over generations from seeded and from random states, and the pure-Go
// one gives std::mt19937's 10000th output from the default seed (the C++
// standard's check: 4123659995).
func TestMT19937Twist(t *testing.T) {
	var s [mtN]uint32
	mtSeed(&s, 5489)
	var y uint32
	for i := 0; i < 10000; i++ {
		if i%mtN == 0 {
			goMTTwist(&s)
		}
		y = MT19937TemperWord(s[i%mtN])
	}
	if y != 4123659995 {
		t.Fatalf("mt19937 10000th output = %d, want 4123659995", y)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range candidatesFor(t, "mt19937_twist", "uint32") {
		f := c.Impl.(mtTwistFn)
		for trial := 0; trial < 20; trial++ {
			var want [mtN]uint32
			if trial < 10 {
				mtSeed(&want, uint32(trial))
			} else {
				for i := range want {
					want[i] = r.Uint32()
				}
			}
			got := want
			for gen := 0; gen < 5; gen++ {
				goMTTwist(&want)
				f(&got)
				if got != want {
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s: trial %d generation %d: word %d = %#x, want %#x", c.Name, trial, gen, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// Every uniform kernel converts state words as the pure-Go loop does, at
// every length and offset into the state, and the values are uniforms:
// the low 24 bits of the tempered word over 2^24.
func TestMT19937UniformF32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var s [mtN]uint32
	for i := range s {
		s[i] = r.Uint32()
	}
	s[0], s[1], s[2] = 0, math.MaxUint32, MT19937TemperWord(0xffffff)
	want := make([]float32, mtN)
	for i, w := range s {
		want[i] = float32(MT19937TemperWord(w)&0xffffff) / (1 << 24)
		if want[i] < 0 || want[i] >= 1 {
			t.Fatalf("uniform %v out of [0, 1)", want[i])
		}
	}
	for _, c := range candidatesFor(t, "mt19937_uniform", "float32") {
		f := c.Impl.(mtUniformFn)
		for off := 0; off < 40; off++ {
			for n := 0; off+n <= mtN; n += 1 + n/3 {
				got := make([]float32, n+1)
				got[n] = -1
				f(got[:n], s[off:off+n])
				for i := 0; i < n; i++ {
					if math.Float32bits(got[i]) != math.Float32bits(want[off+i]) {
						t.Fatalf("%s: off %d n %d: dst[%d] = %v, want %v", c.Name, off, n, i, got[i], want[off+i])
					}
				}
				if got[n] != -1 {
					t.Fatalf("%s: off %d n %d wrote past dst", c.Name, off, n)
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("MT19937UniformF32 with a short s did not panic")
		}
	}()
	MT19937UniformF32(make([]float32, 3), s[:2])
}

func BenchmarkMT19937(b *testing.B) {
	var s [mtN]uint32
	mtSeed(&s, 1)
	dst := make([]float32, mtN)
	for _, name := range []string{"go", "avx2", "avx512"} {
		var tw mtTwistFn
		var un mtUniformFn
		for _, c := range candidatesForB("mt19937_twist", "uint32") {
			if c.Name == name {
				tw = c.Impl.(mtTwistFn)
			}
		}
		for _, c := range candidatesForB("mt19937_uniform", "float32") {
			if c.Name == name {
				un = c.Impl.(mtUniformFn)
			}
		}
		if tw == nil || un == nil {
			continue
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(4 * mtN)
			for b.Loop() {
				tw(&s)
				un(dst, s[:])
			}
		})
	}
}
