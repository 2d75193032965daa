// Package autograd is tsr's reverse-mode automatic differentiation over the
// tensor runtime, after PyTorch's autograd engine.
//
// Differentiable ops are recorded by an Engine, one per interpreter: Apply
// runs an op's pure forward function (from package tensor) and, when grad
// mode is on and an input requires grad, attaches a Node to the output. Each
// op's derivative formula lives in one table (derivatives.go), keyed by the
// op's PyTorch name, the way PyTorch keeps tools/autograd/derivatives.yaml.
//
// Version counters: every tensor a node saves for backward is saved with its
// storage's version at save time; backward through a node whose saved tensor
// was modified in place since raises PyTorch's RuntimeError. In-place ops go
// through ApplyInplace, which rejects in-place use of leaves that require
// grad and rebases the history of a view's base (PyTorch's CopySlices).
//
// An Engine is not safe for concurrent use; separate interpreters use
// separate engines and never share grad mode.
package autograd

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/tsrlang/tsr/tensor"
)

// T is a shorthand for the tensor type.
type T = tensor.Tensor

// Attrs holds an op's non-tensor arguments, keyed by PyTorch's argument
// names ("dim", "keepdim", "shape", "exponent", ...). Dims are normalised
// (non-negative) []int or int; scalars are float64; flags are bool.
type Attrs map[string]any

// Error is an autograd error; ErrorKind reports its tsr kind (RuntimeError).
type Error struct {
	Kind string
	Msg  string
}

func (e *Error) Error() string     { return e.Msg }
func (e *Error) ErrorKind() string { return e.Kind }

func errorf(format string, args ...any) error {
	return &Error{Kind: "RuntimeError", Msg: fmt.Sprintf(format, args...)}
}

// Engine is one interpreter's autograd state: grad mode, anomaly mode and
// the nesting of gradient blocks.
type Engine struct {
	gradEnabled bool
	anomaly     bool
	gradDepth   int
	// Pos, when set, returns the current tsr source position
	// ("file:line:col"); anomaly mode stores it on every recorded node.
	Pos func() string
}

// NewEngine returns an engine with grad mode on and anomaly mode off.
func NewEngine() *Engine { return &Engine{gradEnabled: true} }

// GradEnabled reports whether ops are recorded (false inside no_grad).
func (e *Engine) GradEnabled() bool { return e.gradEnabled }

// SetGradEnabled sets grad mode and returns the previous mode.
func (e *Engine) SetGradEnabled(on bool) bool {
	prev := e.gradEnabled
	e.gradEnabled = on
	return prev
}

// EnterNoGrad disables recording until the returned function is called.
func (e *Engine) EnterNoGrad() (exit func()) {
	prev := e.SetGradEnabled(false)
	return func() { e.gradEnabled = prev }
}

// EnterAnomaly enables anomaly detection (detect_anomaly { }) until the
// returned function is called: nodes remember the source position of their
// forward op, and backward fails naming that op when it produces NaN.
func (e *Engine) EnterAnomaly() (exit func()) {
	prev := e.anomaly
	e.anomaly = true
	return func() { e.anomaly = prev }
}

// Node is a recorded op: a tensor's grad_fn.
type Node struct {
	fn      *Function
	name    string
	next    []edge
	saved   []savedTensor
	nIn     int
	inMeta  []meta
	outMeta []meta
	attrs   Attrs
	pos     string
	// released is set once backward ran without retain_graph.
	released bool
	// freedSaved is set with released when the node had saved tensors
	// (or is custom): running it again is the "backward a second time" error.
	freedSaved bool
	// custom overrides fn.Backward (ApplyCustom).
	custom func(grads []*T) ([]*T, error)
	// tangent, set by ApplyLinear, applies the (linear) op to tangents of
	// its inputs: the double backward of custom (linearDoubleBackward).
	tangent func(us []*T) (*T, error)
	// tangentN and backwardN are set on the nodes linearDoubleBackward
	// makes: the node's own tangent (the original op's backward) and the
	// backward that computes it again, for higher orders.
	tangentN  func(us []*T) ([]*T, error)
	backwardN func(gs []*T) ([]*T, error)
	// seq numbers nodes in creation order (PyTorch's sequence_nr): of
	// the nodes ready in backward, the most recent runs first.
	seq uint64
	// retained are non-leaf outputs whose .grad is kept (retain_grad),
	// by output index, with the hook id at which it was asked for.
	retained map[int]retainMark
	// hooks are the tensor hooks of the outputs (RegisterHook), by
	// output index.
	hooks map[int][]hookEntry
	// firstHook is, by output index, the id of the first hook ever
	// registered (removed or not): PyTorch 1.13 runs all of an output's
	// hooks as one pre-hook placed at the first registration, so a
	// retain_grad runs after every hook when made after that, before
	// every hook otherwise.
	firstHook map[int]int64

	// inline storage for the common one- and two-input nodes
	nextBuf [2]edge
	metaBuf [2]meta
	outBuf  [1]meta
	saveBuf [3]savedTensor
}

// nodeSeq numbers nodes in creation order (see Node.seq).
var nodeSeq atomic.Uint64

func nextNodeSeq() uint64 { return nodeSeq.Add(1) }

// Name returns the node's printable name, e.g. "MulBackward0" (PyTorch's node class name).
func (n *Node) Name() string { return n.name }

// retainMark is a retain_grad request: the tensor whose .grad backward
// fills, and its place among the output's hooks.
type retainMark struct {
	t  *T
	id int64
}

type meta struct {
	shape []int
	dtype tensor.DType
}

type edge struct {
	node *Node // producer of the input, or nil
	nr   int   // output index in node
	leaf *T    // a leaf that requires grad, or nil
}

type savedTensor struct {
	t        *T
	version  int64
	isOutput bool
	outNr    int
	// producer of the saved tensor at save time, for error messages
	producer   *Node
	producerNr int
}

func edgeOf(t *T) edge {
	if t == nil {
		return edge{}
	}
	if fn, ok := t.GradFn().(*Node); ok && fn != nil {
		return edge{node: fn, nr: t.OutputNr()}
	}
	if t.RequiresGrad() {
		return edge{leaf: t}
	}
	return edge{}
}

func (ed edge) valid() bool { return ed.node != nil || ed.leaf != nil }

func anyRequiresGrad(ts []*T) bool {
	for _, t := range ts {
		if t != nil && t.RequiresGrad() {
			return true
		}
	}
	return false
}

func metaOf(t *T) meta {
	if t == nil {
		return meta{}
	}
	// Shapes are never mutated in place (views get new slices), so the
	// slice can be shared.
	return meta{shape: t.Shape(), dtype: t.DType()}
}

func (e *Engine) newNode(fn *Function, name string, inputs []*T, attrs Attrs) *Node {
	n := &Node{fn: fn, name: name, nIn: len(inputs), attrs: attrs, seq: nextNodeSeq()}
	if len(inputs) <= 2 {
		n.next = n.nextBuf[:len(inputs)]
		n.inMeta = n.metaBuf[:len(inputs)]
	} else {
		n.next = make([]edge, len(inputs))
		n.inMeta = make([]meta, len(inputs))
	}
	for i, in := range inputs {
		n.next[i] = edgeOf(in)
		n.inMeta[i] = metaOf(in)
	}
	if e.anomaly && e.Pos != nil {
		n.pos = e.Pos()
	}
	return n
}

func (n *Node) save(t *T, isOutput bool, outNr int) {
	t.Share() // the interpreter must not recycle a saved tensor's storage
	st := savedTensor{t: t, version: t.Version(), isOutput: isOutput, outNr: outNr}
	if fn, ok := t.GradFn().(*Node); ok && fn != nil && !isOutput {
		st.producer, st.producerNr = fn, t.OutputNr()
	}
	n.saved = append(n.saved, st)
}

// attach makes out an output of node n, avoiding aliasing an input header:
// an op that returned its input gets a view of it (Alias), so an in-place
// write through the output still reaches the input's history.
func attach(n *Node, out *T, nr int, inputs []*T) *T {
	for _, in := range inputs {
		if in == out {
			out = out.Alias()
			break
		}
	}
	out.SetGradFn(n, nr)
	out.SetRequiresGrad(true)
	return out
}

func outputsDifferentiable(outs []*T) bool {
	for _, o := range outs {
		if o != nil && o.DType().IsFloat() {
			return true
		}
	}
	return false
}

// Apply runs forward, a pure tensor op, and records a node for op when grad
// mode is on and any input requires grad. op names an entry of the
// derivative table (see Ops); recording an op without a formula is a
// RuntimeError. Outputs of integer or bool dtype are never recorded.
func (e *Engine) Apply(op string, inputs []*T, attrs Attrs, forward func() (*T, error)) (*T, error) {
	out, err := forward()
	if err == nil && out != nil && !e.gradEnabled && out.Base() != nil && anyRequiresGrad(inputs) {
		if fn, ok := table[op]; ok && fn.View {
			markNoGradView(out)
		}
	}
	if err != nil || out == nil || !e.gradEnabled || !anyRequiresGrad(inputs) || !out.DType().IsFloat() {
		return out, err
	}
	fn, ok := table[op]
	if !ok {
		return nil, errorf("the derivative for '%s' is not implemented", op)
	}
	if fn.View && len(inputs) > 0 {
		a := make(Attrs, len(attrs)+2)
		for k, v := range attrs {
			a[k] = v
		}
		a["_in_geo"] = geoOf(inputs[0])
		a["_out_geo"] = geoOf(out)
		attrs = a
	}
	n := e.newNode(fn, nodeNameOf(fn, inputs, attrs), inputs, attrs)
	n.saved = n.saveBuf[:0]
	if fn.SaveInputs {
		for _, in := range inputs {
			if in != nil {
				n.save(in, false, 0)
			} else {
				n.saved = append(n.saved, savedTensor{})
			}
		}
	}
	out = attach(n, out, 0, inputs)
	n.outBuf[0] = metaOf(out)
	n.outMeta = n.outBuf[:]
	if fn.SaveOutput {
		n.save(out, true, 0)
	}
	if extra, ok := attrs[SavedAttr].([]*T); ok {
		for _, t := range extra {
			n.save(t, false, 0)
		}
	}
	return out, nil
}

// SavedAttr is the attribute under which Apply takes further tensors
// ([]*T) to save for backward beyond the op's inputs and output (a fused
// op's intermediate, such as cross_entropy's log_softmax): saved after
// those, with the same version check and freeing, and read back with
// Ctx.Saved.
const SavedAttr = "_saved"

// ApplyMulti is Apply for ops with several outputs (max with indices, split,
// chunk, linalg factorizations). Non-float outputs (indices) are returned
// but not recorded.
func (e *Engine) ApplyMulti(op string, inputs []*T, attrs Attrs, forward func() ([]*T, error)) ([]*T, error) {
	outs, err := forward()
	if err == nil && !e.gradEnabled && anyRequiresGrad(inputs) {
		for _, o := range outs {
			if o != nil && o.Base() != nil {
				markNoGradView(o)
			}
		}
	}
	if err != nil || !e.gradEnabled || !anyRequiresGrad(inputs) || !outputsDifferentiable(outs) {
		return outs, err
	}
	fn, ok := table[op]
	if !ok {
		return nil, errorf("the derivative for '%s' is not implemented", op)
	}
	n := e.newNode(fn, nodeNameOf(fn, inputs, attrs), inputs, attrs)
	if fn.SaveInputs {
		for _, in := range inputs {
			n.save(in, false, 0)
		}
	}
	n.outMeta = make([]meta, len(outs))
	for i, o := range outs {
		if o == nil || !o.DType().IsFloat() {
			n.outMeta[i] = metaOf(o)
			continue
		}
		outs[i] = attach(n, o, i, inputs)
		n.outMeta[i] = metaOf(outs[i])
		if outs[i].Base() != nil {
			outs[i].SetViewCreation(tensor.ViewMultiOutput, i) // split, chunk
		}
	}
	if fn.SaveOutput {
		for i, o := range outs {
			if o != nil {
				n.save(o, true, i)
			}
		}
	}
	return outs, nil
}

// ApplyCustom records an op whose backward is given as a closure instead of
// a table entry. It is the escape hatch for ops whose gradient depends on
// forward-time data that does not fit Attrs (e.g. advanced-indexing
// positions). backward receives the output gradient and returns one
// gradient per input (nil where none). A gradient backward computes in
// engine ops is differentiable again; one computed outside the engine
// during a create_graph pass gets a node whose backward is a
// NotImplementedError, so a second derivative through the op fails
// instead of treating the gradient as a constant (ApplyLinear gives linear
// ops a double backward; other ops compute their gradient in recorded ops
// when the pass records a graph, as conv and lu_factor do).
func (e *Engine) ApplyCustom(name string, inputs []*T, forward func() (*T, error), backward func(grad *T) ([]*T, error)) (*T, error) {
	out, err := forward()
	if err != nil || out == nil || !e.gradEnabled || !anyRequiresGrad(inputs) || !out.DType().IsFloat() {
		return out, err
	}
	n := e.newNode(nil, customNodeName(name), inputs, nil)
	n.custom = func(grads []*T) ([]*T, error) { return backward(grads[0]) }
	out = attach(n, out, 0, inputs)
	n.outMeta = []meta{metaOf(out)}
	return out, nil
}

// ApplyLinear is ApplyCustom for an op that is linear in its inputs
// jointly, or piecewise linear with a gradient that is constant between
// kinks (indexing, gather and scatter, flips and rolls, pads, pools with
// fixed windows and argmax positions, fmod, nan_to_num, ...), so its
// gradient is differentiable again: apply(us) must compute the op's
// Jacobian-vector product on tangents us (one per input, of the input's
// shape; zeros for inputs without a gradient) — for a linear op the op
// itself with the forward's non-tensor arguments (indices, positions) —
// in engine ops, through ApplyLinear again, or as a plain tensor. Such a
// gradient does not depend on the inputs; with respect to the output
// gradient g its derivative is d<backward(g), u>/dg = apply(u), and the
// node recording that is linear again, so any order is exact.
func (e *Engine) ApplyLinear(name string, inputs []*T, forward func() (*T, error), backward func(grad *T) ([]*T, error), apply func(us []*T) (*T, error)) (*T, error) {
	out, err := forward()
	if err != nil || out == nil || !e.gradEnabled || !anyRequiresGrad(inputs) || !out.DType().IsFloat() {
		return out, err
	}
	n := e.newNode(nil, customNodeName(name), inputs, nil)
	n.custom = func(grads []*T) ([]*T, error) { return backward(grads[0]) }
	n.tangent = apply
	out = attach(n, out, 0, inputs)
	n.outMeta = []meta{metaOf(out)}
	return out, nil
}

// ApplyInplace performs an in-place op on self through forward (a pure
// tensor in-place op, which bumps self's version) and records it. op names
// the out-of-place formula it shares ("add", "mul", "copy", ...); others are
// the op's other tensor inputs.
//
// Errors, as PyTorch: in-place use of a leaf that requires grad (or a view
// of one) while grad mode is on.
func (e *Engine) ApplyInplace(op string, self *T, others []*T, attrs Attrs, forward func() error) error {
	if err := e.CheckInplace(self); err != nil {
		return err
	}
	inputs := append([]*T{self}, others...)
	if !e.gradEnabled || !anyRequiresGrad(inputs) {
		return forward()
	}
	fn, ok := table[op]
	if !ok {
		return errorf("the derivative for '%s_' is not implemented", op)
	}
	// The formula may read self's value before the update: give it a copy
	// carrying self's history.
	old := self
	if fn.SaveInputs {
		old = self.Clone()
		if fn, ok := self.GradFn().(*Node); ok && fn != nil {
			old.SetGradFn(fn, self.OutputNr())
		}
		old.SetRequiresGrad(self.RequiresGrad())
	}
	inputs[0] = old
	n := e.newNode(fn, nodeNameOf(fn, inputs, attrs), inputs, attrs)
	if base := self.Base(); base != nil && n.next[0].valid() {
		// As PyTorch's CopySlices, the gradient with respect to the
		// overwritten values goes straight into the view's region of the
		// base's previous history, not back through the chain of views
		// that made self: an as_strided view can reach storage outside
		// the tensor it was taken from (x[2, 0].as_strided([2], [3], 3)),
		// whose own backward would drop that part.
		if geo, err := viewGeometry(self, base); err == nil {
			vn := &Node{name: "AsStridedBackward0", nIn: 1, attrs: Attrs{"geometry": geo}, seq: nextNodeSeq()}
			vn.next = []edge{edgeOf(base)}
			vn.inMeta = []meta{metaOf(base)}
			vn.outMeta = []meta{metaOf(self)}
			vn.custom = func(grads []*T) ([]*T, error) {
				g, err := asStridedScatter(e, geo, grads[0])
				return []*T{g}, err
			}
			vn.tangent = func(us []*T) (*T, error) { return asStridedGather(geo, us[0]) }
			n.next[0] = edge{node: vn, nr: 0}
		}
	}
	if fn.SaveInputs {
		for _, in := range inputs {
			n.save(in, false, 0)
		}
	}
	n.outMeta = []meta{metaOf(self)}
	if err := forward(); err != nil {
		return err
	}
	if fn.SaveOutput {
		n.save(self, true, 0)
	}
	base := self.Base()
	if base == nil {
		self.SetGradFn(n, 0)
		self.SetRequiresGrad(true)
		return nil
	}
	// self is a view of base: rebase base's history (CopySlices), then make
	// self a view of the new history.
	geo, err := viewGeometry(self, base)
	if err != nil {
		return err
	}
	cs := &Node{name: "CopySlices", nIn: 2, attrs: Attrs{"geometry": geo}, seq: nextNodeSeq()}
	cs.next = []edge{edgeOf(base), {node: n, nr: 0}}
	cs.inMeta = []meta{metaOf(base), metaOf(self)}
	cs.outMeta = []meta{metaOf(base)}
	baseNeedsGrad := edgeOf(base).valid()
	cs.custom = func(grads []*T) ([]*T, error) {
		if baseNeedsGrad && geo.internalOverlap() {
			// PyTorch's CopySlices copies the gradient of the written
			// values into the view's region of the base's gradient: a
			// copy_ into an expanded view, which it rejects
			return nil, errorf("unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.")
		}
		return copySlicesBackward(e, geo, grads[0])
	}
	cs.tangent = func(us []*T) (*T, error) { return copySlicesForward(geo, us[0], us[1]) }
	base.SetGradFn(cs, 0)
	base.SetRequiresGrad(true)
	vn := &Node{name: "AsStridedBackward0", nIn: 1, attrs: Attrs{"geometry": geo}, seq: nextNodeSeq()}
	vn.next = []edge{{node: cs, nr: 0}}
	vn.inMeta = []meta{metaOf(base)}
	vn.outMeta = []meta{metaOf(self)}
	vn.custom = func(grads []*T) ([]*T, error) {
		g, err := asStridedScatter(e, geo, grads[0])
		return []*T{g}, err
	}
	vn.tangent = func(us []*T) (*T, error) { return asStridedGather(geo, us[0]) }
	self.SetGradFn(vn, 0)
	self.SetRequiresGrad(true)
	return nil
}

func init() { tensor.SetViewGradFnHook(viewGradFn) }

// viewGradFn rebuilds the grad_fn of a view whose storage was written in
// place since its grad_fn was set (by its base or another view): an
// AsStridedBackward0 of the base's current history, as PyTorch's
// VariableHooks::grad_fn does, so the view's gradient sees the write.
func viewGradFn(self *T) tensor.Node {
	base := self.Base()
	geo, err := viewGeometry(self, base)
	if err != nil {
		return nil
	}
	vn := &Node{name: "AsStridedBackward0", nIn: 1, attrs: Attrs{"geometry": geo}, seq: nextNodeSeq()}
	vn.next = []edge{edgeOf(base)}
	vn.inMeta = []meta{metaOf(base)}
	vn.outMeta = []meta{metaOf(self)}
	vn.custom = func(grads []*T) ([]*T, error) {
		g, err := asStridedScatter(nil, geo, grads[0])
		return []*T{g}, err
	}
	vn.tangent = func(us []*T) (*T, error) { return asStridedGather(geo, us[0]) }
	return vn
}

// markNoGradView records that view v was made with grad mode off from a
// tensor that requires grad (unless it inherited another origin).
func markNoGradView(v *T) {
	if c, _ := v.ViewCreation(); c == tensor.ViewDefault {
		v.SetViewCreation(tensor.ViewNoGrad, 0)
	}
}

// CheckInplace returns PyTorch's error for an in-place op on self while
// grad mode is on when self is a leaf that requires grad, or a view of one
// (nil otherwise).
func (e *Engine) CheckInplace(self *T) error {
	if e.gradEnabled {
		if self.IsLeaf() && self.RequiresGrad() {
			return errorf("a leaf Variable that requires grad is being used in an in-place operation.")
		}
		switch c, out := self.ViewCreation(); c {
		case tensor.ViewNoGrad:
			return errorf("A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked).")
		case tensor.ViewMultiOutput:
			if gf := self.GradFn(); gf != nil {
				return errorf("Output %d of %s is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.", out, gf.Name())
			}
		}
		if b := self.Base(); b != nil && b.IsLeaf() && b.RequiresGrad() && self.GradFn() != nil {
			if _, ok := self.GradFn().(*Node); ok {
				return errorf("a view of a leaf Variable that requires grad is being used in an in-place operation.")
			}
		}
	}
	return nil
}

// geometry is a view's (size, stride, offset) relative to its base, a
// non-overlapping, dense tensor (contiguous, or permuted like the result
// of an elementwise op on a transposed input): offsets count storage
// elements from the base's storage offset, so a buffer of baseNumel
// elements laid out with baseStrides (baseLayout) holds the base's
// elements at exactly the view's positions.
type geometry struct {
	size, stride []int
	offset       int
	baseShape    []int
	baseStrides  []int
	baseNumel    int
}

// internalOverlap reports whether two elements of the view share memory
// through a stride-0 dim of size > 1 (an expanded view).
func (g geometry) internalOverlap() bool {
	if slices.Contains(g.size, 0) {
		return false
	}
	for i, s := range g.size {
		if s > 1 && g.stride[i] == 0 {
			return true
		}
	}
	return false
}

func viewGeometry(v, base *T) (geometry, error) {
	if !base.IsNonOverlappingAndDense() {
		return geometry{}, errorf("in-place operation on a view of a non-contiguous base is not supported by autograd; clone() the base first")
	}
	return geometry{
		size:        append([]int(nil), v.Shape()...),
		stride:      append([]int(nil), v.Strides()...),
		offset:      v.StorageOffset() - base.StorageOffset(),
		baseShape:   append([]int(nil), base.Shape()...),
		baseStrides: append([]int(nil), base.Strides()...),
		baseNumel:   base.Numel(),
	}, nil
}

// baseLayout returns a fresh flat buffer of the base's storage span and a
// base-shaped view of it with the base's strides, holding a copy of g
// when g is not nil (else zeros).
func baseLayout(geo geometry, dt tensor.DType, g *T) (flat, base *T, err error) {
	if flat, err = tensor.Zeros([]int{geo.baseNumel}, dt); err != nil {
		return nil, nil, err
	}
	if base, err = flat.AsStrided(geo.baseShape, geo.baseStrides, 0); err != nil {
		return nil, nil, err
	}
	if g != nil {
		if err = base.CopyInplace(g); err != nil {
			return nil, nil, err
		}
	}
	return flat, base, nil
}

// asStridedScatter returns a gradient of the base's shape that holds g
// scattered (and summed where the view overlaps itself) at the view's
// positions.
func asStridedScatter(e *Engine, geo geometry, g *T) (*T, error) {
	flat, err := tensor.Zeros([]int{geo.baseNumel}, g.DType())
	if err != nil {
		return nil, err
	}
	acc := make([]float64, geo.baseNumel)
	v, err := flat.AsStrided(geo.size, geo.stride, geo.offset)
	if err != nil {
		return nil, err
	}
	vals := g.ToFloat64s()
	i := 0
	v.Offsets(func(off int) {
		acc[off] += vals[i]
		i++
	})
	out, err := tensor.FromFloat64s(acc, []int{geo.baseNumel}, g.DType())
	if err != nil {
		return nil, err
	}
	return out.AsStrided(geo.baseShape, geo.baseStrides, 0)
}

// asStridedGather is the forward of an AsStridedBackward0 node on a
// tangent u of the base's shape: the view's elements of u (a copy), the
// adjoint of asStridedScatter.
func asStridedGather(geo geometry, u *T) (*T, error) {
	flat, _, err := baseLayout(geo, u.DType(), u)
	if err != nil {
		return nil, err
	}
	v, err := flat.AsStrided(geo.size, geo.stride, geo.offset)
	if err != nil {
		return nil, err
	}
	return v.Clone(), nil
}

// copySlicesForward is the forward of a CopySlices node on tangents: base
// (the base's shape) with the view's region overwritten by src (the
// view's shape), the adjoint of copySlicesBackward.
func copySlicesForward(geo geometry, base, src *T) (*T, error) {
	flat, b, err := baseLayout(geo, base.DType(), base)
	if err != nil {
		return nil, err
	}
	region, err := flat.AsStrided(geo.size, geo.stride, geo.offset)
	if err != nil {
		return nil, err
	}
	if err := region.CopyInplace(src); err != nil {
		return nil, err
	}
	return b, nil
}

func copySlicesBackward(e *Engine, geo geometry, g *T) ([]*T, error) {
	gcv, _, err := baseLayout(geo, g.DType(), g)
	if err != nil {
		return nil, err
	}
	region, err := gcv.AsStrided(geo.size, geo.stride, geo.offset)
	if err != nil {
		return nil, err
	}
	gRes := region.Clone()
	gbv, gBase, err := baseLayout(geo, g.DType(), g)
	if err != nil {
		return nil, err
	}
	hole, err := gbv.AsStrided(geo.size, geo.stride, geo.offset)
	if err != nil {
		return nil, err
	}
	if err := hole.ZeroInplace(); err != nil {
		return nil, err
	}
	return []*T{gBase, gRes}, nil
}

// versionError reports a saved tensor modified in place after it was saved.
func versionError(n *Node, s savedTensor) error {
	desc := fmt.Sprintf("[%s %s]", s.t.DType(), fmtInts(s.t.Shape()))
	which := ""
	switch {
	case s.isOutput:
		which = fmt.Sprintf(", which is output %d of %s,", s.outNr, n.name)
	case s.producer != nil:
		which = fmt.Sprintf(", which is output %d of %s,", s.producerNr, s.producer.name)
	}
	return errorf("one of the variables needed for gradient computation has been modified by an inplace operation: %s%s is at version %d; expected version %d instead (saved by %s). Hint: the operation that failed to compute its gradient was %s; avoid the in-place update, or clone() the tensor before it.",
		desc, which, s.t.Version(), s.version, n.name, n.name)
}

func fmtInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// hasNaN reports whether a float tensor holds a NaN.
func hasNaN(t *T) bool {
	if t == nil || !t.DType().IsFloat() {
		return false
	}
	for _, v := range t.ToFloat64s() {
		if math.IsNaN(v) {
			return true
		}
	}
	return false
}
