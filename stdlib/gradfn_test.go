package stdlib_test

import (
	"encoding/json"
	"os"
	"testing"
)

// TestGradFnNames checks that grad_fn prints PyTorch's node names
// (testdata/gradfn_golden.json, from PyTorch 1.13 by
// testdata/gen_gradfn.py): print(loss) must match PyTorch's output.
func TestGradFnNames(t *testing.T) {
	data, err := os.ReadFile("testdata/gradfn_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases []struct{ Tsr, Name string } `json:"cases"`
	}
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) < 70 {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	const setup = `
x = randn(3, 4, requires_grad=true)
v = randn(4, requires_grad=true)
b3 = randn(2, 3, 4, requires_grad=true)
sq0 = randn(3, 3)
sq = sq0.clone().requires_grad_()
spd = (sq0 @ sq0.t() + 3 * eye(3)).requires_grad_()
w = randn(2, 4, requires_grad=true)
bias = randn(2, requires_grad=true)
`
	for _, c := range golden.Cases {
		in, err := runTsr(t, setup+"r = "+c.Tsr+"\ns = str(r)\n")
		if err != nil {
			t.Errorf("%s: %v", c.Tsr, err)
			continue
		}
		var s string
		if err := in.GlobalTo("s", &s); err != nil {
			t.Fatal(err)
		}
		want := "grad_fn=<" + c.Name + ">)"
		if len(s) < len(want) || s[len(s)-len(want):] != want {
			t.Errorf("%s: prints %q, want ...%s", c.Tsr, s, want)
		}
	}
}
