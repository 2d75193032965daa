package stdlib_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/stdlib"
	"github.com/tsrlang/tsr/tensor"
)

// bitsOf returns t's elements in logical order as the bits of their
// float64 values (exact for f32: the widening is injective).
func bitsOf(t *testing.T, x *tensor.Tensor) []uint64 {
	t.Helper()
	var out []uint64
	for _, v := range x.ToFloat64s() {
		out = append(out, math.Float64bits(v))
	}
	return out
}

func globalTensor(t *testing.T, in *tsr.Interpreter, name string) *tensor.Tensor {
	t.Helper()
	v, ok := in.Global(name)
	if !ok {
		t.Fatalf("no global %s", name)
	}
	tv, ok := v.(*stdlib.TensorValue)
	if !ok {
		t.Fatalf("%s is a %s, not a tensor", name, v.Type())
	}
	return tv.Tensor()
}

// `ein"..."(a, b) * s` and `/ s` fold a number into the contraction's last
// GEMM (the call is deferred to the operator). Every result must be bit
// for bit, and in dtype, shape, strides, version and grad_fn, what the
// undeferred call followed by the operator gives; the undeferred form is
// forced by a scale that comes from a call (not side-effect free).
func TestEinsumScaleFoldSameResults(t *testing.T) {
	setup := `manual_seed(3)
a = randn(2, 3, 20, 8)
b = randn(2, 3, 24, 8)
w = randn(2, 3, 8, 24)
big = randn(5, 700)
bigk = randn(700, 9)
x64 = randn(6, 40, dtype=f64)
y64 = randn(40, 7, dtype=f64)
v = randn(30)
u = randn(30)
g = randn(4, 5, requires_grad=true)
h = randn(5, 3)
i1 = arange(12).reshape(3, 4)
i2 = arange(8).reshape(4, 2)
hf = randn(4, 6).half()
hf2 = randn(6, 3).half()
a[0, 0, 0, 0] = inf
b[1, 2, 5, 3] = nan
d = 8
fn id(s) { return s }
`
	cases := []struct{ call, op string }{
		{`ein"bhid,bhjd->bhij"(a, b)`, "* 0.125"},
		{`ein"bhid,bhjd->bhij"(a, b)`, "* (d ** -0.5)"},
		{`ein"bhid,bhjd->bhij"(a, b)`, "/ 8"},
		{`ein"bhid,bhjd->bhij"(a, b)`, "/ d"},
		{`ein"bhid,bhjd->bhij"(a, b)`, "/ 3"}, // not a power of two: not folded
		{`ein"bhid,bhjd->bhij"(a, b)`, "* -1.7"},
		{`ein"bhid,bhjd->bhij"(a, b)`, "* 0"},
		{`ein"bhid,bhjd->bhij"(a, b)`, "* 3"},
		{`ein"bhid,bhjd->bhij"(a, b)`, "* 1e300"}, // inf in f32: not folded
		{`ein"bhid,bhjd->bhij"(a, b)`, "/ 1e-40"},
		{`ein"bhid,bhjd->bhji"(a, b)`, "* 0.3"}, // permuted result
		{`ein"bhid,bhdj->bhij"(a, w)`, "* 0.3"},
		{`ein"ik,kj->ij"(big, bigk)`, "* 0.3"},   // k beyond one KC panel
		{`ein"ik,kj->ij"(x64, y64)`, "* 0.1"},    // f64
		{`ein"ik,kj->ij"(x64, y64)`, "/ 0.25"},   // f64
		{`ein"i,i->"(v, u)`, "* 2.5"},            // dot
		{`ein"i,j->ij"(v, u)`, "* 2.5"},          // outer: a Mul step, not folded
		{`ein"ij->"(h)`, "* 2.5"},                // a sum: not folded
		{`ein"ij->ji"(h)`, "* 2.5"},              // a view of h: not folded
		{`ein"ik,kj->ij"(g, h)`, "* 0.5"},        // gradient: not folded
		{`ein"ik,kj->ij"(i1, i2)`, "* 0.5"},      // ints
		{`ein"ik,kj->ij"(hf, hf2)`, "* 0.5"},     // f16
		{`ein"bhid,bhjd->bhij"(a, b)`, "* v[0]"}, // not side-effect free: not deferred
		{`ein"bhid,bhjd->bhij"(a, b)`, "* true"},
		{`ein"bhid,bhjd->bhij"(a, b)`, "+ 1"},
		// (x @ y) * s: the product waits for s in the same way
		{`(a @ b.transpose(-2, -1))`, "* (d ** -0.5)"},
		{`(a @ w)`, "/ 4"},
		{`(a @ w)`, "/ 3"},        // not a power of two: not folded
		{`(big @ bigk)`, "* 0.3"}, // k beyond one KC panel
		{`(x64 @ y64)`, "* -2"},
		{`(v @ u)`, "* 0.5"},     // 1-D @ 1-D: a 0-d product
		{`(h.t() @ h)`, "* 0.5"}, // a transposed operand
		{`(g @ h)`, "* 0.5"},     // gradient: not deferred
		{`(i1 @ i2)`, "* 0.5"},   // ints: not deferred
		{`(hf @ hf2)`, "* 0.5"},  // f16: not deferred
	}
	folds := 0
	for _, c := range cases {
		f0 := stdlib.ScaleFolds()
		src := setup + fmt.Sprintf("z1 = %s %s\nz2 = %s %s\n", c.call, c.op, c.call, strings.Replace(c.op, " ", " id(", 1)+")")
		if strings.Contains(c.op, "v[0]") {
			src = setup + fmt.Sprintf("z1 = %s %s\nt = %s\nz2 = t %s\n", c.call, c.op, c.call, c.op)
		}
		in := tsr.New(tsr.Options{})
		if _, err := in.Eval(context.Background(), "fold.tsr", src); err != nil {
			t.Fatalf("%s %s: %v", c.call, c.op, err)
		}
		if stdlib.ScaleFolds() > f0 {
			folds++
		}
		z1, z2 := globalTensor(t, in, "z1"), globalTensor(t, in, "z2")
		if z1.DType() != z2.DType() || !slices.Equal(z1.Shape(), z2.Shape()) || !slices.Equal(z1.Strides(), z2.Strides()) ||
			z1.Version() != z2.Version() || z1.RequiresGrad() != z2.RequiresGrad() {
			t.Errorf("%s %s: %v %v %v v%d vs %v %v %v v%d", c.call, c.op, z1.DType(), z1.Shape(), z1.Strides(), z1.Version(),
				z2.DType(), z2.Shape(), z2.Strides(), z2.Version())
			continue
		}
		if b1, b2 := bitsOf(t, z1), bitsOf(t, z2); !slices.Equal(b1, b2) {
			for i := range b1 {
				if b1[i] != b2[i] {
					t.Errorf("%s %s: element %d differs: %#x vs %#x", c.call, c.op, i, b1[i], b2[i])
					break
				}
			}
		}
	}
	// the cases marked "not folded" above, and the ones after "* -1.7"
	// that cannot fold (dot is a product; the rest are declined)
	if want := 13 + 6; folds != want {
		t.Errorf("%d cases folded the scale into the GEMM, want %d", folds, want)
	}
}

// The fold happens for the seed's attention scores (one result storage, no
// second pass), the compiler marks only side-effect-free operands, and a
// deferred call still raises its own errors at the call.
func TestEinsumScaleFoldMarksAndErrors(t *testing.T) {
	prog, err := lang.Compile("f.tsr", "q = zeros(2, 3)\nk = zeros(4, 3)\ns = ein\"id,jd->ij\"(q, k) * (3 ** -0.5)\nr = ein\"id,jd->ij\"(q, k) * len(q)\n")
	if err != nil {
		t.Fatal(err)
	}
	dis := lang.Disassemble(prog)
	if n := strings.Count(dis, "deferred"); n != 1 {
		t.Fatalf("want exactly one deferred FRESH_MARK, got %d:\n%s", n, dis)
	}
	prog, err = lang.Compile("g.tsr", "q = zeros(2, 3)\ns = (q @ q.t()) * (3 ** -0.5)\nr = (q @ q.t()) * len(q)\nu = q @ q.t() / 2\n")
	if err != nil {
		t.Fatal(err)
	}
	dis = lang.Disassemble(prog)
	if n := strings.Count(dis, "deferred"); n != 2 {
		t.Fatalf("want exactly one deferred FRESH_MARK, got %d:\n%s", n, dis)
	}
	checkPrints(t, []printCase{
		{"q = zeros(2, 3)\nk = zeros(4, 2)\ntry {\n  s = ein\"id,jd->ij\"(q, k) * 2\n} catch e {\n  print(\"caught\", e.kind)\n}",
			"caught RuntimeError\n"},
		{"q = zeros(2, 3)\ntry {\n  s = ein\"id,jd->ij\"(q, [1]) * 2\n} catch e {\n  print(\"caught\", e.kind)\n}",
			"caught TypeError\n"},
		// a product that cannot be deferred raises as without the mark
		{"a = ones(2, 3)\nb = ones(3, 2, dtype=f64)\ntry {\n  s = (a @ b) * 2\n} catch e {\n  print(e.kind, e.message)\n}",
			"RuntimeError expected m1 and m2 to have the same dtype, but got: f32 != f64\n"},
		{"a = ones(2, 3)\ntry {\n  s = (a @ a) / 2\n} catch e {\n  print(e.kind, e.message)\n}",
			"RuntimeError mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)\n"},
		// an operand that raises after the call: the call did not run
		{"q = zeros(2, 3)\ntry {\n  s = ein\"id,jd->ij\"(q, q) * nosuch\n} catch e {\n  print(\"caught\", e.kind)\n}",
			"caught NameError\n"},
	})
	// the error of a deferred call points at the call
	in := tsr.New(tsr.Options{})
	_, err = in.Eval(context.Background(), "e.tsr", "q = zeros(2, 3)\nk = zeros(4, 2)\ns = ein\"id,jd->ij\"(q, k) * 2\n")
	if err == nil || !strings.Contains(err.Error(), "e.tsr:3:5") {
		t.Fatalf("want an error at e.tsr:3:5, got %v", err)
	}
}

// A deferred product that fails when it runs (an allocation beyond the
// limit: the checks at the operator passed) fails as the undeferred one:
// a MemoryError a try block catches (it escaped every handler), at the
// product's position (it was the operator's), and before an operand that
// fails (the undeferred program computes the product first).
func TestDeferredProductFailsAsUndeferred(t *testing.T) {
	defer tensor.SetMaxAllocBytes(tensor.SetMaxAllocBytes(1 << 30))
	const big = "a = zeros(1000000, 1)\nb = zeros(1, 10000000)\n"
	const hugeAllocMsg = "can't allocate memory: you tried to allocate 40000000000000 bytes, more than the limit of 1073741824 bytes (tensor.SetMaxAllocBytes)"
	checkPrints(t, []printCase{
		{big + catchOf("y = (a @ b) * 2"), "MemoryError: " + hugeAllocMsg},
		{big + catchOf(`y = ein"ik,kj->ij"(a, b) / 2`), "MemoryError: " + hugeAllocMsg},
		{big + catchOf("y = (a @ b) * nosuch"), "MemoryError: " + hugeAllocMsg},
		{big + catchOf(`y = ein"ik,kj->ij"(a, b) * (1 // 0)`), "MemoryError: " + hugeAllocMsg},
		{big + "fn f(s) { if s > 9 { k = 1 }\n try { return (a @ b) * k } catch e { return e.kind } }\nprint(f(1), f(10))", "MemoryError MemoryError"},
		// an operand failing beside a product that runs: the operand's error
		{"a = ones(2, 3)\n" + catchOf("y = (a @ a.t()) * nosuch"), "NameError: name 'nosuch' is not defined"},
	})
	for _, c := range []struct{ src, at string }{
		{"y = (a @ b) * 2", "e.tsr:3:8"},
		{"y = (a @ b) * nosuch", "e.tsr:3:8"},
		{`y = ein"ik,kj->ij"(a, b) * 0.5`, "e.tsr:3:5"},
		{`y = ein"ik,kj->ij"(a, b) / (2 // 0)`, "e.tsr:3:5"},
	} {
		in := tsr.New(tsr.Options{})
		_, err := in.Eval(context.Background(), "e.tsr", big+c.src+"\n")
		var ee *tsr.Error
		if !errors.As(err, &ee) || ee.Kind != "MemoryError" || !strings.Contains(err.Error(), c.at+":") {
			t.Errorf("%s: want a MemoryError at %s, got %v", c.src, c.at, err)
		}
	}
}
