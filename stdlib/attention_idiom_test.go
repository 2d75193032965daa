package stdlib_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/stdlib"
)

// attnSetup defines the inputs and `ref`, the unfused result: top-level
// statements are never fused (their names stay readable afterwards).
const attnSetup = `manual_seed(5)
q = randn(2, 3, 20, 16)
k = randn(2, 3, 24, 16)
v = randn(2, 3, 24, 8)
q64 = q.double()
k64 = k.double()
v64 = v.double()
d_k = 16
scores = ein"bhid,bhjd->bhij"(q, k) * (d_k ** -0.5)
probs = softmax(scores, dim=-1)
ref = ein"bhij,bhjd->bhid"(probs, v)
scores0 = ein"bhid,bhjd->bhij"(q, k)
ref0 = ein"bhij,bhjd->bhid"(softmax(scores0, -1), v)
ref64 = ein"bhij,bhjd->bhid"(softmax(ein"bhid,bhjd->bhij"(q64, k64) / 4, dim=-1), v64)
`

// runAttn runs attnSetup + src and returns the interpreter and how many
// idioms ran fused.
func runAttn(t *testing.T, src string) (*tsr.Interpreter, int64) {
	t.Helper()
	in := tsr.New(tsr.Options{})
	if _, err := in.Eval(context.Background(), "setup.tsr", attnSetup); err != nil {
		t.Fatal(err)
	}
	before := stdlib.AttentionFusions()
	if _, err := in.Eval(context.Background(), "a.tsr", src); err != nil {
		t.Fatalf("%s\n%v", src, err)
	}
	return in, stdlib.AttentionFusions() - before
}

// sameTensor fails unless globals got and want are equal bit for bit, in
// dtype, shape and strides, and neither records a gradient.
func sameTensor(t *testing.T, in *tsr.Interpreter, got, want string) {
	t.Helper()
	g, w := globalTensor(t, in, got), globalTensor(t, in, want)
	if g.DType() != w.DType() || !slices.Equal(g.Shape(), w.Shape()) || !slices.Equal(g.Strides(), w.Strides()) {
		t.Fatalf("%s is %s %v strides %v, %s is %s %v strides %v", got, g.DType(), g.Shape(), g.Strides(), want, w.DType(), w.Shape(), w.Strides())
	}
	if !slices.Equal(bitsOf(t, g), bitsOf(t, w)) {
		t.Fatalf("%s and %s differ", got, want)
	}
}

// The attention idiom runs fused in every form the compiler knows, with
// exactly the unfused result.
func TestAttentionIdiomFused(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"seed form", `fn f(q, k, v) {
    scores = ein"bhid,bhjd->bhij"(q, k) * (d_k ** -0.5)
    probs = softmax(scores, dim=-1)
    return ein"bhij,bhjd->bhid"(probs, v)
}
out = f(q, k, v)`, "ref"},
		{"tail expression", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * 0.25
    p = softmax(s, -1)
    ein"bhij,bhjd->bhid"(p, v)
}
out = f(q, k, v)`, "ref"},
		{"assigned then returned", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) / 4
    p = s.softmax(dim=-1)
    o = ein"bhij,bhjd->bhid"(p, v)
    return o
}
out = f(q, k, v)`, "ref"},
		{"method form, positional dim", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * 0.25
    p = s.softmax(3)
    return ein"bhij,bhjd->bhid"(p, v)
}
out = f(q, k, v)`, "ref"},
		{"nn.softmax", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * 0.25
    p = nn.softmax(s, dim=-1)
    return ein"bhij,bhjd->bhid"(p, v)
}
out = f(q, k, v)`, "ref"},
		{"one name reused, no scale", `fn f(q, k, v) {
    x = ein"bhid,bhjd->bhij"(q, k)
    x = softmax(x, -1)
    return ein"bhij,bhjd->bhid"(x, v)
}
out = f(q, k, v)`, "ref0"},
		{"other letters, f64", `fn f(a, b, c) {
    s = ein"xyqe,xyke->xyqk"(a, b) / 4
    p = softmax(s, dim=-1)
    return ein"xyqk,xykf->xyqf"(p, c)
}
out = f(q64, k64, v64)`, "ref64"},
		{"nested at top level", `out = ein"bhij,bhjd->bhid"(softmax(ein"bhid,bhjd->bhij"(q, k) * (d_k ** -0.5), dim=-1), v)`, "ref"},
		{"nested method form in a closure", `g = fn() { return ein"bhij,bhjd->bhid"((ein"bhid,bhjd->bhij"(q, k) * 0.25).softmax(-1), v) }
out = g()`, "ref"},
		{"matmul form", `fn f(q, k, v) {
    s = q @ k.transpose(-2, -1) / 4
    p = softmax(s, dim=-1)
    return p @ v
}
out = f(q, k, v)`, "ref"},
		{"matmul form, mT and method softmax", `fn f(q, k, v) {
    s = q @ k.mT * (d_k ** -0.5)
    p = s.softmax(-1)
    o = p @ v
    return o
}
out = f(q, k, v)`, "ref"},
		{"matmul form nested, positive dims", `out = softmax(q @ k.transpose(3, 2) * 0.25, -1) @ v`, "ref"},
		{"matrices, .T", `fn f(q, k, v) {
    s = q @ k.T * 0.25
    p = softmax(s, -1)
    return ein"ij,jd->id"(p, v)
}
q2 = q[1, 2]
k2 = k[1, 2]
v2 = v[1, 2]
out = f(q2, k2, v2)
want = ref[1, 2]`, "want"},
		{"two statements, softmax nested (the capstone's form)", `fn f(Q, K, V) {
    d = Q.size(-1)
    scores = ein"bhid,bhjd->bhij"(Q, K) * (d ** -0.5)
    ein"bhij,bhjd->bhid"(nn.softmax(scores, dim=-1), V)
}
out = f(q, k, v)`, "ref"},
		{"two statements, probabilities first", `fn f(q, k, v) {
    p = softmax(q @ k.mT / 4, dim=-1)
    return p @ v
}
out = f(q, k, v)`, "ref"},
		{"in a loop", `fn f(q, k, v) {
    o = none
    for i in range(2) {
        s = ein"bhid,bhjd->bhij"(q, k) * 0.25
        p = softmax(s, dim=-1)
        o = ein"bhij,bhjd->bhid"(p, v)
    }
    return o
}
out = f(q, k, v)`, "ref"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, n := runAttn(t, c.src)
			if n < 1 {
				t.Errorf("not fused")
			}
			sameTensor(t, in, "out", c.want)
		})
	}
}

// Anything the fused kernel would not compute exactly as written runs
// unfused, with the unfused result or error.
func TestAttentionIdiomDeclines(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"probabilities read again", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * (d_k ** -0.5)
    p = softmax(s, dim=-1)
    o = ein"bhij,bhjd->bhid"(p, v)
    assert p.shape == [2, 3, 20, 24]
    return o
}
out = f(q, k, v)`, "ref"},
		{"scores captured by a closure", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * (d_k ** -0.5)
    p = softmax(s, dim=-1)
    g = fn() { s }
    return ein"bhij,bhjd->bhid"(p, v)
}
out = f(q, k, v)`, "ref"},
		{"top-level statements", `s2 = ein"bhid,bhjd->bhij"(q, k) * (d_k ** -0.5)
p2 = softmax(s2, dim=-1)
out = ein"bhij,bhjd->bhid"(p2, v)`, "ref"},
		{"softmax over another dim", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * (d_k ** -0.5)
    p = softmax(s, dim=-2)
    return ein"bhij,bhjd->bhid"(p, v)
}
out = f(q, k, v)
want = ein"bhij,bhjd->bhid"(softmax(scores, dim=2), v)`, "want"},
		{"scale that does not fold", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) / 3
    p = softmax(s, dim=-1)
    return ein"bhij,bhjd->bhid"(p, v)
}
out = f(q, k, v)
want = ein"bhij,bhjd->bhid"(softmax(scores0 / 3, dim=-1), v)`, "want"},
		{"tensor scale", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * tensor(0.25)
    p = softmax(s, dim=-1)
    return ein"bhij,bhjd->bhid"(p, v)
}
out = f(q, k, v)
want = ein"bhij,bhjd->bhid"(softmax(scores0 * tensor(0.25), dim=-1), v)`, "want"},
		{"another softmax", `fn softmax(x, dim) { return x }
fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * 0.25
    p = softmax(s, dim=-1)
    return ein"bhij,bhjd->bhid"(p, v)
}
out = f(q, k, v)
want = ein"bhij,bhjd->bhid"(scores0 * 0.25, v)`, "want"},
		{"broadcast batch", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * 0.25
    p = softmax(s, dim=-1)
    return ein"bhij,bhjd->bhid"(p, v)
}
k1 = k[0:1]
v1 = v[0:1]
out = f(q, k1, v1)
want = ein"bhij,bhjd->bhid"(softmax(ein"bhid,bhjd->bhij"(q, k1) * 0.25, dim=-1), v1)`, "want"},
		{"one query", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * 0.25
    p = softmax(s, dim=-1)
    return ein"bhij,bhjd->bhid"(p, v)
}
q1 = q[:, :, 0:1]
out = f(q1, k, v)
want = ein"bhij,bhjd->bhid"(softmax(ein"bhid,bhjd->bhij"(q1, k) * 0.25, dim=-1), v)`, "want"},
		{"half precision", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * 0.25
    p = softmax(s, dim=-1)
    return ein"bhij,bhjd->bhid"(p, v)
}
out = f(q.half(), k.half(), v.half())
want = ein"bhij,bhjd->bhid"(softmax(ein"bhid,bhjd->bhij"(q.half(), k.half()) * 0.25, dim=-1), v.half())`, "want"},
		{"not the attention contraction", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhji"(q, k) * 0.25
    p = softmax(s, dim=-1)
    return ein"bhji,bhid->bhjd"(p, q)
}
out = f(q, k, v)
want = ein"bhji,bhid->bhjd"(softmax(ein"bhid,bhjd->bhji"(q, k) * 0.25, dim=-1), q)`, "want"},
		{"transpose of other dims", `fn f(q, k, v) {
    s = q @ k.transpose(0, 2) * 0.5
    p = softmax(s, dim=-1)
    return p @ v
}
c = randn(6, 6, 6)
out = f(c, c * 2, c * 3)
want = softmax(c @ (c * 2).transpose(0, 2) * 0.5, dim=-1) @ (c * 3)`, "want"},
		{".T of a 3-D tensor", `fn f(q, k, v) {
    s = q @ k.T * 0.5
    p = softmax(s, dim=-1)
    return p @ v
}
c = randn(6, 6, 6)
out = f(c, c * 2, c * 3)
want = softmax(c @ (c * 2).T * 0.5, dim=-1) @ (c * 3)`, "want"},
		{"vectors", `fn f(q, k, v) {
    s = ein"i,i->i"(q, k) * 2
    p = softmax(s, -1)
    return ein"i,i->i"(p, v)
}
x = arange(4.0)
out = f(x, x, x)
want = ein"i,i->i"(softmax(ein"i,i->i"(x, x) * 2, -1), x)`, "want"},
		{"scalars", `fn f(q, k, v) {
    s = ein",->"(q, k) * 2
    p = softmax(s, -1)
    return ein",->"(p, v)
}
out = f(tensor(1.0), tensor(2.0), tensor(3.0))
want = ein",->"(softmax(ein",->"(tensor(1.0), tensor(2.0)) * 2, -1), tensor(3.0))`, "want"},
		{"transposed scores of square shapes", `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhji"(q, k) * 0.25
    p = softmax(s, dim=-1)
    return ein"bhji,bhid->bhjd"(p, v)
}
k20 = k[:, :, :20]
v20 = v[:, :, :20]
out = f(q, k20, v20)
want = ein"bhji,bhid->bhjd"(softmax(ein"bhid,bhjd->bhji"(q, k20) * 0.25, dim=-1), v20)`, "want"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, n := runAttn(t, c.src)
			if n != 0 {
				t.Errorf("fused %d times", n)
			}
			sameTensor(t, in, "out", c.want)
		})
	}
}

// With gradients recorded the code runs as written, graph included.
func TestAttentionIdiomGrad(t *testing.T) {
	in, n := runAttn(t, `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * 0.25
    p = softmax(s, dim=-1)
    return ein"bhij,bhjd->bhid"(p, v)
}
qg = q.clone().requires_grad_()
out = f(qg, k, v)
gf = out.grad_fn.name()
out.sum().backward()
g1 = qg.grad
qg2 = q.clone().requires_grad_()
ein"bhij,bhjd->bhid"(softmax(ein"bhid,bhjd->bhij"(qg2, k) * 0.25, dim=-1), v).sum().backward()
g2 = qg2.grad
`)
	if n != 0 {
		t.Errorf("fused %d times with a gradient to record", n)
	}
	sameTensor(t, in, "g1", "g2")
	if gf, _ := in.Global("gf"); gf == nil || gf.String() != "ViewBackward0" {
		t.Errorf("grad_fn %v, want ViewBackward0", gf)
	}
}

// Errors are the unfused code's, at its positions: a failing operand is
// caught by the guard and the code as written raises it.
func TestAttentionIdiomErrors(t *testing.T) {
	fnSrc := `fn f(q, k, v) {
    s = ein"bhid,bhjd->bhij"(q, k) * scale
    p = softmax(s, dim=-1)
    return ein"bhij,bhjd->bhid"(p, v)
}
`
	cases := []struct{ name, call, kind, at, msg string }{
		{"shapes do not contract", "scale = 0.25\nout = f(q, k[..., :8], v)", "RuntimeError", "a.tsr:2:", ""},
		{"undefined scale", "out = f(q, k, v)", "NameError", "a.tsr:2:", "scale"},
		{"p·v shapes", "scale = 0.25\nout = f(q, k, v[:, :, :5])", "RuntimeError", "a.tsr:4:", ""},
		{"not a tensor", "scale = 0.25\nout = f(q, k, 3)", "TypeError", "a.tsr:4:", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := tsr.New(tsr.Options{})
			if _, err := in.Eval(context.Background(), "setup.tsr", attnSetup); err != nil {
				t.Fatal(err)
			}
			before := stdlib.AttentionFusions()
			_, err := in.Eval(context.Background(), "a.tsr", fnSrc+c.call)
			var ee *tsr.Error
			if !errors.As(err, &ee) || ee.Kind != c.kind || !strings.Contains(err.Error(), c.at) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("want a %s at %s, got %v", c.kind, c.at, err)
			}
			if n := stdlib.AttentionFusions() - before; n != 0 {
				t.Errorf("fused %d times", n)
			}
			// the same program with the idiom broken up reports the same error
			plain := strings.Replace(fnSrc, "return", "assert p.dim() == 4\n    return", 1)
			in2 := tsr.New(tsr.Options{})
			if _, err := in2.Eval(context.Background(), "setup.tsr", attnSetup); err != nil {
				t.Fatal(err)
			}
			_, err2 := in2.Eval(context.Background(), "a.tsr", plain+c.call)
			var ee2 *tsr.Error
			if !errors.As(err2, &ee2) || ee2.Kind != ee.Kind || ee2.Msg != ee.Msg {
				t.Errorf("fused program: %v\nunfused program: %v", err, err2)
			}
		})
	}
}

// Whether fused or not, a function's idiom gives what the same code as
// top-level statements (never fused) gives: bits, dtype, shape, strides.
func TestAttentionIdiomAsWritten(t *testing.T) {
	cases := []struct{ name, setup, scores, probs, output, nested string }{
		{"value first", "", `ein"bhid,bhjd->bhij"(q, k) * 0.25`, `softmax(s, dim=-1)`, `ein"bhjd,bhij->bhid"(v, p)`,
			`ein"bhjd,bhij->bhid"(v, softmax(ein"bhid,bhjd->bhij"(q, k) * 0.25, dim=-1))`},
		{"value first, more values than queries", "v = randn(2, 3, 24, 40)", `ein"bhid,bhjd->bhij"(q, k) * 0.25`, `s.softmax(-1)`, `ein"bhjd,bhij->bhid"(v, p)`,
			`ein"bhjd,bhij->bhid"(v, (ein"bhid,bhjd->bhij"(q, k) * 0.25).softmax(-1))`},
		{"few queries, long keys", "q = randn(2, 5, 16)\nk = randn(2, 500, 16)\nv = randn(2, 500, 8)", `q @ k.mT * 0.25`, `softmax(s, -1)`, `p @ v`,
			`softmax(q @ k.mT * 0.25, -1) @ v`},
		{"few queries, long keys, f64", "q = randn(1, 3, 3, 8).double()\nk = randn(1, 3, 300, 8).double()\nv = randn(1, 3, 300, 4).double()", `ein"bhid,bhjd->bhij"(q, k) / 2`, `softmax(s, -1)`, `ein"bhij,bhjd->bhid"(p, v)`,
			`ein"bhij,bhjd->bhid"(softmax(ein"bhid,bhjd->bhij"(q, k) / 2, -1), v)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := c.setup + "\nfn f(q, k, v) {\n    s = " + c.scores + "\n    p = " + c.probs + "\n    return " + c.output + "\n}\nout = f(q, k, v)\n" +
				"nested = fn(q, k, v) { " + c.nested + " }(q, k, v)\n" +
				"s = " + c.scores + "\np = " + c.probs + "\nwant = " + c.output + "\n"
			in, _ := runAttn(t, src)
			sameTensor(t, in, "out", "want")
			sameTensor(t, in, "nested", "want")
		})
	}
}

// A softmax name bound to none is not the method form x.softmax(dim) (whose
// callee operand is none too): calling it raises.
func TestAttentionIdiomSoftmaxNone(t *testing.T) {
	for _, src := range []string{
		"fn f(q, k, v, softmax) {\n    s = q @ k.mT * 0.25\n    p = softmax(s, -1)\n    return p @ v\n}\nout = f(q, k, v, none)",
		"softmax = none\nfn g(q, k, v) { softmax(q @ k.mT * 0.25, -1) @ v }\nout = g(q, k, v)",
		"nn = {\"softmax\": none}\nfn g(q, k, v) { nn.softmax(q @ k.mT * 0.25, -1) @ v }\nout = g(q, k, v)",
	} {
		in := tsr.New(tsr.Options{})
		if _, err := in.Eval(context.Background(), "setup.tsr", attnSetup); err != nil {
			t.Fatal(err)
		}
		before := stdlib.AttentionFusions()
		_, err := in.Eval(context.Background(), "a.tsr", src)
		var ee *tsr.Error
		if !errors.As(err, &ee) || ee.Kind == "" || stdlib.AttentionFusions() != before {
			t.Errorf("%s\ngot %v, fused %d times; want an error", src, err, stdlib.AttentionFusions()-before)
		}
	}
}
