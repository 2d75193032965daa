package bench

import (
	"context"
	"math"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/tensor"
)

// Scaled dot-product attention, B=16 H=8 S=512 D=64 in f32 (the seed
// chapter's benchmark), written with the tensor package the way tsr code
// does it: scores = q @ k.transpose(-2, -1) (a strided view, no copy, fed
// to the batched GEMM), times 1/sqrt(D), softmax over the last dim, then
// p @ v. bench/attention.sh compares it with PyTorch's einsum version
// (bench/attention.py).

const (
	attB, attH, attS, attD = 16, 8, 512, 64
)

// attention returns softmax(q kᵀ / sqrt(D)) v for [B, H, S, D] operands.
func attention(q, k, v *tensor.Tensor) (*tensor.Tensor, error) {
	kt, err := k.Transpose(-2, -1)
	if err != nil {
		return nil, err
	}
	s, err := tensor.Matmul(q, kt)
	if err != nil {
		return nil, err
	}
	d := q.Shape()[q.Dim()-1]
	if err := s.MulInplace(tensor.ScalarFloat(1 / math.Sqrt(float64(d)))); err != nil {
		return nil, err
	}
	p, err := tensor.Softmax(s, -1)
	if err != nil {
		return nil, err
	}
	s.Release()
	out, err := tensor.Matmul(p, v)
	p.Release()
	return out, err
}

// attentionInputs returns q, k, v: [B, H, S, D] f32 standard normals.
func attentionInputs() (q, k, v *tensor.Tensor) {
	g := tensor.NewGenerator(2)
	shape := []int{attB, attH, attS, attD}
	q, _ = tensor.Randn(g, shape, tensor.F32)
	k, _ = tensor.Randn(g, shape, tensor.F32)
	v, _ = tensor.Randn(g, shape, tensor.F32)
	return q, k, v
}

func BenchmarkAttentionF32(b *testing.B) {
	q, k, v := attentionInputs()
	loopMedian(b, func() error {
		out, err := attention(q, k, v)
		if err == nil {
			out.Release()
		}
		return err
	})
}

// BenchmarkSDPAF32 is the same attention through the fused kernel
// (tensor.ScaledDotProductAttention, what nn.scaled_dot_product_attention
// runs when no gradient is recorded); "causal" adds is_causal.
func BenchmarkSDPAF32(b *testing.B) {
	q, k, v := attentionInputs()
	scale := 1 / math.Sqrt(attD)
	for _, causal := range []bool{false, true} {
		name := "full"
		if causal {
			name = "causal"
		}
		b.Run(name, func(b *testing.B) {
			loopMedian(b, func() error {
				out, err := tensor.ScaledDotProductAttention(q, k, v, nil, causal, scale)
				if err == nil {
					out.Release()
				}
				return err
			})
		})
	}
}

// attentionTSR is the seed's benchmark_einsum_attention loop body written
// in tsr, the way its PyTorch version reads.
const attentionTSR = `
d_k = 64
fn attention(q, k, v) {
    scores = ein"bhid,bhjd->bhij"(q, k) * (d_k ** -0.5)
    probs = softmax(scores, dim=-1)
    return ein"bhij,bhjd->bhid"(probs, v)
}
`

// BenchmarkAttentionTSR runs attentionTSR through the interpreter (parse
// once, then one call per iteration): the seed's "einsum + softmax +
// einsum" as a tsr user writes it. scores and probs are locals read by
// nothing else, so the compiler runs the three statements as its
// attention idiom (lang/attn.go: fused per head and block of queries, the
// same values bit for bit). bench/attention.py times PyTorch's einsum
// version under the same name.
func BenchmarkAttentionTSR(b *testing.B) {
	q, k, v := attentionInputs()
	in := tsr.New(tsr.Options{})
	ctx := context.Background()
	if _, err := in.Eval(ctx, "attention.tsr", attentionTSR); err != nil {
		b.Fatal(err)
	}
	call := func() error {
		_, err := in.Call(ctx, "attention", q, k, v)
		return err
	}
	// Warm up as PyTorch's side does (bench in elementwise.py): the first
	// calls fault in fresh memory until dropped temporaries are recycled.
	for range 3 {
		if err := call(); err != nil {
			b.Fatal(err)
		}
	}
	loopMedian(b, call)
}

// attentionGlobals is the seed's loop body as top-level statements:
// scores and probs are globals, readable after the loop, so every
// operation runs as written (two [B, H, S, S] tensors materialised).
const attentionGlobals = `
scores = ein"bhid,bhjd->bhij"(q, k) * (d_k ** -0.5)
probs = softmax(scores, dim=-1)
out = ein"bhij,bhjd->bhid"(probs, v)
`

// BenchmarkAttentionTSRGlobals runs attentionGlobals with Eval (parsed and
// compiled on every iteration, a few microseconds), as a host or the REPL
// runs code whose globals it may read afterwards: unfused.
// BenchmarkAttentionTSRScript runs the same source as `tsr run` runs a
// file (EvalScript: scores and probs are dead globals, so the three
// statements run as the attention idiom).
func BenchmarkAttentionTSRGlobals(b *testing.B) { benchAttentionGlobals(b, false) }

func BenchmarkAttentionTSRScript(b *testing.B) { benchAttentionGlobals(b, true) }

func benchAttentionGlobals(b *testing.B, script bool) {
	q, k, v := attentionInputs()
	in := tsr.New(tsr.Options{})
	ctx := context.Background()
	for name, x := range map[string]any{"q": q, "k": k, "v": v, "d_k": attD} {
		if err := in.SetGlobal(name, x); err != nil {
			b.Fatal(err)
		}
	}
	eval := in.Eval
	if script {
		eval = in.EvalScript
	}
	call := func() error {
		_, err := eval(ctx, "seed.tsr", attentionGlobals)
		return err
	}
	for range 3 {
		if err := call(); err != nil {
			b.Fatal(err)
		}
	}
	loopMedian(b, call)
}
