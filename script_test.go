package tsr_test

import (
	"context"
	"math"
	"testing"

	"github.com/tsrlang/tsr"
)

// EvalScript runs the seed's attention loop fused at top level: the same
// output bits as Eval (which runs it as written), and the intermediate
// globals never assigned.
func TestEvalScriptAttention(t *testing.T) {
	src := `manual_seed(4)
Q = randn(2, 3, 40, 16)
K = randn(2, 3, 50, 16)
V = randn(2, 3, 50, 8)
d_k = 16
for i in range(2) {
    scores = ein"bhid,bhjd->bhij"(Q, K) * (d_k ** -0.5)
    probs = softmax(scores, dim=-1)
    out = ein"bhij,bhjd->bhid"(probs, V)
}
`
	ctx := context.Background()
	plain, script := tsr.New(tsr.Options{}), tsr.New(tsr.Options{})
	if _, err := plain.Eval(ctx, "a.tsr", src); err != nil {
		t.Fatal(err)
	}
	if _, err := script.EvalScript(ctx, "a.tsr", src); err != nil {
		t.Fatal(err)
	}
	want, err := plain.GlobalTensor("out")
	if err != nil {
		t.Fatal(err)
	}
	got, err := script.GlobalTensor("out")
	if err != nil {
		t.Fatal(err)
	}
	w, g := want.ToFloat64s(), got.ToFloat64s()
	for i := range w {
		if math.Float64bits(w[i]) != math.Float64bits(g[i]) {
			t.Fatalf("element %d: script %v, eval %v", i, g[i], w[i])
		}
	}
	if _, ok := plain.Global("probs"); !ok {
		t.Error("Eval: probs not assigned")
	}
	if _, ok := script.Global("probs"); ok {
		t.Error("EvalScript: probs assigned, so the loop ran unfused")
	}
}
