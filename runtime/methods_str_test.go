package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
)

// Python's str methods index/rfind/rindex, the is* predicates,
// title/capitalize/swapcase, zfill/ljust/rjust/center, splitlines,
// partition/rpartition, removeprefix/removesuffix and the tuple methods
// index/count: each want is what Python 3 prints.
func TestMoreStrAndTupleMethods(t *testing.T) {
	cases := []struct{ src, want string }{
		{`s = "Hello, World"; print(s.index("W"), s.rfind("o"), s.rindex("l"), s.rfind("zz"), "héllo".index("l"))`, "7 8 10 -1 2"},
		{`print("x".center(5, "*"), "ab".center(5) + "|", "abc".center(6, "-"), "3".zfill(4), "-3".zfill(4), "ab".ljust(4) + "|", "ab".rjust(4), "abcdef".ljust(2))`, "**x**   ab | -abc-- 0003 -003 ab  |   ab abcdef"},
		{`print("a1".isdigit(), "12".isdigit(), "".isdigit(), "ab".isalpha(), "a b".isalpha(), "a1".isalnum(), "  ".isspace(), "AB1".isupper(), "ab".islower(), "Ab".isupper())`, "false true false true false true true true true false"},
		{`print("hello wORLD it's".title(), "hELLO wORLD".capitalize(), "AbC".swapcase())`, "Hello World It'S Hello world aBc"},
		{`print("a\nb\r\nc\n".splitlines(), "".splitlines(), "a=b=c".partition("="), "a=b=c".rpartition("="), "abc".partition("x"))`, "['a', 'b', 'c'] [] ('a', '=', 'b=c') ('a=b', '=', 'c') ('abc', '', '')"},
		{`print("prefix_x".removeprefix("prefix_"), "x.tsr".removesuffix(".tsr"), (1, 2, 3, 2).index(2), (1, 2, 3, 2).count(2), (1, [2]).index([2]))`, "x x 1 2 1"},
		{`try { "abc".index("z") } catch e { print(e.kind, e.message) }`, "ValueError substring not found"},
		{`try { (1, 2).index(5) } catch e { print(e.kind, e.message) }`, "ValueError tuple.index(x): x not in tuple"},
	}
	for _, c := range cases {
		var out strings.Builder
		in := tsr.New(tsr.Options{Stdout: &out})
		if _, err := in.Eval(context.Background(), "t.tsr", c.src); err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := strings.TrimSpace(out.String()); got != c.want {
			t.Errorf("%s\ngot  %s\nwant %s", c.src, got, c.want)
		}
	}
}
