package autograd

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/tsrlang/tsr/tensor"
)

// A training step's backward on 400 KB tensors: the leaf's .grad is the
// same tensor every step (added to in place, one version bump per step;
// the first step keeps the formula's fresh result without a copy), and
// the dead gradient temporaries go straight back to the allocator pool
// (tensor.ReleaseHits grows), so steady steps reuse their buffers.
func TestBackwardReusesGradBuffers(t *testing.T) {
	e := NewEngine()
	x, err := tensor.Ones([]int{100, 1000}, tensor.F32)
	if err != nil {
		t.Fatal(err)
	}
	x.SetRequiresGrad(true)
	c := must(tensor.Full([]int{100, 1000}, 0.5, tensor.F32))
	step := func() {
		y := must(e.mul(x, c))
		l := sumAll(e, must(e.mul(y, y)))
		if err := e.Backward(l, nil, false, false); err != nil {
			t.Fatal(err)
		}
	}
	step()
	g := x.Grad()
	if g == nil || !g.OwnsStorage() {
		t.Fatalf("first .grad %v: want a tensor owning its storage", g)
	}
	v := g.Version()
	hits := tensor.ReleaseHits()
	for range 3 {
		step()
	}
	if x.Grad() != g {
		t.Fatal("backward replaced .grad; want it added to in place")
	}
	if d := g.Version() - v; d != 3 {
		t.Fatalf(".grad version moved by %d over 3 steps, want 3", d)
	}
	// d/dx sum((x/2)^2) = x/2 = 0.5, four steps
	if v := g.FlatFloat64(12345); v != 2 {
		t.Fatalf(".grad = %v, want 2", v)
	}
	if tensor.ReleaseHits() == hits {
		t.Fatal("no backward temporary came back through Release")
	}
}

// Two leaves fed one gradient tensor (add's backward passes it to both)
// get .grad tensors of their own.
func TestStolenGradNotShared(t *testing.T) {
	e := NewEngine()
	x, w := leaf(t, 1, 2), leaf(t, 3, 4)
	if err := e.Backward(sumAll(e, must(e.add(x, w))), nil, false, false); err != nil {
		t.Fatal(err)
	}
	if x.Grad() == w.Grad() || x.Grad().Storage() == w.Grad().Storage() {
		t.Fatal("x.grad and w.grad share a tensor")
	}
}

// A cross_entropy training step on [100, 1000] logits allocates its two
// 400 KB buffers (log_softmax and the logits' gradient) from what the
// step before released: the gradient added into .grad and logp, which
// the freeing backward hands back. With create_graph the saved logp
// stays (the graph built on it needs it), and a later plain backward
// through the same node leaves it alone.
func TestCrossEntropyStepRecycles(t *testing.T) {
	e := NewEngine()
	x, err := tensor.Full([]int{100, 1000}, 0.25, tensor.F32)
	if err != nil {
		t.Fatal(err)
	}
	x.SetRequiresGrad(true)
	tgt := make([]int, 100)
	for i := range tgt {
		tgt[i] = i * 7 % 1000
	}
	step := func() {
		l, err := ceApply(e, x, tgt, nil, "mean", 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Backward(l, nil, false, false); err != nil {
			t.Fatal(err)
		}
	}
	// No collection from here through the measured steps: a storage
	// finalizer's recycled buffer, pooled after the ones Release gave
	// back, would be taken first (the pool is LIFO) and the count would
	// depend on when the collector ran.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	quiesceFinalizers(t)
	step()
	step()
	hits := tensor.ReleaseHits()
	for range 3 {
		step()
	}
	if d := tensor.ReleaseHits() - hits; d < 6 {
		t.Fatalf("%d allocations served by released buffers over 3 steps, want 6", d)
	}
	// create_graph, then a plain backward through the same graph
	l, err := ceApply(e, x, tgt, nil, "sum", 0.1)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := e.Grad([]*T{l}, []*T{x}, nil, true, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Backward(l, nil, false, false); err != nil {
		t.Fatal(err)
	}
	hv, err := e.Grad([]*T{sumAll(e, must(e.mul(gs[0], gs[0])))}, []*T{x}, nil, false, false)
	if err != nil {
		t.Fatalf("second order after a plain backward: %v", err)
	}
	if !sameShape(hv[0].Shape(), x.Shape()) {
		t.Fatalf("second order gradient shape %v", hv[0].Shape())
	}
}

// quiesceFinalizers runs a collection and waits until the finalizers it
// queued (the storages' recycling ones) have run: a sentinel's finalizer,
// queued by a second collection, runs after them.
func quiesceFinalizers(t *testing.T) {
	t.Helper()
	runtime.GC()
	done := make(chan struct{})
	func() { // a sentinel no one can reach once this returns
		type sentinel struct {
			p *int
			_ [32]byte
		}
		runtime.SetFinalizer(new(sentinel), func(*sentinel) { close(done) })
	}()
	runtime.GC()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("finalizers did not run within 5 s")
	}
}
