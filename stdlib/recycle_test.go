package stdlib_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/tensor"
)

// The VM hands back the storage of a claimed variable's old value when it
// overwrites it (runtime.Recyclable). Every case keeps another reference
// to such a value in some way and then overwrites the variable: the kept
// tensor must still hold its values (a wrongly recycled one would read as
// an empty tensor, or as the next result written into its buffer). The
// tensors have 20,000 f32 elements (80 KB: pooled buffers).
func TestRecycleKeepsReachableValues(t *testing.T) {
	pre := "z = ones(20000)\n"
	checkPrints(t, []printCase{
		{pre + "w = z + z\nkeep = w\nw = z * 3\nprint(keep.sum().item(), w.sum().item())", "40000.0 60000.0"},
		{pre + "w = z + z\nl = [w]\nw = z * 3\nprint(l[0].sum().item())", "40000.0"},
		{pre + "w = z + z\nd = {\"a\": w}\nw = z * 3\nprint(d[\"a\"].sum().item())", "40000.0"},
		{pre + "w = z + z\nt = (w, 1)\nw = z * 3\nprint(t[0].sum().item())", "40000.0"},
		{pre + "w = z + z\nv = w[:10]\nw = z * 3\nprint(v.sum().item())", "20.0"},
		{pre + "w = z + z\nv = w.view(100, 200)\nw = z * 3\nprint(v.sum().item())", "40000.0"},
		{pre + "w = z + z\nv = w.detach()\nw = z * 3\nprint(v.sum().item())", "40000.0"},
		{pre + "w = z + z\nv = w.contiguous()\nw = z * 3\nprint(v.sum().item())", "40000.0"},
		{pre + "w = z + z\ny = +w\nw = z * 3\nprint(y.sum().item())", "40000.0"},
		{pre + "w = z + z\nw = w\nw = -w\nprint(w.sum().item())", "-40000.0"},
		{pre + "w = z + z\nw += 1\nk = w\nw = z * 0\nprint(k.sum().item())", "60000.0"},
		{pre + "w = (z + z) * 2\nk = w\nw = (z + z) * 3\nprint(k.sum().item(), w.sum().item())", "80000.0 120000.0"},
		{pre + "w = z + z\nw = w + 1\nw = w * w\nprint(w.sum().item())", "180000.0"},
		{"m = ones(100, 200)\nn = ones(200, 100)\nw = m @ n * 2\nk = w\nw = m @ n * 3\nprint(k.sum().item(), w.sum().item())", "4000000.0 6000000.0"},
		// autograd saves an operand read as an operator's operand
		{pre + "q = ones(20000, requires_grad=true)\nw = z + z\np = (w * q).sum()\nw = z * 5\np.backward()\nprint(q.grad.sum().item())", "40000.0"},
		{pre + "q = ones(20000, requires_grad=true)\nw = z + z\ngq = grad(q) { (w * q).sum() }\nw = z * 5\nprint(gq.sum().item())", "40000.0"},
		// a default parameter value, a closure's cell
		{pre + "w = z + z\nf = fn(x=w) { x.sum().item() }\nw = z * 3\nprint(f())", "40000.0"},
		{pre + "fn mk() {\n  w = z + z\n  g = fn() { w.sum().item() }\n  w = z * 3\n  return g\n}\nprint(mk()())", "60000.0"},
		// a function reading the global from elsewhere
		{pre + "fn get() { return w }\nkeep = []\nfor i in range(3) {\n  w = z * i\n  keep.append(get())\n}\nprint(keep[0].sum().item(), keep[1].sum().item(), keep[2].sum().item())", "0.0 20000.0 40000.0"},
		// locals: overwritten, and recycled at return
		{pre + "fn f(n) {\n  t = z + n\n  u = t * 2\n  keep = t\n  t = z * 0\n  return keep.sum().item() + u.sum().item()\n}\nprint(f(1), f(2))", "120000.0 180000.0"},
		{pre + "fn f(n) {\n  t = z + n\n  if n == 0 { return t.sum().item() }\n  r = f(n - 1)\n  return r + t.sum().item()\n}\nprint(f(3))", "200000.0"},
		{pre + "fn f() {\n  t = z + z\n  return t\n}\na = f()\nb = f()\nprint(a.sum().item(), b.sum().item())", "40000.0 40000.0"},
		{pre + "fn f() {\n  t = z + z\n  u = t + 1\n  return u, t\n}\na, b = f()\nc, d = f()\nprint(a.sum().item(), b.sum().item())", "60000.0 40000.0"},
		// lending methods (lang's lendingMethods) keep the claim
		{pre + "w = z + z\ns = w.sum()\nm = w.max(0)\nc = w.clone()\nw = z * 3\nprint(s.item(), m.values.item(), c.sum().item())", "40000.0 2.0 40000.0"},
		{pre + "v = z + 1\nfor i in range(3) { v = v / v.norm() }\nprint(f\"{v.sum().item():.4f}\")", "141.4198"}, // PyTorch 1.13 prints 141.4198 too: norm sums f32 squares in float lanes
		// builtin call results (FreshResults) are claimed too; an argument or
		// receiver a builtin returns is not
		{pre + "y = z.relu()\nk = y\ny = z.abs()\nprint(k.sum().item(), y.sum().item())", "20000.0 20000.0"},
		{pre + "x = z + z\ny = x.contiguous()\ny = z * 3\nprint(x.sum().item())", "40000.0"},
		{pre + "x = z + z\ny = x.reshape(100, 200)\ny = z * 3\nx = z * 4\nprint(y.sum().item())", "60000.0"},
		{pre + "fn f(a) { return a }\nx = z + z\ny = f(x)\ny = z * 3\nprint(x.sum().item())", "40000.0"},
		{pre + "g = z + z\nfn f() { return g }\ny = f()\ny = z * 3\nprint(g.sum().item())", "40000.0"},
		{pre + "y = ein\"i->i\"(z)\nk = y\ny = ein\"i->i\"(z * 2)\nprint(k.sum().item(), y.sum().item())", "20000.0 40000.0"},
		// an error before the store leaves the variable as it was
		{pre + "w = z + z\ntry { w = z + ones(3) } catch e { print(e.kind) }\nprint(w.sum().item())", "RuntimeError\n40000.0"},
		// iteration and unpacking read the variable
		{pre + "w = z.reshape(2, 10000) + 1\nrows = []\nfor r in w { rows.append(r) }\nw = z * 0\nprint(rows[1].sum().item())", "20000.0"},
		{pre + "w = z.reshape(2, 10000) + 1\na, b = w\nw = z * 0\nprint(a.sum().item())", "20000.0"},
	})
}

// Values read by the host keep their memory when a later program
// overwrites the global, and a function defined by an earlier program that
// reads the global drops the claim too.
func TestRecycleHostAndEarlierPrograms(t *testing.T) {
	ctx := context.Background()
	var out strings.Builder
	in := tsr.New(tsr.Options{Stdout: &out})
	if _, err := in.Eval(ctx, "a.tsr", "z = ones(20000)\nw = z + z\nfn get() { return w }"); err != nil {
		t.Fatal(err)
	}
	held, err := in.GlobalTensor("w")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.Eval(ctx, "b.tsr", "w = z * 3\nkeep = get()\nw = z * 4\nprint(keep.sum().item())"); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != "60000.0" {
		t.Errorf("kept through an earlier program's function: got %q, want 60000.0", got)
	}
	if held.Numel() != 20000 || held.FlatFloat64(19999) != 2 {
		t.Errorf("the host's tensor changed: %d elements", held.Numel())
	}
}

// A loop of w = z + z must reuse the buffer it dropped an iteration
// earlier, and a function's claimed locals come back when it returns.
func TestRecycleReusesBuffers(t *testing.T) {
	cases := []struct {
		name, src string
	}{
		{"global", "z = ones(65536)\nw = z + z\nfor i in range(100) { w = z + z * 2 }"},
		{"local", "fn f() {\n  z = ones(65536)\n  w = z + z\n  for i in range(100) { w = (z + z) * 2 }\n}\nf()"},
		{"call", "z = ones(65536)\ny = z.relu()\nfor i in range(100) { y = z.relu() }"},
		{"method", "z = ones(65536)\nv = z + 0\nfor i in range(100) { v = v / v.norm() }"},
		{"return", "z = ones(65536)\nfn f() {\n  t = z + z\n  u = t * 2\n  return 0\n}\nfor i in range(100) { f() }"},
	}
	for _, c := range cases {
		hits0 := tensor.ReleaseHits()
		runPrint(t, c.src)
		hits1 := tensor.ReleaseHits()
		if hits := hits1 - hits0; hits < 95 {
			t.Errorf("%s: %d pool hits in 100 iterations, want >= 95", c.name, hits)
		}
	}
}

// A lending method called on an operator's result recycles that result
// once the call returns (RECYCLE_POP): nothing else ever saw it.
func TestRecycleMethodReceiverTemp(t *testing.T) {
	checkPrints(t, []printCase{
		{"z = ones(20000)\ns = 0.0\nfor i in range(5) { s += (z * i - 1).abs().sum().item() + (z + i).max().item() }\nprint(s)", "140015.0"},
		{"z = ones(20000)\nm = (z * 2).max(0)\nprint(m.values.item(), m.indices.item())", "2.0 0"},
		{"q = ones(20000, requires_grad=true)\nl = ((q * 3) ** 2).mean()\nl.backward()\nprint(q.grad[0].item())", "0.0008999999845400453"},
		{"z = ones(20000)\nk = z * 2\nr = (k + 0).sum()\nprint(k.sum().item(), r.item())", "40000.0 40000.0"},
	})
	hits0 := tensor.ReleaseHits()
	runPrint(t, "z = ones(65536)\nfor i in range(100) { s = (z * 2).sum() }")
	if hits := tensor.ReleaseHits() - hits0; hits < 95 {
		t.Errorf("(z * 2).sum() in a loop: %d buffers reused in 100 iterations, want >= 95", hits)
	}
}
