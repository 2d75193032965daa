package lang_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/lang"
)

// A lending method's receiver keeps its claim (runtime.Recyclable), so the
// method must never return the receiver, a tensor over the receiver's
// storage, or a named tuple holding one, whatever the dtype: the claimed
// variable's buffer would be recycled under the result.
func TestLendingMethods(t *testing.T) {
	args := map[string]string{
		"softmax": "0", "log_softmax": "0", "logsumexp": "0",
		"dot": "v", "matmul": "v",
	}
	receivers := map[string]string{
		"f32": "arange(6, dtype=f32) - 2.5", "f64": "arange(6, dtype=f64) - 2.5",
		"i64": "arange(6) - 2", "bool": "arange(6) > 2", "u8": "arange(6, dtype=u8)",
	}
	var names []string
	for name := range lang.LendingMethods {
		names = append(names, name)
	}
	sort.Strings(names)
	checked := map[string]bool{}
	for _, name := range names {
		for dt, recv := range receivers {
			calls := []string{"w." + name + "(" + args[name] + ")"}
			switch name {
			case "sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "std", "var", "prod", "all", "any", "norm", "softmax", "log_softmax", "logsumexp":
				calls = append(calls, "w.reshape(2, 3)."+name+"(1)")
			}
			for _, call := range calls {
				src := fmt.Sprintf(`w = %s
v = w.clone()
fn check(r) {
    if type(r) == "tensor" { return r is w or shares_memory(r, w) }
    if type(r) == "tuple" or type(r) == "list" {
        for e in r { if check(e) { return true } }
    }
    return false
}
r = none
try { r = %s } catch e { r = none }
print(check(r))`, recv, call)
				var out strings.Builder
				in := tsr.New(tsr.Options{Stdout: &out})
				if _, err := in.Eval(context.Background(), "lend.tsr", src); err != nil {
					t.Fatalf("%s on %s: %v", call, dt, err)
				}
				if got := strings.TrimSpace(out.String()); got != "false" {
					t.Errorf("%s on %s (%s) returns the receiver or a view of it", call, dt, recv)
				}
				checked[name] = true
			}
		}
	}
	if len(checked) != len(names) {
		t.Errorf("checked %d of %d lending methods", len(checked), len(names))
	}
}
