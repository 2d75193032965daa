package bench

import (
	"context"
	"io"
	"testing"

	"github.com/tsrlang/tsr"
)

// BenchmarkNNFused runs the layer_norm and cross_entropy training steps of
// bench/opsweep/nn.tsr through the interpreter, for profiling
// (go test -bench NNFused -cpuprofile).
func BenchmarkNNFused(b *testing.B) {
	setup := `
xg = randn(1000, 1000, requires_grad=true)
w = randn(1000, requires_grad=true)
bb = randn(1000, requires_grad=true)
g = randn(1000, 1000)
lg = randn(512, 1000, requires_grad=true)
tgt = randint(0, 1000, [512])
`
	for _, c := range []struct{ name, src string }{
		{"ln_train", "y = nn.layer_norm(xg, [1000], w, bb); y.backward(g)"},
		{"ln_fwd", "y = nn.layer_norm(xg.detach(), [1000])"},
		{"ce_train512", "l = nn.cross_entropy(lg, tgt); l.backward()"},
		{"ce_fwd512", "l = nn.cross_entropy(lg.detach(), tgt)"},
		{"ce_fwd100", "l = nn.cross_entropy(lg.detach()[:100], tgt[:100])"},
	} {
		b.Run(c.name, func(b *testing.B) {
			in := tsr.New(tsr.Options{Stdout: io.Discard})
			ctx := context.Background()
			p0, err := tsr.CompileScript("setup.tsr", setup)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := in.Run(ctx, p0); err != nil {
				b.Fatal(err)
			}
			p, err := tsr.CompileScript(c.name+".tsr", c.src)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := in.Run(ctx, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
