package runtime_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/runtime"
)

// arr is a tensor-like value for the comparison fallback: it implements
// HasBinary (elementwise comparisons returning an arr of bools) and
// HasTruthE (only a one-element arr has a truth value) but not
// Comparable, like stdlib's tensors.
type arr struct{ xs []float64 }

func (a *arr) String() string {
	parts := make([]string, len(a.xs))
	for i, x := range a.xs {
		parts[i] = fmt.Sprint(x)
	}
	return "arr(" + strings.Join(parts, ",") + ")"
}
func (*arr) Type() string { return "arr" }
func (*arr) Truth() bool  { return true }
func (a *arr) Len() int   { return len(a.xs) }
func (a *arr) TruthE() (bool, error) {
	if len(a.xs) != 1 {
		return false, runtime.Errorf("RuntimeError", "truth value of an arr with %d elements is ambiguous", len(a.xs))
	}
	return a.xs[0] != 0, nil
}
func (a *arr) Binary(op runtime.Op, y runtime.Value, side runtime.Side) (runtime.Value, error) {
	var ys []float64
	if b, ok := y.(*arr); ok {
		ys = b.xs
	} else if f, ok := runtime.AsFloat(y); ok {
		ys = []float64{f}
	} else {
		return nil, nil
	}
	out := &arr{xs: make([]float64, len(a.xs))}
	for i, x := range a.xs {
		u, v := x, ys[0]
		if len(ys) > 1 {
			v = ys[i]
		}
		if side == runtime.Right {
			u, v = v, u
		}
		var r bool
		switch op {
		case runtime.EQL:
			r = u == v
		case runtime.NEQ:
			r = u != v
		case runtime.LT:
			r = u < v
		case runtime.LE:
			r = u <= v
		case runtime.GT:
			r = u > v
		case runtime.GE:
			r = u >= v
		default:
			return nil, nil
		}
		if r {
			out.xs[i] = 1
		}
	}
	return out, nil
}

// runWith compiles and runs src with extra globals, returning its output.
func runWith(t *testing.T, src string, env map[string]runtime.Value) (string, error) {
	t.Helper()
	prog, err := lang.Compile("s.tsr", src)
	if err != nil {
		t.Fatalf("compile %q: %v", src, err)
	}
	var out bytes.Buffer
	th := &runtime.Thread{Stdout: &out}
	if env == nil {
		env = map[string]runtime.Value{}
	}
	_, err = th.Exec(prog, env)
	return out.String(), err
}

func arrBuiltin() runtime.Value {
	return runtime.NewBuiltin("arr", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		a := &arr{}
		for _, x := range args {
			f, _ := runtime.AsFloat(x)
			a.xs = append(a.xs, f)
		}
		return a, nil
	})
}

func TestLanguageSemantics(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		// 1. self-referential containers print and compare like Python's
		{`l = [1]; l.append(l); print(l, str(l), repr(l), l == l, l in [l], [l] == [l])`,
			"[1, [...]] [1, [...]] [1, [...]] true true true"},
		{`d = {}; d["x"] = d; print(d, d == d)`, "{'x': {...}} true"},
		{`l = []; t = (l,); l.append(t); print(t, l, f"{l}")`, "([(...)],) [([...],)] [([...],)]"},
		{`a = [1, 2]; print([a, a], (a, a))`, "[[1, 2], [1, 2]] ([1, 2], [1, 2])"},
		{`l = []; T = (l, 1); l.append(T[:1]); print(T)`, "([([...],)], 1)"},
		// 2. the comparison fallback through HasBinary + truth
		{`print(max(1, arr(3)), max([arr(1), arr(3)]), min([arr(2), arr(1)]), min(arr(1), 2))`,
			"arr(3) arr(3) arr(1) arr(1)"},
		{`print(sorted([arr(2), arr(1), arr(3)]), sorted([arr(2), arr(1)], reverse=true))`,
			"[arr(1), arr(2), arr(3)] [arr(2), arr(1)]"},
		{`print(arr(2) in [1, 2], arr(5) in [1, 2], arr(2) in (arr(2),), 2 in [arr(2)])`, "true false true true"},
		{`print([arr(1)] == [arr(1)], [arr(1)] != [arr(2)], (1, arr(1)) < (1, arr(2)))`, "true true true"},
		{`x = arr(1, 2); print([x] == [x], [x].index(x), [x].count(x))`, "true 0 1"},
		{`print({"a": arr(1)} == {"a": arr(1)}, {"a": arr(1)} == {"a": arr(0)})`, "true false"},
		// 3. strings inside containers use Python's repr
		{`print(["a", "it's"], {"lr": 0.1}, ("x",))`, `['a', "it's"] {'lr': 0.1} ('x',)`},
		{`print(["q\"", "b'\"", "t\tn\nr\\"], repr("s"), str("s"))`, `['q"', 'b\'"', 't\tn\nr\\'] 's' s`},
		{`print([" ", "é", "\x01", "\u00a0", "\u200b"])`, `[' ', 'é', '\x01', '\xa0', '\u200b']`},
		{`try { {}["nope"] } catch e { print(e) }`, "KeyError: 'nope'"},
		// 4. a tail if/else (and try/catch) is the function's value
		{"fn fib(n) { if n < 2 { n } else { fib(n-1) + fib(n-2) } }\nprint(fib(15))", "610"},
		{"fn s(x) { if x < 0 { -1 } else if x == 0 { 0 } else { 1 } }\nprint(s(-3), s(0), s(9))", "-1 0 1"},
		{"fn f(c) { if c { 42 } }\nprint(f(true), f(false))", "42 none"},
		{"fn g(c) { if c { y = 1 } else { 2 } }\nprint(g(true), g(false))", "none 2"},
		{"fn r(c) { if c { return \"early\" } else { \"late\" } }\nprint(r(true), r(false))", "early late"},
		{"fn h(x) { try { 10 // x } catch e { e.kind } }\nprint(h(2), h(0))", "5 ZeroDivisionError"},
		{"fn e() { }\nfn w() { while false { } }\nprint(e(), w())", "none none"},
		{"fn n(a, b) { if a { if b { 1 } else { 2 } } else { 3 } }\nprint(n(true, true), n(true, false), n(false, false))", "1 2 3"},
		{"fn k(xs) { t = 0; for x in xs { if x > 2 { break }; t += x }; if t > 2 { t } else { -t } }\nprint(k([1, 2, 3]), k([1]))", "3 -1"},
		// 5. float literal overflow, bare assert, error() arity
		{`print(1e400, -1e400, 1e-400)`, "inf -inf 0.0"},
		{`try { assert false } catch e { print(e, "[" + e.message + "]") }`, "AssertionError []"},
		{`try { assert 1 > 2, "no" } catch e { print(e) }`, "AssertionError: no"},
		{`try { error("x") } catch e { print(e.kind) }`, "TypeError"},
		// 6. list.sort
		{`l = [3, 1, 2]; l.sort(); print(l); l.sort(reverse=true); print(l)`, "[1, 2, 3]\n[3, 2, 1]"},
		{`l = ["bb", "a", "cc", "d"]; l.sort(key=len); print(l); l.sort(key=len, reverse=true); print(l)`,
			"['a', 'd', 'bb', 'cc']\n['bb', 'cc', 'a', 'd']"},
		{`l = [(1, "b"), (0, "z"), (1, "a")]; print(l.sort(), l)`, "none [(0, 'z'), (1, 'a'), (1, 'b')]"},
		{`l = [arr(2), arr(1)]; l.sort(); print(l)`, "[arr(1), arr(2)]"},
		// 7. int64 overflow is an error; the edges are exact
		{`print(9223372036854775806 + 1, -9223372036854775807 - 1, 3037000499 * 3037000499, (-2) ** 63, 2 ** 62)`,
			"9223372036854775807 -9223372036854775808 9223372030926249001 -9223372036854775808 4611686018427387904"},
		{`print(-9223372036854775808, 0x7FFFFFFFFFFFFFFF, 1 ** 1000000000000, (-1) ** 1000000000001)`,
			"-9223372036854775808 9223372036854775807 1 -1"},
	} {
		got, err := runWith(t, tc.src, map[string]runtime.Value{"arr": arrBuiltin()})
		if err != nil {
			t.Errorf("%s\nerror: %v", tc.src, err)
			continue
		}
		if strings.TrimSpace(got) != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.src, strings.TrimSpace(got), tc.want)
		}
	}
}

func TestLanguageSemanticsErrors(t *testing.T) {
	deepA := "a = []\nfor i in range(3000) { a = [a] }\n"
	deepB := deepA + "b = []\nfor i in range(3000) { b = [b] }\n"
	for _, tc := range []struct{ src, kind, msg string }{
		{`a = [1]; a.append(a); b = [1]; b.append(b); a == b`, "RecursionError", "maximum recursion depth exceeded in comparison"},
		{`a = [1]; a.append(a); b = [1]; b.append(b); a < b`, "RecursionError", ""},
		{deepB + "a == b", "RecursionError", ""},
		{deepB + "a < b", "RecursionError", ""},
		{deepA + "print(a)", "RecursionError", "maximum recursion depth exceeded while getting the repr of an object"},
		{deepA + "str(a)", "RecursionError", ""},
		{deepA + `f"{a}"`, "RecursionError", ""},
		{"t = ()\nfor i in range(3000) { t = (t,) }\n{t: 1}", "RecursionError", ""},
		{`[arr(1, 2)] == [arr(1, 2)]`, "RuntimeError", ""},
		{`max([arr(1, 2), arr(0, 1)])`, "RuntimeError", ""},
		{`[1, "a"].sort()`, "TypeError", "'<' not supported between instances of 'str' and 'int'"},
		{`[2, 1].sort(len)`, "TypeError", "sort() takes no positional arguments"},
		{`assert false`, "AssertionError", ""},
		{`error("only kind")`, "TypeError", ""},
		{`10 ** 20`, "OverflowError", "int64 overflow"},
		{`9223372036854775807 + 1`, "OverflowError", "int64 overflow"},
		{`-9223372036854775807 - 2`, "OverflowError", "int64 overflow"},
		{`3037000500 * 3037000500`, "OverflowError", "int64 overflow"},
		{`-9223372036854775807 - 1 // -1`, "", ""}, // precedence: -9223372036854775807 - (1 // -1) is fine
		{`x = -9223372036854775807 - 1; x // -1`, "OverflowError", "int64 overflow"},
		{`x = -9223372036854775807 - 1; -x`, "OverflowError", "int64 overflow"},
		{`x = -9223372036854775807 - 1; abs(x)`, "OverflowError", "int64 overflow"},
		{`x = 9223372036854775807; x += 1`, "OverflowError", "int64 overflow"},
		{`x = -9223372036854775807; x -= 2`, "OverflowError", "int64 overflow"},
		{`x = 4611686018427387904; x *= 2`, "OverflowError", "int64 overflow"},
		{`sum([9223372036854775807, 1])`, "OverflowError", "int64 overflow"},
		{`int("99999999999999999999")`, "OverflowError", "int64 overflow"},
		{`0xFFFFFFFFFFFFFFFF`, "OverflowError", "int64 overflow"},
		{`9223372036854775808`, "OverflowError", "int64 overflow"},
		{`-9223372036854775809`, "OverflowError", "int64 overflow"},
	} {
		_, err := runWith(t, tc.src, map[string]runtime.Value{"arr": arrBuiltin()})
		if tc.kind == "" {
			if err != nil {
				t.Errorf("%s: unexpected error %v", tc.src, err)
			}
			continue
		}
		var e *runtime.EvalError
		if !errors.As(err, &e) || e.Kind != tc.kind || tc.msg != "" && e.Msg != tc.msg {
			t.Errorf("%s\n got %v\nwant %s: %s", tc.src, err, tc.kind, tc.msg)
		}
	}
}

// TestToplevelValue checks that the module body's value stays that of a
// final expression statement only: an if typed at the REPL echoes nothing.
func TestToplevelValue(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want runtime.Value
	}{
		{"1 + 2", runtime.MakeInt(3)},
		{"if true { 5 } else { 6 }", runtime.None},
		{"x = 1", runtime.None},
	} {
		prog, err := lang.Compile("top.tsr", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		v, err := (&runtime.Thread{}).Exec(prog, nil)
		if err != nil || v != tc.want {
			t.Errorf("%s: got %v, %v; want %v", tc.src, v, err, tc.want)
		}
	}
}

func TestBareAssertPrintsKindOnly(t *testing.T) {
	_, err := runWith(t, "assert false", nil)
	if err == nil || !strings.HasSuffix(err.Error(), "\nAssertionError") {
		t.Errorf("got %q, want a traceback ending in a bare AssertionError", err)
	}
}

func TestQuoteString(t *testing.T) {
	// Expected values are Python 3's repr() of the same strings.
	for _, tc := range []struct{ in, want string }{
		{"", "''"},
		{"a", "'a'"},
		{"it's", `"it's"`},
		{`say "hi"`, `'say "hi"'`},
		{`it's "x"`, `'it\'s "x"'`},
		{"a\\b", `'a\\b'`},
		{"\n\r\t", `'\n\r\t'`},
		{"\x00\x1f\x7f", `'\x00\x1f\x7f'`},
		{"\u00a0\u00e9\u0394", "'\\xa0é\u0394'"},
		{"\u2028\u200b\ufeff", `'\u2028\u200b\ufeff'`},
		{"\U0001F600\U000E0001", "'\U0001F600\\U000e0001'"},
		{"\xff", `'\xff'`}, // invalid UTF-8 byte
	} {
		if got := runtime.QuoteString(tc.in); got != tc.want {
			t.Errorf("QuoteString(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestIntOverflowHelpers(t *testing.T) {
	const maxI, minI = math.MaxInt64, math.MinInt64
	for _, tc := range []struct {
		a, b     int64
		add, sub bool // no overflow
		mul      bool
	}{
		{1, 2, true, true, true},
		{maxI, 1, false, true, true},
		{maxI, -1, true, false, true},
		{minI, -1, false, true, false},
		{minI, 1, true, false, true},
		{minI, 0, true, true, true},
		{-1, minI, false, true, false},
		{1 << 32, 1 << 31, true, true, false}, // 2**63
		{1 << 32, 1 << 31 * 2, true, true, false},
		{-(1 << 32), 1 << 31, true, true, true},
		{3037000499, 3037000499, true, true, true},
		{3037000500, -3037000500, true, true, false},
		{maxI, maxI, false, true, false},
		{minI, minI, false, true, false},
	} {
		if r, ok := runtime.AddInt64(tc.a, tc.b); ok != tc.add || ok && r != tc.a+tc.b {
			t.Errorf("AddInt64(%d, %d) = %d, %v", tc.a, tc.b, r, ok)
		}
		if r, ok := runtime.SubInt64(tc.a, tc.b); ok != tc.sub || ok && r != tc.a-tc.b {
			t.Errorf("SubInt64(%d, %d) = %d, %v", tc.a, tc.b, r, ok)
		}
		if r, ok := runtime.MulInt64(tc.a, tc.b); ok != tc.mul || ok && r != tc.a*tc.b {
			t.Errorf("MulInt64(%d, %d) = %d, %v", tc.a, tc.b, r, ok)
		}
	}
}
