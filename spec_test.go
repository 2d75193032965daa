package tsr_test

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
)

// LANGUAGE.md says "Every example in this file is a test case: it must run
// and print what it says". TestSpecBlocks runs every fenced example of
// docs/LANGUAGE.md (except the statement synopsis of section 3, whose
// `expr` placeholders are not a program) and checks each print against the
// comment at the end of its line: the comment, without a leading "prints "
// and a trailing "(...)" remark, is the printed line.
func TestSpecBlocks(t *testing.T) {
	src, err := os.ReadFile("docs/LANGUAGE.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```\n(.*?)```").FindAllStringSubmatch(string(src), -1)
	if len(blocks) < 4 {
		t.Fatalf("found %d fenced blocks in docs/LANGUAGE.md", len(blocks))
	}
	remark := regexp.MustCompile(`\s+\([^()]*\)$`)
	ran := 0
	for i, b := range blocks {
		code := b[1]
		if strings.Contains(code, "a, b = expr") {
			continue // the statement synopsis
		}
		ran++
		var want []string
		for _, line := range strings.Split(code, "\n") {
			if !strings.Contains(line, "print(") {
				continue
			}
			j := strings.LastIndex(line, "# ")
			if j < 0 {
				t.Fatalf("block %d: a print without its expected output: %q", i, line)
			}
			w := strings.TrimPrefix(strings.TrimSpace(line[j+2:]), "prints ")
			want = append(want, remark.ReplaceAllString(w, ""))
		}
		var out bytes.Buffer
		in := tsr.New(tsr.Options{Stdout: &out})
		if _, err := in.Eval(context.Background(), "spec.tsr", code); err != nil {
			t.Errorf("block %d: %v\n%s", i, err, code)
			continue
		}
		got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if out.Len() == 0 {
			got = nil
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("block %d printed\n%s\nwant\n%s", i, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if ran < 3 {
		t.Fatalf("ran %d blocks", ran)
	}
}

// TestSpecInline checks the examples written inline in the prose of
// docs/LANGUAGE.md, each as a small program and the output it must print.
func TestSpecInline(t *testing.T) {
	cases := []struct{ name, code, want string }{
		// 1. Lexical structure
		{"literals", `print(42, 1_000, 0x1f, 3.5, 1e-3, .5, "text", true, false, none)`,
			"42 1000 31 3.5 0.001 0.5 text true false none"},
		{"escapes", `print("a\tb\"c\\d\ne")`, "a\tb\"c\\d\ne"},
		{"statements", "a = 1; b = 2\nc = (a +\n  b)\nd = a +\n  b\nprint(c, d)", "3 3"},
		{"f-string", `k = 3; energy = 95.4321; W = zeros(4, 5)
print(f"rank {k}: {energy:.2f}% of {W.shape}")`, "rank 3: 95.43% of [4, 5]"},
		{"format specs", `print(f"{3.14159:.4f}|{1234.5:.3e}|{1234567:,}|{7:>10}|{0.25:%}")`,
			"3.1416|1.234e+03|1,234,567|         7|25.000000%"},
		{"format()", `print(format(3.14159, ".4f"), format(0.5, ".1%"))`, "3.1416 50.0%"},
		{"einsum literal", `e = ein"bhid,bhjd->bhij"
print(e, ein"i j, j k"(ones(2, 3), ones(3, 4)).shape, ein"ba"(ones(2, 3)).shape)`,
			`ein"bhid,bhjd->bhij" [2, 4] [3, 2]`},
		// 2. Values
		{"scalars", `print(7 / 2 == 3.5, 7 // 2 == 3, -7 // 2 == -4, 2 ** 10 == 1024)`, "true true true true"},
		{"zero division", `try { 1 // 0 } catch e { print(e.kind) }`, "ZeroDivisionError"},
		{"truthiness", `if true and none { print("truthy") } else { print("falsy") }`, "falsy"},
		{"dict order", `d = {"lr": 0.1, "b": 1}; d["a"] = 2; print(d, d.keys())`, "{'lr': 0.1, 'b': 1, 'a': 2} ['lr', 'b', 'a']"},
		{"containers", `print((1, 2), (1,), [1, 2], {"lr": 0.1})`, "(1, 2) (1,) [1, 2] {'lr': 0.1}"},
		{"named tuples", `x = tensor([[1.0, 5.0], [7.0, 2.0]])
v, i = x.max(1)
r = x.min(dim=1)
print(v, i, r.values, r.indices, r[0])
s = linalg.slogdet(x)
print(s.sign, linalg.lstsq(x, tensor([[1.0], [2.0]])).solution.shape, linalg.svd(x)[1].shape)
Q, R = linalg.qr(x)
L, V = linalg.eigh(x @ x.T)
print(Q.shape, L.shape)`, "tensor([5., 7.]) tensor([1, 0]) tensor([1., 2.]) tensor([0, 1]) tensor([1., 2.])\n" +
			"tensor(-1.) [2, 1] [2]\n[2, 2] [2]"},
		// 3. Statements
		{"assignment forms", `a, b = (1, 2)
r0, r1 = arange(6).reshape(2, 3)
x = zeros(3, 2)
x[1:, 0] = tensor([7.0, 8.0])
v = x._version
x += 1
print(a, b, r1, x[:, 0], v, x._version)`, "1 2 tensor([3, 4, 5]) tensor([1., 8., 9.]) 1 2"},
		{"functions", `fn name(a, b, c=1) { return a + b + c }
fn pair() { return 1, 2 }
fn last(x) { x * 2 }
print(name(1, 2), name(1, 2, c=10), pair(), last(4), (fn(x) { x * 2 })(5))`, "4 13 (1, 2) 8 10"},
		{"control flow", `for i, v in enumerate(["a", "b"]) { print(i, v) }
for k in {"x": 1} { print(k) }
n = 0
while true { n += 1; if n < 3 { continue }; break }
if n == 1 { print("one") } else if n == 3 { print("three") } else { print("other") }`, "0 a\n1 b\nx\nthree"},
		{"try and assert", `try { assert 1 == 2, "message" } catch e { print(e.kind, e.message); print(e) }`,
			"AssertionError message\nAssertionError: message"},
		{"closures and scope", `fn outer() { y = 10; fn inner(z) { y + z }; inner(5) }
g = 1
fn setg() { g = 2; g }
print(outer(), setg(), g)`, "15 2 1"},
		{"recursion limit", `fn f(n) { f(n + 1) }
try { f(0) } catch e { print(e.kind) }`, "RecursionError"},
		// 4. Expressions
		{"precedence", `print(-2 ** 2 == -4, 2 ** 3 ** 2, 1 + 2 * 3, not 1 == 2, 1 | 2 ^ 3 & 4)`, "true 512 7 true 3"},
		{"indexing", `x = arange(12.0).reshape(3, 4)
print(x[1:, ::2].shape, x[..., 1], x[none].shape, x[tensor([0, 2])].shape, x[x > 9])
print(x[1].data_ptr() == x.data_ptr() + 16, x[[0, 2]].data_ptr() == x.data_ptr())
try { x[::-1] } catch e { print(e.kind) }`, "[2, 2] tensor([1., 5., 9.]) [1, 3, 4] [2, 4] tensor([10., 11.])\ntrue false\nValueError"},
		// 5. Tensors
		{"dtypes", `print(f16, bf16, f32, f64, i8, i16, i32, i64, u8, bool)
print(float16, half, bfloat16, float32, float, double, float64, int64, long, int32, int, uint8)
print(zeros(1).dtype, arange(2).dtype, tensor(true).dtype)`,
			"f16 bf16 f32 f64 i8 i16 i32 i64 u8 bool\nf16 f16 bf16 f32 f32 f64 f64 i64 i64 i32 i32 u8\nf32 i64 bool"},
		{"shapes as varargs or a list", `print(equal(zeros(2, 3), zeros([2, 3])), zeros(2, 3).shape == [2, 3])`, "true true"},
		{"metadata", `x = arange(12, dtype=f32).reshape(3, 4)
print(x.shape, x.size(1), x.ndim, x.dim(), x.numel(), x.dtype, x.device, x.stride(), x.stride(0), x.storage_offset())
print(x.element_size(), x.nbytes, x.untyped_storage().nbytes(), x.untyped_storage().data_ptr() == x.data_ptr(), x._version, x.is_pinned())
print(x.to(f64).dtype, x.to("cpu", non_blocking=true).device, shares_memory(x[0], x[:, 0]), shares_memory(x[0], x[1]))`,
			"[3, 4] 4 2 2 12 f32 cpu (4, 1) 4 0\n4 48 48 true 0 false\nf64 cpu true false"},
		{"views", `x = arange(24.0).reshape(2, 3, 4)
print(x.permute(2, 0, 1).stride(), x.transpose(0, 2).stride(), x.mT.shape, x.unsqueeze(1).shape, x.flatten(1).shape, x.unflatten(2, [2, 2]).shape)
print(x.narrow(2, 1, 2).stride(), x.select(1, 0).shape, x[0].diagonal().stride(), arange(6.0).unfold(0, 2, 2).shape, x.movedim(0, -1).shape)
print(ones(3, 1).expand(3, 4).stride(), x[0].t().contiguous().is_contiguous(), x.contiguous().data_ptr() == x.data_ptr(), x.clone().data_ptr() == x.data_ptr())`,
			"(1, 12, 4) (1, 4, 12) [2, 4, 3] [2, 1, 3, 4] [2, 12] [2, 3, 2, 2]\n(12, 4, 1) [2, 4] (5,) [3, 2] [3, 4, 2]\n(1, 0) true true false"},
		{"view needs reshape", `try { arange(6).reshape(2, 3).t().view(-1) } catch e { print(e.kind, e.message) }`,
			"RuntimeError view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."},
		{"as_strided is checked", `try { as_strided(arange(10.0), [4, 4], [3, 1]) } catch e { print(e) }`,
			"RuntimeError: as_strided: view of size [4, 4] with stride [3, 1] and offset 0 needs storage of 13 elements, but the storage has 10"},
		{"promotion", `print((arange(2) + 0.5).dtype, (ones(1, dtype=f16) + ones(1)).dtype, (ones(1, dtype=f16) * 2.5).dtype, (ones(1, dtype=i32) + 1).dtype)`,
			"f32 f32 f16 i32"},
		{"printing", `print(tensor([0., 1., 2.]), tensor([1, 2], dtype=i32), tensor([0.5, 1e-05]))
x = zeros(3, 4)
B, S = x.shape
print(x.shape, x.stride(), B, S, true, [1, 2], [0.5, 1.0], 1.0, 0.1, 1e-05)`,
			"tensor([0., 1., 2.]) tensor([1, 2], dtype=i32) tensor([5.0000e-01, 1.0000e-05])\n[3, 4] (4, 1) 3 4 true [1, 2] [0.5, 1.0] 1.0 0.1 1e-05"},
		{"summarized printing", `print(arange(1001.0))`,
			"tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.])"},
		// 6. Einsum
		{"einsum", `A = arange(9.0).reshape(3, 3)
print(ein"ii->"(A), ein"ii->i"(A), equal(einsum("ij,jk->ik", A, A), ein"ij,jk->ik"(A, A)), ein"...ij,...jk->...ik"(ones(2, 3, 4), ones(4, 5)).shape)`,
			"tensor(12.) tensor([0., 4., 8.]) true [2, 3, 5]"},
		// 7. Gradients
		{"grad block", `w = tensor([1.0, 2.0], requires_grad=true)
gw = grad(w) { (w ** 2).sum() }
v, gs = value_and_grad(w) { (w ** 2).sum() }
print(gw, v, gs, w.grad)
(w * 3).sum().backward()
print(w.grad, w.is_leaf, (w * 2).grad_fn, w.detach().requires_grad)`,
			"tensor([2., 4.]) tensor(5.) tensor([2., 4.]) none\ntensor([3., 3.]) true <MulBackward0> false"},
		{"in-place on a leaf", `w = tensor([1.0], requires_grad=true)
try { w.add_(1.0) } catch e { print(e.kind) }
no_grad { w -= 0.5 }
print(w)`, "RuntimeError\ntensor([0.5000], requires_grad=true)"},
		// 8. Standard library
		{"constants", `print(inf, -inf, nan, pi, float("inf"), finfo(f32).bits, finfo(f64).eps, iinfo(i8).min)`,
			"inf -inf nan 3.141592653589793 inf 32 2.220446049250313e-16 -128"},
		{"builtins", `print(len([1, 2]), str(1.5), int(2.9), float(2), bool(0), type(1.0), abs(-3), min(3, 1), max([1, 4]), sum([1, 2]), round(2.5), sorted([3, 1]), list(zip([1], [2])), type(clock()))`,
			"2 1.5 2 2.0 false float 3 1 4 3 2 [1, 3] [(1, 2)] float"},
		{"error()", `try { error("ValueError", "bad") } catch e { print(e.kind, e.message) }`, "ValueError bad"},
		{"tolist and item", `print(tensor([[1, 2]]).tolist(), tensor([0.5, 1.0]).tolist(), tensor(0.1).item(), tensor(1e-05, dtype=f64).item())`,
			"[[1, 2]] [0.5, 1.0] 0.10000000149011612 1e-05"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			in := tsr.New(tsr.Options{Stdout: &out})
			if _, err := in.Eval(context.Background(), "inline.tsr", c.code); err != nil {
				t.Fatalf("%v\noutput so far:\n%s", err, out.String())
			}
			if got := strings.TrimSuffix(out.String(), "\n"); got != c.want {
				t.Errorf("printed\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestSpecEinsumSyntaxError: a malformed einsum literal is a syntax error
// at the literal's position (section 1's attn.tsr:4:10 example).
func TestSpecEinsumSyntaxError(t *testing.T) {
	in := tsr.New(tsr.Options{})
	_, err := in.Eval(context.Background(), "attn.tsr", "q = ones(2, 2)\nk = q\nprint(1)\nscores = ein\"ij,jl->ik\"(q, k)\n")
	if err == nil {
		t.Fatal("no error")
	}
	if want := "attn.tsr:4:10: einsum: output index 'k' does not appear in any input"; !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %q, want it to start with %q", err.Error(), want)
	}
}
