package tensorio

import (
	"io"
	"path/filepath"
	"testing"
)

// Benchmarks on the real data files; compare with testdata/bench_numpy.py.

func benchLoad(b *testing.B, name string) {
	p := filepath.Join(dataDir, name)
	for b.Loop() {
		if _, err := Load(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadNPY(b *testing.B)   { benchLoad(b, "digits_X.npy") }
func BenchmarkLoadNPZ(b *testing.B)   { benchLoad(b, "digits.npz") }
func BenchmarkLoadCSVGz(b *testing.B) { benchLoad(b, "digits.csv.gz") }
func BenchmarkLoadPNG(b *testing.B)   { benchLoad(b, "camera.png") }

func BenchmarkEncodeNPY(b *testing.B) {
	f, err := Load(filepath.Join(dataDir, "digits_X.npy"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(f.Array.Data)))
	for b.Loop() {
		EncodeNPY(io.Discard, f.Array)
	}
}

func BenchmarkFloat64s(b *testing.B) {
	f, err := Load(filepath.Join(dataDir, "digits.npz"))
	if err != nil {
		b.Fatal(err)
	}
	X := f.Lookup("X") // f32
	b.SetBytes(int64(len(X.Data)))
	for b.Loop() {
		X.Float64s()
	}
}
