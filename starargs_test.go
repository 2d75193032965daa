package tsr_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
)

// TestStarArgsTensors checks *args and **kwargs into tensor functions and
// methods, % formatting of 0-d tensors (torch 1.13's results: "%.3f" %
// torch.tensor(1.5) is "1.500", "%d" % torch.tensor(3.7) is "3"), and that
// a star call's result fed to an operator is never taken as a temporary:
// the tensor it returns is also a global, which must keep its values.
func TestStarArgsTensors(t *testing.T) {
	src := `shape = [2, 3]
x = arange(6).view(*shape)
print(zeros(*shape).shape, x.permute(*[1, 0]).shape, x.view(*[3, 2]).stride(), ones(*shape, dtype=f64).dtype)
opts = {"dim": 1, "keepdim": true}
print(x.sum(**opts).shape, x.transpose(*(0, 1)).shape, full(*[[2], 7]))
print("%.3f" % tensor(1.5), "%d" % tensor(7), "%d" % tensor(3.7), "%5.1f|" % tensor(2.25, dtype=f64), tensor([7, 8]) % 3)
t = ones(3) * 1
g = ones(3)
fn first(*a) { a[0] }
y = first(*[g]) * 2
z = first(g) + first(*[g], **{}) * 3
print(g, y, z)
`
	var out strings.Builder
	rt := tsr.New(tsr.Options{Stdout: &out})
	if _, err := rt.Eval(context.Background(), "s.tsr", src); err != nil {
		t.Fatal(err)
	}
	want := `[2, 3] [3, 2] (2, 1) f64
[2, 1] [3, 2] tensor([7, 7])
1.500 7 3   2.2| tensor([1, 2])
tensor([1., 1., 1.]) tensor([2., 2., 2.]) tensor([4., 4., 4.])
`
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}
