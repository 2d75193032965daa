package stdlib_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/runtime"
)

// Adversarial cases for the VM's early recycling (runtime.Recyclable):
// every program keeps a claimed value reachable in some way the VM might
// miss and then overwrites its variable. A wrongly recycled tensor reads
// as an empty tensor (Release sets its shape to [0]) or as the values of
// the next result written into its buffer. Tensors have at least 16,384
// f32 elements (64 KiB: pooled buffers).

// A registered Go function may run another program in the same globals
// (a nested Eval) while the calling expression holds the old value of a
// claimed global read as an operand (LOAD_GLOBAL_B): the nested program's
// store to that global must not recycle it.
func TestRecycleNestedEvalKeepsOperand(t *testing.T) {
	ctx := context.Background()
	cases := []struct{ nested, src, want string }{
		// top level: w + setw() reads w, then the nested program overwrites it
		{"w = z * 3", "z = ones(20000)\nw = z + z\ny = w + setw()\nprint(y.shape, y.sum().item())", "[20000] 40000.0"},
		// the same from a function reading the global as an operand
		{"w = z * 3", "z = ones(20000)\nw = z + z\nfn f() { return w * setw() }\ny = f()\nprint(y.shape, y.sum().item())", "[20000] 0.0"},
		{"w = z * 3", "z = ones(20000)\nw = z + z\nfn f() { return w + setw() }\ny = f()\nprint(y.shape, y.sum().item(), w.sum().item())", "[20000] 40000.0 60000.0"},
		// the nested program overwrites the global twice: its second store
		// recycles the first program's value too
		{"w = z * 3\nw = z * 4", "z = ones(20000)\nw = z + z\ny = w - setw()\nprint(y.shape, y.sum().item(), w.sum().item())", "[20000] 40000.0 80000.0"},
	}
	for _, c := range cases {
		var out strings.Builder
		in := tsr.New(tsr.Options{Stdout: &out})
		nested := c.nested
		if err := in.RegisterFunc("setw", func(a tsr.Args) (any, error) {
			if _, err := a.Interpreter().Eval(a.Context(), "nested.tsr", nested); err != nil {
				return nil, err
			}
			return 0, nil
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := in.Eval(ctx, "main.tsr", c.src); err != nil {
			t.Fatalf("%s\nerror: %v", c.src, err)
		}
		if got := strings.TrimSpace(out.String()); got != c.want {
			t.Errorf("%s\nnested: %s\ngot:  %s\nwant: %s", c.src, c.nested, got, c.want)
		}
	}
}

// The same through the host's Call: a function of the program reads a
// global claimed by an earlier Eval as an operand, then a registered Go
// function runs a program that overwrites that global.
func TestRecycleNestedEvalUnderHostCall(t *testing.T) {
	ctx := context.Background()
	var out strings.Builder
	in := tsr.New(tsr.Options{Stdout: &out})
	if err := in.RegisterFunc("setw", func(a tsr.Args) (any, error) {
		if _, err := a.Interpreter().Eval(a.Context(), "nested.tsr", "w = z * 3"); err != nil {
			return nil, err
		}
		return 1, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Eval(ctx, "a.tsr", "z = ones(20000)\nw = z + z\nfn f() { return w + setw() }"); err != nil {
		t.Fatal(err)
	}
	v, err := in.Call(ctx, "f")
	if err != nil {
		t.Fatal(err)
	}
	var got []float32
	if err := tsr.Convert(v, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 20000 || got[0] != 3 || got[19999] != 3 {
		t.Fatalf("f() = %d elements, want 20000 threes", len(got))
	}
	if _, err := in.Eval(ctx, "b.tsr", "print(w.sum().item())"); err != nil {
		t.Fatal(err)
	}
	if s := strings.TrimSpace(out.String()); s != "60000.0" {
		t.Errorf("w after the nested store: %q, want 60000.0", s)
	}
}

// recorder is a host value whose operators keep their other operand (an
// expression tracer, say): a tensor it keeps must stay intact when the
// claimed variable it was read from is overwritten.
type recorder struct{ kept []runtime.Value }

func (r *recorder) String() string { return "<recorder>" }
func (r *recorder) Type() string   { return "recorder" }
func (r *recorder) Truth() bool    { return true }
func (r *recorder) Binary(op runtime.Op, y runtime.Value, side runtime.Side) (runtime.Value, error) {
	r.kept = append(r.kept, y)
	return r, nil
}

func TestRecycleHostBinaryKeepsOperand(t *testing.T) {
	ctx := context.Background()
	for _, src := range []string{
		"w = z + z\nr = rec + w\nw = z * 3",
		"w = z + z\nr = w * rec\nw = z * 3",
		"w = z + z\nr = w == rec\nw = z * 3",
		"fn f() {\n  w = z + z\n  r = rec - w\n  w = z * 3\n  return 0\n}\nf()",
		"fn f() {\n  w = z + z\n  r = w @ rec\n  return 0\n}\nf()",
	} {
		rec := &recorder{}
		in := tsr.New(tsr.Options{})
		if err := in.SetGlobal("rec", runtime.Value(rec)); err != nil {
			t.Fatal(err)
		}
		if _, err := in.Eval(ctx, "main.tsr", "z = ones(20000)\n"+src); err != nil {
			t.Fatalf("%s\nerror: %v", src, err)
		}
		if len(rec.kept) != 1 {
			t.Fatalf("%s\nkept %d values, want 1", src, len(rec.kept))
		}
		var got []float32
		if err := tsr.Convert(rec.kept[0], &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != 20000 || got[0] != 2 || got[19999] != 2 {
			t.Errorf("%s\nthe kept tensor has %d elements, want 20000 twos", src, len(got))
		}
	}
}

// Paths checked and found sound, kept as regression cases: a claimed
// operand of a deferred product overwritten by the product's own store,
// the fused attention idiom's operands, `in`, an autograd hook keeping the
// gradient (which is the saved operand's value), in-place ops, dtype
// promotion, x.data and x.grad assignment, unary minus, bool results.
func TestRecycleAdversarialPathsSound(t *testing.T) {
	pre := "z = ones(20000)\n"
	checkPrints(t, []printCase{
		{"m = ones(128, 128)\nw = m + m\nw = w @ m * 0.5\nprint(w.shape, w[0, 0].item())", "[128, 128] 128.0"},
		{"m = ones(128, 128)\nq = m + 0\nk = m + 1\nv = m * 3\no = softmax(q @ k.T * 0.125, dim=-1) @ v\nq = m * 0\nk = m * 0\nv = m * 0\nprint(o.sum().item())", "49152.0"},
		{pre + "w = z + z\nb = 2.0 in w\nw = z * 3\nprint(b)", "true"},
		{pre + "p = ones(20000, requires_grad=true)\nw = z + z\nkeep = []\nh = p.register_hook(fn(g) {\n  keep.append(g)\n  g\n})\n(p * w).sum().backward()\nw = z * 5\nprint(keep[0].sum().item(), p.grad.sum().item())", "40000.0 40000.0"},
		{pre + "w = z + z\nw.add_(1)\nk = w\nw = z * 0\nprint(k.sum().item())", "60000.0"},
		{"zi = ones(20000, dtype=i64)\nw = zi + 0.5\nl = [w]\nw = zi * 2.5\nprint(l[0].sum().item(), w.dtype)", "30000.0 f32"},
		{pre + "pd = zeros(20000)\nw = z + z\npd.data = w\nw = z * 3\nprint(pd.sum().item())", "40000.0"},
		{pre + "pg = zeros(20000, requires_grad=true)\nw = z + z\npg.grad = w\nw = z * 3\nprint(pg.grad.sum().item())", "40000.0"},
		{pre + "w = -z\nl = [w]\nw = -w\nprint(l[0].sum().item(), w.sum().item())", "-20000.0 20000.0"},
		{"zb = ones(70000)\nmk = zb > 0.5\nl = [mk]\nmk = zb < 0.5\nprint(l[0].sum().item(), mk.sum().item())", "70000 0"},
	})
}
