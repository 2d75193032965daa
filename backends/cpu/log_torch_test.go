package cpu

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestLogMatchesSleef: LogSleefF32, LogF32 and every "log" kernel
// candidate give torch.log's f32 bits (SLEEF's logf_u10) on the inputs of
// testdata/gen_log_torch.py (specials, subnormals, values near 1 and near
// the reduction boundary, the whole exponent range), slice tails included.
func TestLogMatchesSleef(t *testing.T) {
	data, err := os.ReadFile("testdata/log_torch_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct{ X, Log []uint32 }
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	x := make([]float32, len(g.X))
	for i, b := range g.X {
		x[i] = math.Float32frombits(b)
	}
	same := func(got float32, want uint32) bool {
		w := math.Float32frombits(want)
		return math.Float32bits(got) == want || (got != got && w != w)
	}
	for i, v := range x {
		if got := LogSleefF32(v); !same(got, g.Log[i]) {
			t.Fatalf("LogSleefF32(%g) = %g, torch %g", v, got, math.Float32frombits(g.Log[i]))
		}
	}
	check := func(name string, f func(dst, x []float32)) {
		for _, n := range []int{len(x), 7, 33} {
			dst := make([]float32, n)
			f(dst, x[:n])
			for i, v := range dst {
				if !same(v, g.Log[i]) {
					t.Fatalf("%s n=%d: log(%g) = %g, torch %g", name, n, x[i], v, math.Float32frombits(g.Log[i]))
				}
			}
		}
	}
	check("LogF32", LogF32)
	for _, cand := range candidatesFor(t, "log", "float32") {
		check(cand.Name, cand.Impl.(unFn[float32]))
	}
}
