package stdlib_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
)

// Regression tests for confirmed bugs: each program's printed output is
// what PyTorch 1.13 prints for the same program (or, where torch itself
// overflows, what Python's slice/range arithmetic gives).

// runPrint runs src and returns its printed output; an uncaught error
// fails the test.
func runPrint(t *testing.T, src string) string {
	t.Helper()
	var out strings.Builder
	in := tsr.New(tsr.Options{MaxSteps: 1 << 24, Stdout: &out})
	if _, err := in.Eval(context.Background(), "test.tsr", src); err != nil {
		t.Fatalf("%s\nerror: %v\noutput so far:\n%s", src, err, out.String())
	}
	return out.String()
}

type printCase struct{ src, want string }

func checkPrints(t *testing.T, cases []printCase) {
	t.Helper()
	for _, c := range cases {
		got := strings.TrimSpace(runPrint(t, c.src))
		if got != strings.TrimSpace(c.want) {
			t.Errorf("%s\ngot:\n%s\nwant:\n%s", c.src, got, c.want)
		}
	}
}

// catchOf wraps a statement so that its error kind and message print.
func catchOf(stmt string) string {
	return "try { " + stmt + " } catch e { print(e.kind + \": \" + e.message) }"
}

func TestZeroDimMovedimRollUnbind(t *testing.T) {
	const noDims = "IndexError: Dimension specified as 0 but tensor has no dimensions"
	checkPrints(t, []printCase{
		{"x = tensor(2.5)\nprint(x.movedim(0, 0))", "tensor(2.5000)"},
		{"x = tensor(2.5)\nprint(x.movedim(-1, -1))", "tensor(2.5000)"},
		{"x = tensor(2.5)\nprint(x.movedim([0], [0]))", "tensor(2.5000)"},
		{"x = tensor(2.5)\nprint(x.moveaxis(0, 0), moveaxis(x, -1, -1), movedim(x, [-1], [0]))", "tensor(2.5000) tensor(2.5000) tensor(2.5000)"},
		{"x = tensor(2.5)\n" + catchOf("x.movedim(1, 0)"), "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
		{"x = tensor(2.5)\n" + catchOf("x.roll(0, 0)"), noDims},
		{"x = tensor(2.5)\n" + catchOf("x.roll(1, 0)"), noDims},
		{"x = tensor(2.5)\n" + catchOf("roll(x, [0], [0])"), noDims},
		{"x = tensor(2.5)\nprint(x.roll(1))", "tensor(2.5000)"},
		{"x = tensor(2.5)\n" + catchOf("x.unbind()"), noDims},
		{"x = tensor(2.5)\n" + catchOf("x.unbind(0)"), noDims},
		{"x = tensor(2.5)\n" + catchOf("x.unbind(-1)"), "IndexError: Dimension specified as -1 but tensor has no dimensions"},
		{"x = tensor(2.5)\n" + catchOf("unbind(x, dim=0)"), noDims},
	})
}

func TestHugeSizesDoNotPanic(t *testing.T) {
	const big = "9223372036854775807"
	checkPrints(t, []printCase{
		{catchOf("eye(" + big + ")"), "RuntimeError: numel: integer multiplication overflow: the shape [" + big + ", " + big + "] has more elements than an int64 can count"},
		{catchOf("eye(3, -2)"), "RuntimeError: m must be greater or equal to 0, got -2"},
		{"try { randperm(" + big + ") } catch e { print(e.kind) }", "MemoryError"},
		{"try { arange(6).repeat_interleave(" + big + ") } catch e { print(e.kind) }", "MemoryError"},
		{"try { arange(6).narrow(0, 1, " + big + ") } catch e { print(e.kind, e.message) }", "RuntimeError start (1) + length (" + big + ") exceeds dimension size (6)."},
		// exact element count where end-start overflows int64
		{"print(arange(-" + big + ", " + big + ", 4611686018427387904).shape)", "[4]"},
		{"print(arange(6).chunk(" + big + "))", "(tensor([0]), tensor([1]), tensor([2]), tensor([3]), tensor([4]), tensor([5]))"},
		{"print(arange(6).unfold(0, 2, " + big + ").shape)", "[1, 2]"},
	})
}

func TestSliceHugeStep(t *testing.T) {
	// Python: len(range(6)[::2**63-1]) == 1, len(range(6)[1::2**63-2]) == 1.
	checkPrints(t, []printCase{
		{"x = arange(6)\nprint(x[::9223372036854775807].shape, x[1::9223372036854775806].shape)", "[1] [1]"},
		{"x = arange(6)\nprint(x[::2][::9223372036854775807].shape)", "[1]"},
		{"x = arange(6)\nx[::9223372036854775807] = 7\nprint(x)", "tensor([7, 1, 2, 3, 4, 5])"},
		{"x = arange(6)\nx[1::9223372036854775806] = 7\nprint(x)", "tensor([0, 7, 2, 3, 4, 5])"},
		{"x = arange(12).reshape(3, 4)\nprint(x[::9223372036854775807, 1::9223372036854775806])", "tensor([[1]])"},
		{"x = arange(6)\nprint(x[1:5:2], x[-9223372036854775807:9223372036854775807:4])", "tensor([1, 3]) tensor([0, 4])"},
	})
}

func TestIndexPutValueLeadingOnes(t *testing.T) {
	// torch 1.13: x[[0]] = tensor([[[1., 2., 3.]]]) and the bool-mask form
	// drop the value's leading 1s.
	checkPrints(t, []printCase{
		{"x = zeros(2, 3)\nx[[0]] = tensor([[[1.0, 2.0, 3.0]]])\nprint(x.tolist())", "[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]"},
		{"x = zeros(2, 3)\nx[tensor([false, true])] = tensor([[[1.0, 2.0, 3.0]]])\nprint(x.tolist())", "[[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]"},
	})
}
