package tsr_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/tsrlang/tsr"
)

// TestSDPAFusedMatchesRecorded: nn.scaled_dot_product_attention takes the
// fused kernel when no gradient is recorded and the op-by-op formula when
// one is; both must agree for every mask kind, and dropout_p works through
// the recorded path (p = 1 drops every weight).
func TestSDPAFusedMatchesRecorded(t *testing.T) {
	prog := `
manual_seed(3)
q, k, v = randn(2, 3, 7, 4), randn(2, 3, 9, 4), randn(2, 3, 9, 5)
bmask = rand(7, 9) > 0.3
bmask[:, 0] = true
fmask = randn(3, 1, 9)
fn both(m, causal) {
    fused = nn.scaled_dot_product_attention(q, k, v, attn_mask=m, is_causal=causal)
    qg = q.clone().requires_grad_()
    rec = nn.scaled_dot_product_attention(qg, k, v, attn_mask=m, is_causal=causal)
    assert rec.requires_grad, "recorded path"
    assert not fused.requires_grad, "fused path"
    assert fused.shape == rec.shape, "shape"
    assert fused.allclose(rec.detach(), rtol=1e-5, atol=1e-6), "fused != recorded"
}
both(none, false)
both(none, true)
both(bmask, false)
both(fmask, false)
no_grad {
    z = nn.scaled_dot_product_attention(q, k, v, dropout_p=1.0)
    assert (z == 0).all(), "dropout_p=1 drops everything"
}
qg = q.clone().requires_grad_()
gq = grad(qg) {
    nn.scaled_dot_product_attention(qg, k, v, dropout_p=0.5).sum()
}
assert gq.shape == q.shape and gq.abs().sum() > 0, "grad through dropout"
# both paths validate alike: the same error whether or not grad is recorded
fn err(f) {
    try { f(); "no error" } catch e { str(e) }
}
bad = [
    fn(x) { nn.scaled_dot_product_attention(x, k, v, attn_mask=ones(4, 7, 9, dtype=bool)) },
    fn(x) { nn.scaled_dot_product_attention(x, k, v, attn_mask=ones(7, 9, dtype=i64)) },
    fn(x) { nn.scaled_dot_product_attention(x, k.double(), v) },
    fn(x) { nn.scaled_dot_product_attention(x, k[..., :3], v) },
]
for f in bad {
    plain = err(fn() { f(q) })
    recorded = err(fn() { f(q.clone().requires_grad_()) })
    assert plain != "no error" and plain == recorded, f"{plain} vs {recorded}"
}
# E == 0: zero scores on both paths (the mean of v's rows)
qz, kz = zeros(2, 5, 0), zeros(2, 9, 0)
vz = randn(2, 9, 3)
a = nn.scaled_dot_product_attention(qz, kz, vz)
b = nn.scaled_dot_product_attention(qz.clone().requires_grad_(), kz, vz)
assert a.allclose(vz.mean(1, keepdim=true).expand(2, 5, 3)) and a.allclose(b.detach()), "E == 0"
print("ok")
`
	var out bytes.Buffer
	in := tsr.New(tsr.Options{Stdout: &out})
	if _, err := in.Eval(context.Background(), "sdpa.tsr", prog); err != nil {
		t.Fatal(err)
	}
	if out.String() != "ok\n" {
		t.Fatalf("output %q", out.String())
	}
}
