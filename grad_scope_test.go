package tsr_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/tsrlang/tsr"
)

// A gradient block binds the names assigned in its body in the enclosing
// scope wherever the block stands: in a dict, a comparison, an f-string,
// a condition, a loop's iterable, an assertion, an assignment target's
// index or a parameter default. Inside a function these used to fail to
// compile ("internal error: "y" is not a local").
func TestGradBlockBindsNamesAnywhere(t *testing.T) {
	body := `
    d = {"g": grad(w) { a = w * w; a.sum() }}
    print(d["g"], a)
    c = grad(w) { b = w * 3.0; b.sum() } == 1
    print(c, b)
    s = f"{grad(w) { e = w * 1.0; e.sum() }}"
    print(s, e)
    if grad(w) { f1 = w * 2.0; f1.sum() }.sum() > 0 { print(f1) }
    n = 0
    while n < 1 and grad(w) { f2 = w + 1.0; f2.sum() }.sum() > 0 { n += 1 }
    print(f2)
    for v in grad(w) { f3 = w - 1.0; f3.sum() } { print(v) }
    print(f3)
    assert grad(w) { f4 = w / 2.0; f4.sum() }.sum() > 0, "positive"
    print(f4)
    h = [0, 0]
    h[grad(w) { f5 = w * 0.0; f5.sum() }.sum().int().item()] = 7
    print(h, f5)
    fn k(x=grad(w) { f6 = w * 4.0; f6.sum() }) { x }
    print(k(), f6)
    m = fn(x=grad(w) { f7 = w * 5.0; f7.sum() }) { x }
    print(m(), f7)
`
	want := `tensor([2., 4.]) tensor([1., 4.], grad_fn=<MulBackward0>)
tensor([false, false]) tensor([3., 6.], grad_fn=<MulBackward0>)
tensor([1., 1.]) tensor([1., 2.], grad_fn=<MulBackward0>)
tensor([2., 4.], grad_fn=<MulBackward0>)
tensor([2., 3.], grad_fn=<AddBackward0>)
tensor(1.)
tensor(1.)
tensor([0., 1.], grad_fn=<SubBackward0>)
tensor([0.5000, 1.0000], grad_fn=<DivBackward0>)
[7, 0] tensor([0., 0.], grad_fn=<MulBackward0>)
tensor([4., 4.]) tensor([4., 8.], grad_fn=<MulBackward0>)
tensor([5., 5.]) tensor([ 5., 10.], grad_fn=<MulBackward0>)
`
	for name, src := range map[string]string{
		"function": "fn f(w) {" + body + "}\nf(tensor([1.0, 2.0], requires_grad=true))\n",
		"top":      "w = tensor([1.0, 2.0], requires_grad=true)\n" + body,
	} {
		var out bytes.Buffer
		in := tsr.New(tsr.Options{Stdout: &out})
		if _, err := in.Eval(context.Background(), "g.tsr", src); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if out.String() != want {
			t.Errorf("%s: got\n%s\nwant\n%s", name, out.String(), want)
		}
	}
}
