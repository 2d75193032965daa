package autograd

import (
	"container/heap"
	"slices"

	"github.com/tsrlang/tsr/tensor"
)

// Ctx is what a derivative formula sees of its node: saved tensors (checked
// against their versions), input metadata, attributes and the engine whose
// ops it must use (they record when the backward pass builds a graph for
// higher-order gradients).
type Ctx struct {
	E    *Engine
	node *Node
	// freeing is set when the pass frees the node's saved tensors once
	// its backward returns (no retain_graph, no create_graph)
	freeing bool
}

// Freeing reports whether this backward is the last use of the node's
// saved tensors: the pass neither retains the graph nor records one, so
// a formula may hand a saved intermediate that nothing else can reach
// back to the allocator (tensor.ReleaseShared).
func (c *Ctx) Freeing() bool { return c.freeing }

// Saved returns the i-th saved tensor (inputs in order when the formula
// saves inputs, then outputs), failing with PyTorch's version-counter
// error when it was modified in place after being saved.
func (c *Ctx) Saved(i int) (*T, error) {
	n := c.node
	if n.released {
		return nil, errReleased()
	}
	s := n.saved[i]
	if s.t == nil {
		return nil, nil
	}
	if s.t.Version() != s.version {
		return nil, versionError(n, s)
	}
	return s.t, nil
}

// Input returns saved input i (the formula must set SaveInputs).
func (c *Ctx) Input(i int) (*T, error) { return c.Saved(i) }

// Output returns saved output i (the formula must set SaveOutput).
func (c *Ctx) Output(i int) (*T, error) {
	off := 0
	if c.node.fn != nil && c.node.fn.SaveInputs {
		off = c.node.nIn
	}
	return c.Saved(off + i)
}

// InputShape returns the shape input i had at forward time.
func (c *Ctx) InputShape(i int) []int { return c.node.inMeta[i].shape }

// InputDType returns the dtype input i had at forward time.
func (c *Ctx) InputDType(i int) tensor.DType { return c.node.inMeta[i].dtype }

// OutputShape returns the shape of output i.
func (c *Ctx) OutputShape(i int) []int { return c.node.outMeta[i].shape }

// NeedsGrad reports whether input i takes part in the gradient (formulas
// may skip work for inputs that do not).
func (c *Ctx) NeedsGrad(i int) bool { return c.node.next[i].valid() }

// Attr returns attribute name (nil when absent).
func (c *Ctx) Attr(name string) any { return c.node.attrs[name] }

// Int returns an int attribute (def when absent).
func (c *Ctx) Int(name string, def int) int {
	if v, ok := c.node.attrs[name].(int); ok {
		return v
	}
	return def
}

// Ints returns an []int attribute (nil when absent).
func (c *Ctx) Ints(name string) []int {
	switch v := c.node.attrs[name].(type) {
	case []int:
		return v
	case int:
		return []int{v}
	}
	return nil
}

// Float returns a float64 attribute (def when absent).
func (c *Ctx) Float(name string, def float64) float64 {
	switch v := c.node.attrs[name].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	return def
}

// Bool returns a bool attribute (false when absent).
func (c *Ctx) Bool(name string) bool {
	v, _ := c.node.attrs[name].(bool)
	return v
}

// String returns a string attribute ("" when absent).
func (c *Ctx) String(name string) string {
	v, _ := c.node.attrs[name].(string)
	return v
}

func errReleased() error {
	return errorf("Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=true if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.")
}

// Backward computes the gradient of root with respect to every leaf that
// requires grad and accumulates it into the leaves' .grad (t.backward()).
// gradient is d(out)/d(root); nil means ones for a scalar root (an error
// otherwise: "grad can be implicitly created only for scalar outputs").
// Without retainGraph the saved tensors are freed; with createGraph the
// backward ops are recorded so the gradients can be differentiated again.
func (e *Engine) Backward(root, gradient *T, retainGraph, createGraph bool) error {
	_, err := e.run([]*T{root}, []*T{gradient}, nil, retainGraph, createGraph)
	return err
}

// Grad computes and returns the gradients of outputs with respect to
// inputs (torch.autograd.grad) without touching any .grad. An input that
// outputs do not depend on gets a zero gradient of its shape. gradOutputs
// may be nil (ones for scalar outputs).
func (e *Engine) Grad(outputs, inputs, gradOutputs []*T, retainGraph, createGraph bool) ([]*T, error) {
	if gradOutputs == nil {
		gradOutputs = make([]*T, len(outputs))
	}
	return e.run(outputs, gradOutputs, inputs, retainGraph, createGraph)
}

func (e *Engine) run(roots, rootGrads, inputs []*T, retain, create bool) ([]*T, error) {
	prevMode := e.SetGradEnabled(create)
	defer e.SetGradEnabled(prevMode)

	// Seed gradients.
	type key struct {
		n  *Node
		nr int
	}
	grads := map[*Node][]*T{}
	leafGrads := map[*T]*T{}
	captureLeaf := map[*T][]int{} // a tensor may be listed twice: grad(x, x)
	captureNode := map[key][]int{}
	for i, in := range inputs {
		if fn, ok := in.GradFn().(*Node); ok && fn != nil {
			k := key{fn, in.OutputNr()}
			captureNode[k] = append(captureNode[k], i)
		} else if in.RequiresGrad() {
			captureLeaf[in] = append(captureLeaf[in], i)
		} else {
			return nil, errorf("One of the differentiated Tensors does not require grad")
		}
	}
	results := make([]*T, len(inputs))

	// Gradient tensors the engine may write into, keep as a leaf's .grad
	// or hand back to the allocator (PyTorch's AccumulateGrad and
	// InputBuffer check use_count for this): only in a pass that records
	// no graph, only tensors the pass itself allocated (the seed, the
	// built-in formulas' results and the engine's sums: never a user's
	// gradient, a custom Function's or a hook's result), that own their
	// storage (no views), and were delivered along at most one edge. A
	// tensor hook may keep what it is given: after one runs, nothing
	// more is reused. Only pooled buffers (64 KiB and up) are tracked: a
	// small gradient's copy or allocation costs less than the tracking.
	seq0 := tensor.AllocSeq()
	var own map[*T]bool // allocated at the first tracked tensor
	var sent map[*T]int // deliveries of the tracked tensors
	hooked := false
	mark := func(g *T) {
		if !create && g != nil && g.StorageSeq() > seq0 && g.Storage().Pooled() && g.OwnsStorage() {
			if own == nil {
				own, sent = map[*T]bool{}, map[*T]int{}
			}
			own[g] = true
		}
	}
	reusable := func(g *T) bool {
		return own[g] && !hooked && sent[g] <= 1 && g.OwnsStorage()
	}
	// recycle hands a dead gradient's buffer back to the allocator pool
	// at once
	recycle := func(g *T) {
		if reusable(g) {
			delete(own, g)
			g.Release()
		}
	}

	// accumulate adds g into *dst; inplace allows writing into *dst (a
	// node's input buffer or a leaf's pending gradient, never a result
	// autograd.grad returns: those may alias each other).
	accumulate := func(dst **T, g *T, inplace bool) error {
		if *dst == nil {
			*dst = g
			return nil
		}
		if d := *dst; inplace && reusable(d) && d.DType() == g.DType() && sameShape(d.Shape(), g.Shape()) && d.AddInplace(g) == nil {
			// PyTorch's InputBuffer::accumulate: old += new when nothing
			// else holds old
			recycle(g)
			return nil
		}
		s, err := e.add(*dst, g)
		if err != nil {
			return err
		}
		mark(s)
		*dst = s
		return nil
	}
	var leafOrder []*T // leaves in the order backward reached them
	accLeaf := func(leaf, g *T) error {
		cur, seen := leafGrads[leaf]
		if !seen {
			leafOrder = append(leafOrder, leaf)
		}
		if err := accumulate(&cur, g, true); err != nil {
			return err
		}
		leafGrads[leaf] = cur
		return nil
	}
	// send delivers gradient g along edge ed: to the captured results
	// (Grad) or the leaf's pending .grad (Backward) for a leaf, else into
	// the producing node's buffer for output ed.nr.
	send := func(ed edge, g *T) error {
		if own[g] {
			sent[g]++
		}
		if ed.leaf != nil {
			if inputs == nil {
				return accLeaf(ed.leaf, g)
			}
			for _, j := range captureLeaf[ed.leaf] {
				if err := accumulate(&results[j], g, false); err != nil {
					return err
				}
			}
			return nil
		}
		buf := grads[ed.node]
		if buf == nil {
			buf = make([]*T, len(ed.node.outMeta))
			grads[ed.node] = buf
		}
		return accumulate(&buf[ed.nr], g, true)
	}

	var rootNodes []*Node
	for i, r := range roots {
		if !r.RequiresGrad() {
			return nil, errorf("element %d of tensors does not require grad and does not have a grad_fn", i)
		}
		g := rootGrads[i]
		if g == nil {
			if r.Numel() != 1 {
				return nil, errorf("grad can be implicitly created only for scalar outputs")
			}
			var err error
			g, err = tensor.Ones(r.Shape(), r.DType())
			if err != nil {
				return nil, err
			}
		} else if !sameShape(g.Shape(), r.Shape()) {
			return nil, errorf("Mismatch in shape: grad_output[%d] has a shape of %s and output[%d] has a shape of %s.", i, fmtInts(g.Shape()), i, fmtInts(r.Shape()))
		}
		if rootGrads[i] == nil {
			mark(g)
		}
		ed := edgeOf(r)
		if err := send(ed, g); err != nil { // a leaf output is itself differentiated
			return nil, err
		}
		if ed.leaf != nil {
			continue
		}
		rootNodes = append(rootNodes, ed.node)
	}

	// PyTorch's execution order: of the nodes whose inputs are all in,
	// the most recently created first (the engine's ready queue).
	order := readyOrder(rootNodes)

	// In Grad mode, execute only nodes that lead to a captured tensor.
	execute := map[*Node]bool{}
	if inputs == nil {
		for _, n := range order {
			execute[n] = true
		}
	} else {
		for i := len(order) - 1; i >= 0; i-- {
			n := order[i]
			for _, ed := range n.next {
				if ed.leaf != nil {
					if _, ok := captureLeaf[ed.leaf]; ok {
						execute[n] = true
					}
				} else if ed.node != nil {
					if execute[ed.node] {
						execute[n] = true
					}
					for k := range captureNode {
						if k.n == ed.node {
							execute[n] = true
						}
					}
				}
			}
		}
	}

	// A leaf's gradient is final once every node with an edge to it has
	// run; then its hooks run and it is added to .grad, as PyTorch's
	// AccumulateGrad node (top priority in the ready queue) does.
	pendingLeaf := map[*T]int{}
	if inputs == nil {
		for _, n := range order {
			for _, ed := range n.next {
				if ed.leaf != nil {
					pendingLeaf[ed.leaf]++
				}
			}
		}
	}
	done := map[*T]bool{}
	finishLeaf := func(leaf *T) error {
		g, ok := leafGrads[leaf]
		if !ok || done[leaf] {
			return nil
		}
		done[leaf] = true
		if hooks := leafHooksOf(leaf); len(hooks) > 0 {
			hooked = true
			var err error
			if g, err = runHooks(hooks, g); err != nil {
				return err
			}
		}
		old := leaf.Grad()
		switch {
		case old != nil && !create && old.DType() == g.DType() && sameShape(old.Shape(), g.Shape()) && old.AddInplace(g) == nil:
			// AccumulateGrad without grad mode: .grad += new_grad,
			// the same tensor (its version bumped)
			recycle(g)
			return nil
		case old != nil:
			s, err := e.add(old, g)
			if err != nil {
				return err
			}
			g = s
		case !create && reusable(g) && !g.IsWrappedNumber() && obeysLayoutContract(g, leaf):
			// nothing else holds g: steal it, as AccumulateGrad does
			delete(own, g)
		case !create:
			g = cloneObeyContract(g, leaf)
		}
		leaf.SetGrad(g)
		return nil
	}
	leavesOf := func(n *Node) error {
		if inputs != nil {
			return nil
		}
		for _, ed := range n.next {
			if ed.leaf == nil {
				continue
			}
			if pendingLeaf[ed.leaf]--; pendingLeaf[ed.leaf] == 0 {
				if err := finishLeaf(ed.leaf); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, n := range order {
		buf := grads[n]
		delete(grads, n)
		// autograd.grad captures an output's gradient before its hooks
		// run (PyTorch 1.13's engine).
		for nr := range n.outMeta {
			if idx, ok := captureNode[key{n, nr}]; ok && buf != nil && buf[nr] != nil {
				delete(own, buf[nr])
				for _, i := range idx {
					if err := accumulate(&results[i], buf[nr], false); err != nil {
						return nil, err
					}
				}
			}
		}
		if !execute[n] || buf == nil {
			if err := leavesOf(n); err != nil {
				return nil, err
			}
			continue
		}
		if len(n.hooks) > 0 {
			hooked = true
		}
		if err := e.preNodeGrads(n, buf, inputs == nil, create); err != nil {
			return nil, err
		}
		// As PyTorch, a freed graph fails only at a node that saved
		// tensors for backward (MulBackward0, ExpBackward0, ...); nodes that
		// keep nothing but shapes (AddBackward0, SumBackward0) run again.
		if n.released && n.freedSaved {
			return nil, errReleased()
		}
		// Fill missing output gradients with zeros.
		for i, g := range buf {
			if g == nil {
				m := n.outMeta[i]
				if !m.dtype.IsFloat() {
					continue
				}
				z, err := tensor.Zeros(m.shape, m.dtype)
				if err != nil {
					return nil, err
				}
				buf[i] = z
			}
		}
		var ins []*T
		var err error
		if n.custom != nil {
			ins, err = n.custom(buf)
			if err == nil && create {
				if n.tangentN != nil {
					linearDoubleBackward(n, buf, ins, n.tangentN, n.backwardN)
				} else if n.tangent != nil {
					linearDoubleBackward(n, buf, ins, single(n.tangent), n.custom)
				} else {
					markNoDoubleBackward(n, buf, ins)
				}
			}
		} else {
			ins, err = n.fn.Backward(&Ctx{E: e, node: n, freeing: !retain && !create}, buf)
			if err == nil && create && n.fn.Tangent != nil {
				ctx := &Ctx{E: e, node: n}
				linearDoubleBackward(n, buf, ins, single(func(us []*T) (*T, error) { return n.fn.Tangent(ctx, us) }),
					func(gs []*T) ([]*T, error) { return n.fn.Backward(ctx, gs) })
			} else if err == nil && create && n.fn.View {
				// a view's geometric backward (geometryBackward) runs
				// outside the engine: its gradient is linear in g
				if in, ok := n.attrs["_in_geo"].(viewGeo); ok {
					if out, ok := n.attrs["_out_geo"].(viewGeo); ok {
						ctx := &Ctx{E: e, node: n}
						linearDoubleBackward(n, buf, ins, single(func(us []*T) (*T, error) { return viewTangent(in, out, us[0]) }),
							func(gs []*T) ([]*T, error) { return n.fn.Backward(ctx, gs) })
					}
				}
			}
		}
		if err != nil {
			return nil, err
		}
		if !create && n.custom == nil {
			// the formula's fresh results may be reused downstream; the
			// gradients it consumed (unless passed through) are dead
			for _, g := range ins {
				mark(g)
			}
			for _, g := range buf {
				if g != nil && !slices.Contains(ins, g) {
					recycle(g)
				}
			}
		}
		if !retain {
			n.released = true
			n.freedSaved = n.custom != nil || hasSavedTensor(n.saved)
			n.saved = nil
		}
		for i, ed := range n.next {
			if i >= len(ins) || ins[i] == nil || !ed.valid() {
				continue
			}
			g := ins[i]
			if e.anomaly && hasNaN(g) {
				where := ""
				if n.pos != "" {
					where = " (forward op at " + n.pos + ")"
				}
				return nil, errorf("Function '%s' returned nan values in its %dth output%s.", n.name, i, where)
			}
			if want := n.inMeta[i].shape; !sameShape(g.Shape(), want) {
				return nil, errorf("Function %s returned an invalid gradient at index %d - got %s but expected shape compatible with %s", n.name, i, fmtInts(g.Shape()), fmtInts(want))
			}
			if g.DType() != n.inMeta[i].dtype && n.inMeta[i].dtype.IsFloat() {
				if g, err = g.To(n.inMeta[i].dtype); err != nil {
					return nil, err
				}
			}
			if err := send(ed, g); err != nil {
				return nil, err
			}
		}
		if err := leavesOf(n); err != nil {
			return nil, err
		}
	}

	if inputs == nil {
		for _, leaf := range leafOrder { // roots that are leaves
			if err := finishLeaf(leaf); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	for i, in := range inputs {
		if results[i] == nil {
			z, err := tensor.Zeros(in.Shape(), in.DType())
			if err != nil {
				return nil, err
			}
			results[i] = z
		}
	}
	return results, nil
}

// cloneObeyContract copies a leaf's first gradient as PyTorch's
// AccumulateGrad does (torch/csrc/autograd/utils/grad_layout_contract.h,
// clone_obey_contract): with the leaf's own strides when the leaf is
// non-overlapping and dense (a permuted or transposed leaf gets a grad
// laid out like it, whatever layout backward produced), else contiguous.
func cloneObeyContract(g, leaf *T) *T {
	if !leaf.IsNonOverlappingAndDense() || !sameShape(g.Shape(), leaf.Shape()) {
		return g.Clone()
	}
	return g.CloneLayoutOf(leaf)
}

// obeysLayoutContract reports whether g may become leaf's .grad as it is
// (PyTorch's obeys_layout_contract): g has the leaf's strides on every
// dim of size > 1 when the leaf is non-overlapping and dense, else g is
// contiguous.
func obeysLayoutContract(g, leaf *T) bool {
	if !sameShape(g.Shape(), leaf.Shape()) {
		return false
	}
	if !leaf.IsNonOverlappingAndDense() {
		return g.IsContiguous()
	}
	gs, ls := g.Strides(), leaf.Strides()
	for i, n := range g.Shape() {
		if (n != 1 && gs[i] != ls[i]) || (n == 1 && gs[i] == 0) {
			return false
		}
	}
	return true
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func topoOrder(roots []*Node) []*Node {
	visited := map[*Node]bool{}
	var post []*Node
	type frame struct {
		n *Node
		i int
	}
	for _, r := range roots {
		if visited[r] {
			continue
		}
		visited[r] = true
		stack := []frame{{r, 0}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.i < len(top.n.next) {
				ed := top.n.next[top.i]
				top.i++
				if ed.node != nil && !visited[ed.node] {
					visited[ed.node] = true
					stack = append(stack, frame{ed.node, 0})
				}
				continue
			}
			post = append(post, top.n)
			stack = stack[:len(stack)-1]
		}
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// readyOrder is the order PyTorch's engine runs the graph under roots
// (one device, one thread): a node is ready once every edge into it from
// the graph has delivered, and of the ready nodes the one with the
// highest sequence number (the most recently created) runs first. Each
// root also waits for its edge from the graph root.
func readyOrder(roots []*Node) []*Node {
	nodes := topoOrder(roots)
	deps := make(map[*Node]int, len(nodes))
	for _, n := range nodes {
		for _, ed := range n.next {
			if ed.node != nil {
				deps[ed.node]++
			}
		}
	}
	var ready nodeHeap
	seen := map[*Node]bool{}
	for _, r := range roots {
		if !seen[r] {
			seen[r] = true
			if deps[r] == 0 {
				heap.Push(&ready, r)
			}
		}
	}
	order := make([]*Node, 0, len(nodes))
	for ready.Len() > 0 {
		n := heap.Pop(&ready).(*Node)
		order = append(order, n)
		for _, ed := range n.next {
			if ed.node == nil {
				continue
			}
			if deps[ed.node]--; deps[ed.node] == 0 {
				heap.Push(&ready, ed.node)
			}
		}
	}
	if len(order) != len(nodes) { // not expected: fall back to the DFS order
		return nodes
	}
	return order
}

// nodeHeap is a max-heap of nodes by sequence number (container/heap).
type nodeHeap []*Node

func (h nodeHeap) Len() int           { return len(h) }
func (h nodeHeap) Less(i, j int) bool { return h[i].seq > h[j].seq }
func (h nodeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)        { *h = append(*h, x.(*Node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}

// hasSavedTensor reports whether a node saved any tensor for backward.
func hasSavedTensor(saved []savedTensor) bool {
	for _, s := range saved {
		if s.t != nil {
			return true
		}
	}
	return false
}

// markNoDoubleBackward makes the gradients a custom node (ApplyCustom)
// returned during a create_graph pass fail loudly when differentiated
// again, as PyTorch's ops without a double-backward formula do, instead of
// silently acting as constants: a gradient computed outside the engine
// (no grad_fn) gets a node, depending on the custom node's inputs and on
// the incoming gradients, whose backward is a NotImplementedError. Custom
// backwards written in engine ops record a graph and are left alone.
func markNoDoubleBackward(n *Node, buf, ins []*T) {
	var next []edge
	var inMeta []meta
	for i, ed := range n.next {
		if ed.valid() {
			next = append(next, ed)
			inMeta = append(inMeta, n.inMeta[i])
		}
	}
	for _, g := range buf {
		if g != nil && g.RequiresGrad() {
			next = append(next, edgeOf(g))
			inMeta = append(inMeta, metaOf(g))
		}
	}
	if len(next) == 0 {
		return
	}
	name := n.name
	for i, g := range ins {
		if g == nil || g.RequiresGrad() || !g.DType().IsFloat() || i >= len(n.next) || !n.next[i].valid() {
			continue
		}
		w := &Node{name: "NotImplemented", nIn: len(next), next: next, inMeta: inMeta, seq: nextNodeSeq()}
		w.custom = func([]*T) ([]*T, error) {
			return nil, &Error{Kind: "NotImplementedError", Msg: "the derivative for '" + name + "' is not implemented: its gradient cannot be differentiated again (double backward)"}
		}
		w.outMeta = []meta{metaOf(g)}
		ins[i] = attach(w, g.ShallowCopy(), 0, nil)
	}
}

// linearDoubleBackward records the gradients ins that node n of a linear
// op (ApplyLinear, a view, a table op with Tangent) returned during a
// create_graph pass as outputs of one node w depending on the output
// gradients buf: differentiating them again applies the op to their
// cotangents (tangent: per input of n, zeros where none, to one tangent
// per output of n). w is linear too (it is n's backward), so w records
// backward as its own tangent and derivatives of any order stay exact.
// The gradients do not depend on n's inputs; when no output gradient
// requires grad they are constants and left as they are.
func linearDoubleBackward(n *Node, buf, ins []*T, tangent func(us []*T) ([]*T, error), backward func(gs []*T) ([]*T, error)) {
	var src []int // output of n for each input of w
	var next []edge
	var inMeta []meta
	for j, g := range buf {
		if g != nil && g.RequiresGrad() {
			src = append(src, j)
			next = append(next, edgeOf(g))
			inMeta = append(inMeta, metaOf(g))
		}
	}
	if len(src) == 0 {
		return
	}
	w := &Node{name: n.name + "Backward", nIn: len(src), next: next, inMeta: inMeta, seq: nextNodeSeq()}
	var slot []int // input of n for each output of w
	for i, gi := range ins {
		if gi == nil || gi.RequiresGrad() || !gi.DType().IsFloat() || i >= len(n.next) || !n.next[i].valid() {
			continue // (a gradient computed in engine ops keeps its own graph)
		}
		ins[i] = attach(w, gi.ShallowCopy(), len(slot), nil)
		w.outMeta = append(w.outMeta, metaOf(ins[i]))
		slot = append(slot, i)
	}
	if len(slot) == 0 {
		return
	}
	nIn, nOut := n.inMeta, n.outMeta
	// spread places the tensors of the listed positions into a full list
	// of zeros of the given metas
	spread := func(ms []meta, pos []int, vs []*T) ([]*T, error) {
		out := make([]*T, len(ms))
		for i, m := range ms {
			if m.dtype.IsFloat() {
				z, err := tensor.Zeros(m.shape, m.dtype)
				if err != nil {
					return nil, err
				}
				out[i] = z
			}
		}
		for k, i := range pos {
			if k < len(vs) && vs[k] != nil {
				out[i] = vs[k]
			}
		}
		return out, nil
	}
	pick := func(vs []*T, pos []int) []*T {
		out := make([]*T, len(pos))
		for k, i := range pos {
			if i < len(vs) {
				out[k] = vs[i]
			}
		}
		return out
	}
	w.custom = func(us []*T) ([]*T, error) {
		ts, err := spread(nIn, slot, us)
		if err != nil {
			return nil, err
		}
		outs, err := tangent(ts)
		if err != nil {
			return nil, err
		}
		return pick(outs, src), nil
	}
	if backward != nil {
		w.tangentN = func(gs []*T) ([]*T, error) {
			full, err := spread(nOut, src, gs)
			if err != nil {
				return nil, err
			}
			r, err := backward(full)
			if err != nil {
				return nil, err
			}
			return pick(r, slot), nil
		}
		w.backwardN = func(us []*T) ([]*T, error) { return w.custom(us) }
	}
}

// single adapts a one-output tangent to linearDoubleBackward's form.
func single(f func(us []*T) (*T, error)) func(us []*T) ([]*T, error) {
	return func(us []*T) ([]*T, error) {
		t, err := f(us)
		return []*T{t}, err
	}
}

// viewTangent applies a view op to a tangent u of its input's shape: the
// output reads, at each of its storage positions, u's element there (the
// mean of the input elements aliasing it, when the input overlaps itself:
// the adjoint of geometryBackward's even split), 0 where the view reaches
// outside its input.
func viewTangent(in, out viewGeo, u *T) (*T, error) {
	lo, hi := in.span()
	if l2, h2 := out.span(); l2 < lo || h2 > hi {
		lo, hi = min(lo, l2), max(hi, h2)
	}
	sum := make([]float64, hi-lo+1)
	count := make([]int32, len(sum))
	uv := u.Contiguous().ToFloat64s()
	i := 0
	in.offsets(func(off int) {
		sum[off-lo] += uv[i]
		count[off-lo]++
		i++
	})
	res := make([]float64, 0, prodInts(out.shape))
	out.offsets(func(off int) {
		v := 0.0
		if c := count[off-lo]; c > 0 {
			v = sum[off-lo] / float64(c)
		}
		res = append(res, v)
	})
	return tensor.FromFloat64s(res, out.shape, u.DType())
}
