package runtime_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tsrlang/tsr/runtime"
)

// TestPythonCompat checks scalar, string and container behaviour that the
// spec says follows Python. Every expected string is CPython 3.11's output
// for the same program (True/False/None spelled true/false/none).
func TestPythonCompat(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		// float // and % follow CPython's float_divmod (sign of zero, 1 // 0.1)
		{`print(1 // 0.1, 1 % 0.1, -0.0 % 5, 5 % -0.5, 7 // 0.5, -1e-300 // 1e300, -7 // 2.0, 7.0 // -2, -0.0 // 1)`,
			"9.0 0.09999999999999995 0.0 -0.0 14.0 -1.0 -4.0 -4.0 -0.0"},
		{`print(-7.5 % 2, 7.5 % -2, 0.0 // -3, 0.0 % -3, 5.0 % 5, -5.0 % 5, 3 % -1.5, 1e308 // 1e-308)`,
			"0.5 -0.5 -0.0 -0.0 0.0 0.0 -0.0 inf"},
		// str.rsplit
		{`print("a b  c ".rsplit(none, 1), "  a b c".rsplit(none, 5), "a,b,c".rsplit(",", 0), "a,,b".rsplit(","), "x".rsplit(",", 2), "aaa".rsplit("a", 2))`,
			"['a b', 'c'] ['a', 'b', 'c'] ['a,b,c'] ['a', '', 'b'] ['x'] ['a', '', '']"},
		{`print("   ".rsplit(none, 1), "".rsplit(","), "a-b-c".rsplit("-", maxsplit=1), "  a b ".rsplit(none, 0))`,
			"[] [''] ['a-b', 'c'] ['  a b']"},
		// a for loop over a list sees appends and removals (CPython's list iterator)
		{"q = [1]\nfor x in q { if x < 20 { q.append(x * 2); q.append(x * 3) } }\nprint(q)",
			"[1, 2, 3, 4, 6, 6, 9, 8, 12, 12, 18, 12, 18, 18, 27, 16, 24, 24, 36, 24, 36, 36, 54, 24, 36, 36, 54, 36, 54, 32, 48]"},
		{"r = [1, 2, 3, 4]\nfor x in r { r.remove(x) }\nprint(r)", "[2, 4]"},
		// a dict's values may change during iteration, its keys may not
		{"d = {\"a\": 1, \"b\": 2}\nfor k in d { d[k] = d[k] * 10 }\nfor k, v in d.items() { d[k] = v + 1 }\nprint(d)",
			"{'a': 11, 'b': 21}"},
		{"d = {1: 1, 2: 2, 3: 3}\nd.pop(2)\nfor k in d { print(k) }", "1\n3"},
		{"fn f(d) { try { for k in d { print(k); if k == \"a\" { d.pop(\"c\"); d[\"z\"] = 9 } } } catch e { print(e.kind, e.message) } }\nf({\"a\": 1, \"b\": 2, \"c\": 3})",
			"a\nb\nz"},
		{"fn f(d) { try { for k in d { print(k); d.pop(k); d[k + \"x\"] = 0 } } catch e { print(e.kind, e.message) } }\nf({\"a\": 1, \"b\": 2})",
			"a\nb\nRuntimeError dictionary keys changed during iteration"},
		// int(s, base) (CPython: 255 31 5 15 5 35 0 -16 1 31)
		{`print(int("ff", 16), int("0x1f", 16), int("0b101", 0), int("0o17", 0), int("101", 2), int("z", 36), int("0_0", 0), int("-0x10", 0), int("+0b1", 0), int("0x_1f", base=16))`,
			"255 31 5 15 5 35 0 -16 1 31"},
		{`print(int("-9223372036854775808", 10), int("  12  "), int("1_000"))`, "-9223372036854775808 12 1000"},
		// type(x) == int / str / list ... (CPython: True for each, False for the last)
		{`print(type(1) == int, type(1.5) == float, type("a") == str, type([]) == list, type(true) == bool, type({}) == dict, type(()) == tuple, int == type(2), type(1) in [float, int], type(1) == float)`,
			"true true true true true true true true true false"},
		// str.find/index/count/startswith take start and end (code points)
		{`s = "héllo wörld"; print(s.find("l", 3), s.find("l", 3, 4), s.find("", 11), s.find("", 12), s.find("", 5, 2), s.find("o", -5), s.rfind("l", 0, 4), s.count("", 2, 5), s.count("", 12), s.index("w", none, 8), s.find("ö", -4))`,
			"3 3 11 -1 -1 -1 3 4 0 6 7"},
		{`s = "héllo wörld"; print(s.startswith("w", 6), s.startswith("", 11), s.startswith("", 12), s.endswith("ll", 0, 4), s.endswith(("x", "é"), 0, 2), "abcabc".count("abc", 1))`,
			"true true false true true 1"},
		// a bool repeats a sequence as an int
		{`print("abc" * true, false * [1], (1,) * true)`, "abc [] (1,)"},
		// str.format: conversions, nested specs, [key] and .attr lookups
		{`print("|{0:{w}.{p}f}|{0!r:>6}|{0!s}".format(3.14159, w=8, p=2), "{0[1]}{0[0]}{d[k]}".format([5, 6], d={"k": 7}), "{t[0]:.1f}".format(t=(2.25,)), "{!r}".format([1, "a"]))`,
			"|    3.14|3.14159|3.14159 657 2.2 [1, 'a']"},
		// list.index / tuple.index with start and stop; extended slice assignment
		{`a = [1, 2, 3, 2, 1]; print(a.index(2, 2), a.index(1, -1), a.index(3, -10, 10), (1, 2, 1).index(1, 1))`, "3 4 2 2"},
		{`c = [0, 1, 2, 3, 4, 5]; c[::2] = [9, 9, 9]; print(c); c[::-1] = c; print(c); c[4:0:-2] = "ab"; print(c)`,
			"[9, 1, 9, 3, 9, 5]\n[5, 9, 3, 9, 1, 9]\n[5, 9, 'b', 9, 'a', 9]"},
	} {
		got, err := runWith(t, tc.src, nil)
		if err != nil {
			t.Errorf("%s\nerror: %v", tc.src, err)
			continue
		}
		if strings.TrimSpace(got) != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.src, strings.TrimSpace(got), tc.want)
		}
	}
}

// TestPythonCompatErrors checks error kinds and CPython 3.11's messages.
func TestPythonCompatErrors(t *testing.T) {
	for _, tc := range []struct{ src, kind, msg string }{
		{`1 % 0`, "ZeroDivisionError", "integer modulo by zero"},
		{`1 // 0`, "ZeroDivisionError", "integer division or modulo by zero"},
		{`0 ** -1`, "ZeroDivisionError", "0.0 cannot be raised to a negative power"},
		{`1.5 // 0.0`, "ZeroDivisionError", "float floor division by zero"},
		{`"a" + 1`, "TypeError", `can only concatenate str (not "int") to str`},
		{`[1] + (1,)`, "TypeError", `can only concatenate list (not "tuple") to list`},
		{`(1,) + [1]`, "TypeError", `can only concatenate tuple (not "list") to tuple`},
		{`"a" * "b"`, "TypeError", "can't multiply sequence by non-int of type 'str'"},
		{`1.5 * [1]`, "TypeError", "can't multiply sequence by non-int of type 'float'"},
		{`1 + "a"`, "TypeError", "unsupported operand type(s) for +: 'int' and 'str'"},
		{`int("017", 0)`, "ValueError", "invalid literal for int() with base 0: '017'"},
		{`int("1__0")`, "ValueError", "invalid literal for int() with base 10: '1__0'"},
		{`int("0x", 16)`, "ValueError", "invalid literal for int() with base 16: '0x'"},
		{`int("9", 8)`, "ValueError", "invalid literal for int() with base 8: '9'"},
		{`int("12", 1)`, "ValueError", "int() base must be >= 2 and <= 36, or 0"},
		{`int(12, 10)`, "TypeError", "int() can't convert non-string with explicit base"},
		{`int("9223372036854775808")`, "OverflowError", "int64 overflow"},
		// call arity messages (CPython 3.11's, for def f(): ... and def g(a, b, c, d=1): ...)
		{"fn f() { 0 }\nf(1)", "TypeError", "f() takes 0 positional arguments but 1 was given"},
		{"fn g(a, b, c, d=1) { 0 }\ng()", "TypeError", "g() missing 3 required positional arguments: 'a', 'b', and 'c'"},
		{"fn g(a, b, c, d=1) { 0 }\ng(1)", "TypeError", "g() missing 2 required positional arguments: 'b' and 'c'"},
		{"fn g(a, b, c, d=1) { 0 }\ng(1, 2, 3, 4, 5)", "TypeError", "g() takes from 3 to 4 positional arguments but 5 were given"},
		{"fn g(a, b, c, d=1) { 0 }\ng(1, c=2)", "TypeError", "g() missing 1 required positional argument: 'b'"},
		{"fn h(a, b) { 0 }\nh(1, 2, 3)", "TypeError", "h() takes 2 positional arguments but 3 were given"},
		{`"{0}{}".format(1, 2)`, "ValueError", "cannot switch from manual field specification to automatic field numbering"},
		{`"{}{}".format(1)`, "IndexError", "Replacement index 1 out of range for positional args tuple"},
		{`"{!x}".format(1)`, "ValueError", "Unknown conversion specifier x"},
		{`"{".format()`, "ValueError", "Single '{' encountered in format string"},
		{`[1, 2, 1].index(1, 1, 2)`, "ValueError", "1 is not in list"},
		{`(1, 2).index(1, 1)`, "ValueError", "tuple.index(x): x not in tuple"},
		{`c = [1, 2, 3]; c[::2] = [1]`, "ValueError", "attempt to assign sequence of size 1 to extended slice of size 2"},
		{`d = {"a": 1}; for k in d { d["b"] = 2 }`, "RuntimeError", "dictionary changed size during iteration"},
		{`d = {"a": 1, "b": 2}; for k in d { d.pop(k) }`, "RuntimeError", "dictionary changed size during iteration"},
		{`d = {1: 1, 2: 2}; for k in d { d.clear() }`, "RuntimeError", "dictionary changed size during iteration"},
	} {
		_, err := runWith(t, tc.src, nil)
		var e *runtime.EvalError
		if err == nil || !errors.As(err, &e) {
			t.Errorf("%s: got %v, want %s", tc.src, err, tc.kind)
			continue
		}
		if e.Kind != tc.kind || e.Msg != tc.msg {
			t.Errorf("%s: got %s: %s, want %s: %s", tc.src, e.Kind, e.Msg, tc.kind, tc.msg)
		}
	}
}
