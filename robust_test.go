package tsr

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"
)

// TestHugeAllocationIsAMemoryError checks that a tensor too large for the
// machine fails as a catchable MemoryError, never as Go's fatal
// out-of-memory crash, both from a creation function and from a broadcast.
func TestHugeAllocationIsAMemoryError(t *testing.T) {
	var out bytes.Buffer
	in := New(Options{Stdout: &out})
	src := `
try { zeros(10 ** 13) } catch e { print(e.kind) }
try { ones(10 ** 6, 1) + ones(1, 10 ** 6) } catch e { print(e.kind) }
print(ones(2).sum().item())
`
	if _, err := in.Eval(context.Background(), "huge.tsr", src); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "MemoryError\nMemoryError\n2.0\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// FuzzEval compiles and runs arbitrary source with the whole standard
// library under a step limit and a deadline: any outcome but a Go panic
// or a hang is fine. Seeded with every example program.
func FuzzEval(f *testing.F) {
	files, _ := filepath.Glob("examples/*.tsr")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && len(b) < 4096 {
			f.Add(string(b))
		}
	}
	f.Add(`x = arange(12, dtype=f32).reshape(3, 4); print(x.t().stride(), x[1:, ::2])`)
	f.Add(`gw = grad(w) { (w * w).sum() }`)
	f.Add(`print(ein"ij,jk->ik"(ones(2, 3), ones(3, 4)))`)
	f.Add(`d = 4; a = randn(2, 3, 5); print(ein"bik,bjk->bij"(a, a) * (d ** -0.5), ein"bik,bjk->bji"(a, a) / 8, ein"ij,jk->ik"(a[0], a[0]) * x)`)
	f.Add(`q = randn(2, 3, 5, 4); print(nn.scaled_dot_product_attention(q, q, q[..., :2], attn_mask=ones(5, 5, dtype=bool).tril(), scale=0.5))`)
	f.Add(`q = randn(5, 0); print(nn.scaled_dot_product_attention(q, randn(7, 0), randn(7, 3), is_causal=true, dropout_p=0.1))`)
	f.Add(`x = randn(3, 17, dtype=f16); print(softmax(x, -1), x @ x.t(), x.to(f32).exp().to(bf16))`)
	f.Add("fn f(q, k, v) {\n s = ein\"i,i->i\"(q, k) * 2\n p = softmax(s, -1)\n return ein\"i,i->i\"(p, v)\n}\nx = ones(3)\nprint(f(x, x, x), softmax(x @ x.mT / 2, -1) @ x)")
	f.Add("fn f(q, k, v) {\n s = ein\"bhid,bhjd->bhij\"(q, k) * 0.5\n p = softmax(s, dim=-1)\n return ein\"bhij,bhjd->bhid\"(p, v)\n}\nq = randn(2, 2, 6, 4)\nprint(f(q, q, q), ein\"bjd,bij->bid\"(q[0], (ein\"bid,bjd->bij\"(q[0], q[1]) / 2).softmax(-1)))")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<12 {
			return
		}
		in := New(Options{Stdout: io.Discard, Stderr: io.Discard, MaxSteps: 20000, MaxMemory: 64 << 20})
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, err := in.Eval(ctx, "fuzz.tsr", src)
		var ee *Error
		if err != nil && errors.As(err, &ee) && ee.Kind == "InternalError" && !strings.Contains(ee.Msg, "MemoryError") {
			t.Fatalf("internal error on %q: %v", src, err)
		}
	})
}

// TestMaxMemoryIgnoresEarlierGarbage: storage that was garbage when the
// interpreter was created and is collected later must not hide the
// program's own allocations from MaxMemory.
func TestMaxMemoryIgnoresEarlierGarbage(t *testing.T) {
	garbage := New(Options{})
	if _, err := garbage.Eval(context.Background(), "g.tsr", "xs = []\nfor i in range(20) { xs.append(zeros(1000000)) }\nxs = none"); err != nil {
		t.Fatal(err)
	}
	in := New(Options{MaxMemory: 20 << 20})
	goruntime.GC() // the 80 MB of earlier garbage goes now
	time.Sleep(5 * time.Millisecond)
	_, err := in.Eval(context.Background(), "m.tsr", "xs = []\nfor i in range(300) { xs.append(zeros(1000000)) }")
	if !errors.Is(err, ErrMemoryLimit) {
		t.Fatalf("got %v, want the memory limit", err)
	}
}
