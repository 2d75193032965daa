package stdlib_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/stdlib"
)

// attnProgram builds a random attention-idiom program from r: random
// forms (einsum or @ scores, softmax spelling, nested or statements),
// dtypes, shapes (size-1 and mismatched ones included), layouts and
// scales, with an occasional inf. Its result is the global out (or the
// error it raises).
func attnProgram(r *rand.Rand) string {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	dim := func() int { return 1 + r.IntN(30) }
	nb := r.IntN(3)
	batch := make([]int, nb)
	for i := range batch {
		batch[i] = 1 + r.IntN(3)
	}
	L, S, E, Ev := dim(), dim(), dim(), dim()
	if r.IntN(20) == 0 { // keys over more than one GEMM K panel
		L, S = 1+r.IntN(40), 700+r.IntN(500)
	}
	if r.IntN(8) == 0 {
		S++ // v with one key more than k: a shape error
	}
	shape := func(a, b int) string {
		var parts []string
		for _, n := range batch {
			parts = append(parts, fmt.Sprint(n))
		}
		return strings.Join(append(parts, fmt.Sprint(a), fmt.Sprint(b)), ", ")
	}
	dt := pick("f32", "f32", "f64", "f16")
	var b strings.Builder
	fmt.Fprintf(&b, "manual_seed(%d)\n", r.IntN(1000))
	mk := func(name string, a, c int) {
		if r.IntN(4) == 0 { // a transposed view
			fmt.Fprintf(&b, "%s = randn(%s, dtype=%s).transpose(-2, -1)\n", name, shape(c, a), dt)
		} else {
			fmt.Fprintf(&b, "%s = randn(%s, dtype=%s)\n", name, shape(a, c), dt)
		}
	}
	mk("q", L, E)
	mk("k", S-boolInt(S > 1 && r.IntN(8) == 0), E)
	mk("v", S, Ev)
	if r.IntN(6) == 0 {
		b.WriteString("q[(0,) * q.dim()] = inf\n")
	}
	letters := "xyzw"[:nb]
	scores := pick(
		fmt.Sprintf(`ein"%sid,%sjd->%sij"(q, k)`, letters, letters, letters),
		"q @ k.transpose(-2, -1)", "q @ k.mT")
	if nb == 0 && r.IntN(2) == 0 {
		scores = "q @ k.T"
	}
	scale := pick("", " * 0.125", " / 8", " / 3", " * (16 ** -0.5)", " * 2", " * 0", " * -1.5", " * tensor(0.5)")
	soft := func(x string) string {
		return pick("softmax("+x+", dim=-1)", "softmax("+x+", -1)", "nn.softmax("+x+", dim=-1)", "("+x+").softmax(-1)", "softmax("+x+", dim=-2)")
	}
	out := func(p string) string {
		return pick(fmt.Sprintf(`ein"%sij,%sje->%sie"(%s, v)`, letters, letters, letters, p), p+" @ v")
	}
	switch r.IntN(4) {
	case 0:
		fmt.Fprintf(&b, "out = %s\n", out(soft(scores+scale)))
	case 1:
		fmt.Fprintf(&b, "fn f(q, k, v) {\n    s = %s%s\n    p = %s\n    return %s\n}\nout = f(q, k, v)\n", scores, scale, soft("s"), out("p"))
	case 2:
		fmt.Fprintf(&b, "fn f(q, k, v) {\n    s = %s%s\n    %s\n}\nout = f(q, k, v)\n", scores, scale, out(soft("s")))
	default:
		fmt.Fprintf(&b, "fn f(q, k, v) {\n    p = %s\n    o = %s\n    return o\n}\nout = f(q, k, v)\n", soft(scores+scale), out("p"))
	}
	return b.String()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// runAttnProgram runs src as a script, with or without the fused path,
// and returns out's bits, dtype, shape and strides, or the error text.
func runAttnProgram(t *testing.T, src string, fused bool) string {
	t.Helper()
	in := tsr.New(tsr.Options{MaxMemory: 256 << 20})
	if !fused {
		in.Thread().Attention = nil
	}
	if _, err := in.EvalScript(context.Background(), "a.tsr", src); err != nil {
		var ee *tsr.Error
		if !errors.As(err, &ee) {
			t.Fatalf("%s\nnon-tsr error %v", src, err)
		}
		if ee.Kind == "InternalError" {
			t.Fatalf("%s\n%v", src, err)
		}
		return err.Error()
	}
	o, err := in.GlobalTensor("out")
	if err != nil {
		t.Fatalf("%s\n%v", src, err)
	}
	var bits []uint64
	for _, v := range o.ToFloat64s() {
		bits = append(bits, math.Float64bits(v))
	}
	return fmt.Sprint(o.DType(), o.Shape(), o.Strides(), bits)
}

// The fused attention idiom and the code as written agree on random
// programs: values bit for bit, dtype, shape, strides, or the error.
func TestAttentionIdiomRandomPrograms(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	n := 400
	if testing.Short() {
		n = 30
	}
	before := stdlib.AttentionFusions()
	for range n {
		src := attnProgram(r)
		if got, want := runAttnProgram(t, src, true), runAttnProgram(t, src, false); got != want {
			t.Fatalf("%s\nfused:   %.300s\nunfused: %.300s", src, got, want)
		}
	}
	// the generator must reach the fused path often enough to test it
	if fused := stdlib.AttentionFusions() - before; fused < int64(n)/10 {
		t.Errorf("only %d of %d programs ran fused", fused, n)
	} else {
		t.Logf("%d of %d programs ran fused", fused, n)
	}
}

// FuzzAttentionIdiom is TestAttentionIdiomRandomPrograms over fuzzed
// seeds of the program generator.
func FuzzAttentionIdiom(f *testing.F) {
	for _, s := range []uint64{1, 2, 3} {
		f.Add(s, s*7)
	}
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		src := attnProgram(rand.New(rand.NewPCG(s1, s2)))
		if got, want := runAttnProgram(t, src, true), runAttnProgram(t, src, false); got != want {
			t.Fatalf("%s\nfused:   %.300s\nunfused: %.300s", src, got, want)
		}
	})
}
