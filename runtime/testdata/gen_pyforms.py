#!/usr/bin/env python3
"""Generates pyforms.json: tsr programs using the Python expression forms
tsr supports beyond its spec (list and dict comprehensions, conditional
expressions, `is` / `is not`), each next to the CPython 3.11 program it
mirrors, with CPython's output as the expected output.

Run with CPython 3.11 (`python3` on PATH):  python3 gen_pyforms.py
A case is (name, tsr source, python source); a python source of None means
the tsr source read as Python with none/true/false spelled None/True/False.
CPython's True/False/None in the output are spelled as tsr prints them.
"""
import contextlib
import io
import json
import os
import re
import sys

CASES = [
    # ---- list comprehensions
    ("basic", "print([x * x for x in [1, 2, 3, 4]])", None),
    ("range_step", "print([i for i in range(10, 0, -3)])", None),
    ("filter", "print([x for x in range(10) if x % 2 == 0])", None),
    ("filters", "print([x for x in range(20) if x % 2 == 0 if x % 3 == 0])", None),
    ("nested_for", "xs = [1, 2, 3]\nprint([a * 10 + b for a in xs for b in xs if a != b])", None),
    ("nested_dep", "print([(i, j) for i in range(4) for j in range(i)])", None),
    ("nested_comp", "print([[i * j for j in range(i)] for i in range(4)])", None),
    ("tuple_target", "print([a + b for a, b in [(1, 2), (3, 4)]])", None),
    ("nested_target", 'print([(i, a, b) for i, (a, b) in enumerate(zip("xy", [5, 6]))])', None),
    ("tuple_iter", "print([v for v in (3, 1, 2)])", None),
    ("dict_iter", 'print([k for k in {"b": 1, "a": 2}])', None),
    ("string_iter", 'print([c + c for c in "abc"])', None),
    ("empty", "print([x for x in []], [x for x in range(5) if false])", None),
    ("cond_elt", 'print(["even" if i % 2 == 0 else "odd" for i in range(4)])', None),
    ("call_elt", "print(sum([len(s) for s in [\"a\", \"bb\", \"ccc\"]]), sorted([-x for x in [3, 1, 2]]))", None),
    ("in_iterable", "print([x for x in [[1], [2]] if 1 in x])", None),
    ("multiline", "ys = [\n    x + 1\n    for x in range(3)\n    if x != 1\n]\nprint(ys)", None),
    ("index_into", "m = [[1, 2], [3, 4]]\nprint([row[1] for row in m], [m[i][i] for i in range(2)])", None),
    # ---- generator expressions as a call's only argument (tsr: an eager list)
    ("genexp_sum", "print(sum(x * x for x in [1, 2, 3]))", None),
    ("genexp_any_all", "xs = [1, 2, 3]\nprint(any(x > 2 for x in xs), all(x > 2 for x in xs))", None),
    ("genexp_filter", "print(max(x for x in range(10) if x % 4 == 1), sorted(-x for x in (3, 1, 2)))", None),
    ("genexp_nested", "print(list(a * b for a in range(3) for b in range(a)))", None),
    ("genexp_tuple", "print(tuple(str(i) for i in range(3)))", None),
    ("genexp_no_leak", "i = 7\nprint(sum(i for i in range(4)), i)", None),
    # ---- more builtins: reversed, map, filter (eager lists in tsr), isinstance, ord, chr, divmod, hex/oct/bin, callable, getattr/hasattr
    ("b_reversed", "print(list(reversed([1, 2, 3])), list(reversed(\"ab\")), list(reversed((1, 2))), list(reversed({\"a\": 1, \"b\": 2})))", None),
    ("b_map", "print(list(map(fn(x) { x * 2 }, [1, 2, 3])), list(map(fn(a, b) { a + b }, [1, 2, 3], [10, 20])))",
     "print(list(map(lambda x: x * 2, [1, 2, 3])), list(map(lambda a, b: a + b, [1, 2, 3], [10, 20])))"),
    ("b_filter", "print(list(filter(fn(x) { x > 1 }, [1, 2, 3])), list(filter(none, [0, 1, \"\", \"a\"])))",
     "print(list(filter(lambda x: x > 1, [1, 2, 3])), list(filter(None, [0, 1, '', 'a'])))"),
    ("b_isinstance", "print(isinstance(1, int), isinstance(true, int), isinstance(1.0, int), isinstance(1.0, (int, float)), isinstance(\"s\", str), isinstance([1], list), isinstance({}, dict), isinstance((1,), tuple), isinstance(none, int))", None),
    ("b_ord_chr", "print(ord(\"a\"), ord(\"\u00e9\"), chr(97), chr(233), chr(ord(\"z\")))", None),
    ("b_divmod", "print(divmod(7, 2), divmod(-7, 2), divmod(7, -2), divmod(7.5, 2), divmod(-7.5, 2))", None),
    ("b_base", "print(hex(255), hex(-255), oct(8), oct(-8), bin(5), bin(-5), hex(0), bin(true), hex(-9223372036854775808))", None),
    ("b_callable", "print(callable(print), callable(1), callable(fn() { 1 }), callable(\"s\"))",
     "print(callable(print), callable(1), callable(lambda: 1), callable('s'))"),
    ("b_errors", "for f in [fn() { ord(\"ab\") }, fn() { chr(-1) }, fn() { divmod(1, 0) }, fn() { isinstance(1, 2) }, fn() { hex(1.5) }, fn() { reversed({}) }] {\n  try { f() } catch e { print(e.kind, e.message) }\n}",
     "for f in [lambda: ord('ab'), lambda: chr(-1), lambda: divmod(1, 0), lambda: isinstance(1, 2), lambda: hex(1.5), lambda: reversed({})]:\n  try:\n    f()\n  except Exception as e:\n    print(type(e).__name__, e)"),
    # ---- dict comprehensions
    ("dict_basic", 'print({k: v for k, v in zip(["a", "b", "c"], [1, 2, 3])})', None),
    ("dict_square", "print({i: i * i for i in range(5) if i != 2})", None),
    ("dict_dup", "print({i % 3: i for i in range(7)})", None),
    ("dict_items", 'd = {"x": 1, "y": 2}\nprint({v: k for k, v in d.items()})', None),
    ("dict_nested", "print({(i, j): i * j for i in range(2) for j in range(2)})", None),
    ("dict_unhashable", "try { print({[i]: i for i in range(2)}) } catch e { print(e.kind) }",
     "try:\n    print({[i]: i for i in range(2)})\nexcept Exception as e:\n    print(type(e).__name__)"),
    # ---- scope: targets do not leak, the first iterable is the enclosing scope's
    ("no_leak", "x = 10\ny = [x for x in range(3)]\nprint(x, y)", None),
    ("no_leak_undefined", "z = [q for q in range(2)]\ntry { print(q) } catch e { print(e.kind) }",
     "z = [q for q in range(2)]\ntry:\n    print(q)\nexcept Exception as e:\n    print(type(e).__name__)"),
    ("outer_iterable", "x = [1, 2]\nprint([x * 2 for x in x])", None),
    ("in_function", "fn f(n) {\n    base = 100\n    l = [base + i * n for i in range(3)]\n    i = -1\n    [l, i]\n}\nprint(f(5))",
     "def f(n):\n    base = 100\n    l = [base + i * n for i in range(3)]\n    i = -1\n    return [l, i]\nprint(f(5))"),
    ("function_local_unchanged", "fn g() {\n    v = \"kept\"\n    w = [v for v in range(2)]\n    [v, w]\n}\nprint(g())",
     "def g():\n    v = 'kept'\n    w = [v for v in range(2)]\n    return [v, w]\nprint(g())"),
    ("closure_late_binding", "fs = [fn() { i } for i in range(3)]\nprint([f() for f in fs])",
     "fs = [lambda: i for i in range(3)]\nprint([f() for f in fs])"),
    ("closure_default", "fs = [fn(i=i) { i * 10 } for i in range(3)]\nprint([f() for f in fs])",
     "fs = [lambda i=i: i * 10 for i in range(3)]\nprint([f() for f in fs])"),
    ("closure_outer", "fn make(k) { [fn(x) { x + k + j } for j in range(2)] }\nprint([h(1) for h in make(10)])",
     "def make(k):\n    return [lambda x: x + k + j for j in range(2)]\nprint([h(1) for h in make(10)])"),
    ("comp_in_closure", "fn outer() {\n    n = 3\n    fn inner() { [n * i for i in range(n)] }\n    inner()\n}\nprint(outer())",
     "def outer():\n    n = 3\n    def inner():\n        return [n * i for i in range(n)]\n    return inner()\nprint(outer())"),
    ("global_in_comp", "k = 7\nfn f() { [k + i for i in range(2)] }\nk = 8\nprint(f())",
     "k = 7\ndef f():\n    return [k + i for i in range(2)]\nk = 8\nprint(f())"),
    ("live_list", "q = [1, 2]\nprint([q.append(x + 10) for x in q if x < 3], q)",
     "q = [1, 2]\nprint([q.append(x + 10) for x in q if x < 3], q)"),
    ("not_iterable", "try { [x for x in 5] } catch e { print(e.kind) }",
     "try:\n    [x for x in 5]\nexcept Exception as e:\n    print(type(e).__name__)"),
    ("unpack_error", "try { [a for a, b in [(1, 2, 3)]] } catch e { print(e.kind) }",
     "try:\n    [a for a, b in [(1, 2, 3)]]\nexcept Exception as e:\n    print(type(e).__name__)"),
    # ---- *args, **kwargs, keyword-only parameters (definitions and call sites)
    ("va_basic", "fn f(a, *rest, k=1, **opts) { print(a, rest, k, opts) }\nf(1)\nf(1, 2, 3, k=4, z=5)\nf(a=7, y=8)",
     "def f(a, *rest, k=1, **opts):\n    print(a, rest, k, opts)\nf(1)\nf(1, 2, 3, k=4, z=5)\nf(a=7, y=8)"),
    ("va_call_star", "fn f(a, b, c=0) { [a, b, c] }\nxs = [1, 2]\nprint(f(*xs), f(*xs, 3), f(0, *(5,)), f(*range(3)), f(*\"ab\"), f(*xs, c=9))",
     "def f(a, b, c=0):\n    return [a, b, c]\nxs = [1, 2]\nprint(f(*xs), f(*xs, 3), f(0, *(5,)), f(*range(3)), f(*'ab'), f(*xs, c=9))"),
    ("va_call_dstar", "fn f(a, b=2, **kw) { [a, b, kw] }\nd = {\"b\": 5, \"z\": 1}\nprint(f(1, **d), f(**{\"a\": 0}), f(1, **{}), f(1, **d, y=2), f(**{\"a\": 1}, **{\"q\": 2}))",
     "def f(a, b=2, **kw):\n    return [a, b, kw]\nd = {'b': 5, 'z': 1}\nprint(f(1, **d), f(**{'a': 0}), f(1, **{}), f(1, **d, y=2), f(**{'a': 1}, **{'q': 2}))"),
    ("va_mixed", "fn f(*a, **k) { [a, k] }\nprint(f(1, *[2, 3], 4, *(), x=1, **{\"y\": 2}, z=3), f(k=1, *[1, 2]))",
     "def f(*a, **k):\n    return [a, k]\nprint(f(1, *[2, 3], 4, *(), x=1, **{'y': 2}, z=3), f(k=1, *[1, 2]))"),
    ("va_forward", "fn inner(x, y=0, *, scale=1) { (x + y) * scale }\nfn outer(*a, **k) { inner(*a, **k) }\nprint(outer(1), outer(1, 2), outer(1, y=3, scale=10))",
     "def inner(x, y=0, *, scale=1):\n    return (x + y) * scale\ndef outer(*a, **k):\n    return inner(*a, **k)\nprint(outer(1), outer(1, 2), outer(1, y=3, scale=10))"),
    ("va_kwonly", "fn g(a, *, k, m=2) { [a, k, m] }\nprint(g(1, k=2), g(0, m=3, k=4))\nfn h(*args, sep=\"-\") { sep.join([str(a) for a in args]) }\nprint(h(1, 2, 3), h(sep=\"+\"), h(4, sep=\"+\"))",
     "def g(a, *, k, m=2):\n    return [a, k, m]\nprint(g(1, k=2), g(0, m=3, k=4))\ndef h(*args, sep='-'):\n    return sep.join([str(a) for a in args])\nprint(h(1, 2, 3), h(sep='+'), h(4, sep='+'))"),
    ("va_lambda", "f = fn(*a, **k) { len(a) + len(k) }\nprint(f(), f(1, 2, x=3), (fn(a, *r) { r })(1, 2))",
     "f = lambda *a, **k: len(a) + len(k)\nprint(f(), f(1, 2, x=3), (lambda a, *r: r)(1, 2))"),
    ("va_builtins", "xs = [3, 1, 2]\nprint(*xs)\nprint(*xs, sep=\", \")\nprint(max(*xs), min(*xs, 0), list(zip(*[[1, 2], [3, 4]])))\nopts = {\"sep\": \"|\", \"end\": \"!\\n\"}\nprint(1, 2, **opts)",
     "xs = [3, 1, 2]\nprint(*xs)\nprint(*xs, sep=', ')\nprint(max(*xs), min(*xs, 0), list(zip(*[[1, 2], [3, 4]])))\nopts = {'sep': '|', 'end': '!\\n'}\nprint(1, 2, **opts)"),
    ("va_methods", "s = \"{}-{}\"\nprint(s.format(*[1, 2]), \"{a}{b}\".format(**{\"a\": 1, \"b\": 2}))\nl = []\nl.append(*[5])\nl.extend(*[[6, 7]])\nprint(l)",
     "s = '{}-{}'\nprint(s.format(*[1, 2]), '{a}{b}'.format(**{'a': 1, 'b': 2}))\nl = []\nl.append(*[5])\nl.extend(*[[6, 7]])\nprint(l)"),
    ("va_defaults_eval", "n = 10\nfn f(a=n, *r, k=n + 1) { [a, r, k] }\nn = 0\nprint(f(), f(1, 2))",
     "n = 10\ndef f(a=n, *r, k=n + 1):\n    return [a, r, k]\nn = 0\nprint(f(), f(1, 2))"),
    ("va_closure", "fn mk(*a) { fn() { a } }\nprint(mk(1, 2)(), mk()())",
     "def mk(*a):\n    return lambda: a\nprint(mk(1, 2)(), mk()())"),
    ("va_recursion", "fn total(*xs) { 0 if len(xs) == 0 else xs[0] + total(*xs[1:]) }\nprint(total(1, 2, 3, 4))",
     "def total(*xs):\n    return 0 if len(xs) == 0 else xs[0] + total(*xs[1:])\nprint(total(1, 2, 3, 4))"),
    ("va_errors", "fn f(a, b=1) { a }\nfn g(*, k) { k }\nfn h(a, *, k=0) { a }\nfn v(*a) { a }\nfor t in [fn() { f(*1) }, fn() { f(**1) }, fn() { f(**{1: 2}) }, fn() { f(1, **{\"b\": 2}, b=3) }, fn() { f(**{\"a\": 1}, **{\"a\": 2}) }, fn() { f(1, *[2, 3]) }, fn() { f(*[1], a=2) }, fn() { f(b=2) }, fn() { g() }, fn() { g(1) }, fn() { h(1, 2, k=3) }, fn() { h(1, 2) }, fn() { v(k=1) }, fn() { f(1, 2, 3, **{}) }, fn() { g(k=1, z=2) }, fn() { f(**[1]) }, fn() { f(*true) }] {\n  try { t() } catch e { print(e.kind, e.message) }\n}",
     "def f(a, b=1):\n    return a\ndef g(*, k):\n    return k\ndef h(a, *, k=0):\n    return a\ndef v(*a):\n    return a\nfor t in [lambda: f(*1), lambda: f(**1), lambda: f(**{1: 2}), lambda: f(1, **{'b': 2}, b=3), lambda: f(**{'a': 1}, **{'a': 2}), lambda: f(1, *[2, 3]), lambda: f(*[1], a=2), lambda: f(b=2), lambda: g(), lambda: g(1), lambda: h(1, 2, k=3), lambda: h(1, 2), lambda: v(k=1), lambda: f(1, 2, 3, **{}), lambda: g(k=1, z=2), lambda: f(**[1]), lambda: f(*True)]:\n  try:\n    t()\n  except Exception as e:\n    print(type(e).__name__, e)"),
    ("va_missing_kwonly", "fn g(a, *, k, m, n=1) { a }\ntry { g(1) } catch e { print(e.kind, e.message) }\ntry { g() } catch e { print(e.kind, e.message) }",
     "def g(a, *, k, m, n=1):\n    return a\ntry:\n    g(1)\nexcept Exception as e:\n    print(type(e).__name__, e)\ntry:\n    g()\nexcept Exception as e:\n    print(type(e).__name__, e)"),
    # ---- starred displays and assignment targets
    ("star_display", "a = [1, 2]\nb = (3,)\nprint([*a, *b, 0], (*a, 9), [*range(3), *\"xy\"], [*{\"k\": 1}], (*[],))", None),
    ("star_unpack", "a, *b = [1, 2, 3]\n*c, d = \"xyz\"\ne, *f, g = range(5)\nh, *i = (1,)\nprint(a, b, c, d, e, f, g, h, i)\n[j, *k] = (7, 8)\nprint(j, k)", None),
    ("star_unpack_for", "for a, *b in [(1, 2, 3), (4,)] { print(a, b) }",
     "for a, *b in [(1, 2, 3), (4,)]:\n    print(a, b)"),
    ("star_unpack_errors", "for t in [fn() { a, *b = [] }, fn() { a, *b, c = [1] }, fn() { a, *b = 5 }] {\n  try { t() } catch e { print(e.kind, e.message) }\n}",
     "def t1():\n    a, *b = []\ndef t2():\n    a, *b, c = [1]\ndef t3():\n    a, *b = 5\nfor t in [t1, t2, t3]:\n  try:\n    t()\n  except Exception as e:\n    print(type(e).__name__, e)"),
    # ---- printf-style % formatting
    ("pct_basic", 'n = 3\nt = 1.23456\nprint("%d items, %.3f s" % (n, t))\nprint("%s" % "x", "%s" % 5, "%s" % [1, 2], "%r" % "q", "%r" % [1, "a"], "%a" % "\u00e9")', None),
    ("pct_widths", 'print("[%5.2f]" % 3.14159, "[%-4d]" % 7, "[%4d]" % -7, "[%04d]" % -7, "[%-6s]" % "ab", "[%6s]" % "ab", "[%.2s]" % "abcdef", "[%+d]" % 5, "[% d]" % 5, "[%+.1f]" % -0.05)', None),
    ("pct_ints", 'print("%x %X %o %#x %#X %#o %x" % (255, 255, 8, 255, 255, 8, -255))\nprint("%d %i %u" % (3.99, -3.99, true), "%.3d" % 7, "%08.3f" % -3.14159, "%#08x" % 255)', None),
    ("pct_floats", 'print("%e %E %.2e %g %G %g %g" % (12345.678, 0.000123, 1.5, 1e20, 1e-20, 0.0001, 123456789.0))\nprint("%f %.0f %#.0f %10.4f" % (1, 2.5, 2.5, 3.14159))\nprint("%f %5f %05f" % (1e400, -1e400, 1e400))', None),
    ("pct_percent_char", 'print("100%%" % (), "%d%%" % 50, "%c%c" % (72, "i"), "%5s|%-5s|" % ("r", "l"))', None),
    ("pct_single", 'x = 4\nprint("x=%s" % x, "%s" % (x,), "%s" % ((1, 2),), "%s" % {"a": 1}, "none: %s" % none, "b: %s %d" % (true, false))', None),
    ("pct_dict", 'd = {"name": "loss", "v": 0.1234, "n": 3}\nprint("%(name)s=%(v).2f (%(n)03d)" % d, "%(name)s %(name)r" % d, "static" % d)', None),
    ("pct_star_width", 'print("[%*d]" % (5, 42), "[%-*d]" % (5, 42), "[%.*f]" % (2, 3.14159), "[%*.*f]" % (8, 3, 2.0))', None),
    ("pct_unicode", 'print("%s\u00e9|%3s|%-3s|" % ("\u00e9", "\u00e9", "\u00e9"), "%.1s" % "\u00e9\u00e8")', None),
    ("pct_numbers_unchanged", 'print(7 % 3, -7 % 3, 7.5 % 2, -7.5 % 2, 7 % -3)\nx = 10\nx %= 4\nprint(x)\ns = "%d"\ns %= 5\nprint(s)', None),
    ("pct_errors", 'for t in [fn() { "%d %d" % (1,) }, fn() { "%d" % (1, 2) }, fn() { "x" % 5 }, fn() { "%d" % "s" }, fn() { "%f" % "s" }, fn() { "%x" % 1.5 }, fn() { "%" % 1 }, fn() { "%z" % 1 }, fn() { "%(a)s" % (1,) }, fn() { "%(a)s" % {"b": 1} }, fn() { "%c" % "ab" }, fn() { "%d" % none }, fn() { "%s %s" % [1, 2] }, fn() { "%(a" % {"a": 1} }, fn() { "abc %" % () }, fn() { "%5" % 1 }] {\n  try { print(t()) } catch e { print(e.kind, e.message) }\n}',
     'for t in [lambda: "%d %d" % (1,), lambda: "%d" % (1, 2), lambda: "x" % 5, lambda: "%d" % "s", lambda: "%f" % "s", lambda: "%x" % 1.5, lambda: "%" % 1, lambda: "%z" % 1, lambda: "%(a)s" % (1,), lambda: "%(a)s" % {"b": 1}, lambda: "%c" % "ab", lambda: "%d" % None, lambda: "%s %s" % [1, 2], lambda: "%(a" % {"a": 1}, lambda: "abc %" % (), lambda: "%5" % 1]:\n  try:\n    print(t())\n  except Exception as e:\n    print(type(e).__name__, e)'),
    ("pct_list_operand", 'print("x" % [1], "%s" % [1, 2], "x" % {})', None),
    # ---- else after a function literal's body
    ("else_after_fn_literal", 'v = 1 if fn(x) { x } else {"a": 2}\nc = false\nf = fn(x) { x } if c else fn(x) { -x }\nif c { g = fn(x) { x } } else { g = fn(x) { 2 * x } }\nif (fn(x) { x })(0) { print("t") } else { print(v, f(3), g(4)) }',
     'v = 1 if (lambda x: x) else {"a": 2}\nc = False\nf = (lambda x: x) if c else (lambda x: -x)\nif c:\n    g = lambda x: x\nelse:\n    g = lambda x: 2 * x\nif (lambda x: x)(0):\n    print("t")\nelse:\n    print(v, f(3), g(4))'),
    # ---- sets (tsr iterates and prints a set in insertion order: these cases use sorted() or ints inserted in order)
    ("set_basic", "s = {1, 2, 3}\nt = {x % 3 for x in range(10)}\nprint(s, t, set(), set([1, 3, 3]), len(s), 2 in s, 5 in s, 5 not in s, bool(set()), bool(s))", None),
    ("set_ops", "s = {1, 2, 3}\nprint(s | {7}, s & {2, 9}, s - {1}, sorted(s ^ {3, 4}), {1, 2} <= s, {1, 2} < s, s < s, s >= {3}, s > s, s == {3, 2, 1}, s != {1})", None),
    ("set_methods", "s = {1, 2}\ns.add(3)\ns.add(2)\ns.discard(1)\ns.discard(9)\nprint(s, s.union([5], (6,)), s.intersection({3, 4}), s.difference([2]), s.issubset({2, 3, 4}), s.issuperset([3]))\ns.update([4, 5])\nprint(s, s.copy(), s.pop(), s)\ns.clear()\nprint(s, len(s))", None),
    ("set_iter", "s = {3, 4, 5}\nprint(sorted(s), [x * 2 for x in sorted(s)], sum(s), list(sorted({\"b\", \"a\"})), sorted(set(\"abca\")))", None),
    ("set_hash_eq", "print({1, 1.0, true}, len({(1, 2), (1, 2)}), {0, false, 0.0}, {1, 2} == {2, 1}, {1} == [1])", None),
    ("set_display_star", "a = [1, 2]\nprint({*a, 3}, {*range(3), *a}, type({1}) == type(set()), isinstance({1}, set))", None),
    ("set_comp_scope", "x = 9\nprint({x for x in range(3)}, x, {i * j for i in range(3) for j in range(3) if i <= j})", None),
    ("set_errors", "for t in [fn() { {[1], 2} }, fn() { {1}.remove(9) }, fn() { set().pop() }, fn() { {{1}} }, fn() { set(1) }, fn() { {1} + {2} }] {\n  try { t() } catch e { print(e.kind, e.message) }\n}",
     "for t in [lambda: {[1], 2}, lambda: {1}.remove(9), lambda: set().pop(), lambda: {frozenset() if False else {1}}, lambda: set(1), lambda: {1} + {2}]:\n  try:\n    t()\n  except Exception as e:\n    print(type(e).__name__, e)"),
    # ---- generator expressions outside a call's only argument (tsr: an eager list)
    ("genexp_paren", "g = (x * x for x in [1, 2, 3])\nprint(list(g), sum(x for x in (y + 1 for y in range(3))), max((len(w) for w in [\"a\", \"bcd\"])), sorted((-v for v in {3: 0, 1: 0}), reverse=true))",
     "g = (x * x for x in [1, 2, 3])\nprint(list(g), sum(x for x in (y + 1 for y in range(3))), max((len(w) for w in ['a', 'bcd'])), sorted((-v for v in {3: 0, 1: 0}), reverse=True))"),
    ("genexp_args", "print(\"-\".join(str(i) for i in range(3)), dict((k, k * 2) for k in range(2)), tuple((a, b) for a, b in zip(\"xy\", [1, 2])))", None),
    # ---- del
    ("del_items", "d = {\"a\": 1, \"b\": 2, \"c\": 3}\ndel d[\"b\"]\nl = list(range(10))\ndel l[0], l[-1]\ndel l[::2]\nm = [1, 2, 3, 4, 5]\ndel m[1:3]\nn = [0, 1, 2, 3, 4, 5]\ndel n[::-2]\nprint(d, l, m, n)", None),
    ("del_names", "x = 5\ndel x\ntry { print(x) } catch e { print(e.kind, e.message) }\nfn f() {\n    y = 1\n    del y\n    y\n}\ntry { f() } catch e { print(e.kind) }\nfn g() {\n    z = [1, 2]\n    w = z\n    del z\n    w\n}\nprint(g())",
     "x = 5\ndel x\ntry:\n    print(x)\nexcept Exception as e:\n    print(type(e).__name__, e)\ndef f():\n    y = 1\n    del y\n    return y\ntry:\n    f()\nexcept Exception as e:\n    print(type(e).__name__)\ndef g():\n    z = [1, 2]\n    w = z\n    del z\n    return w\nprint(g())"),
    ("del_errors", "d = {}\nl = [1]\nt = (1, 2)\nfor f in [fn() { del d[\"k\"] }, fn() { del l[5] }, fn() { del l[\"a\"] }, fn() { del t[0] }, fn() { del d[[1]] }] {\n  try { f() } catch e { print(e.kind, e.message) }\n}",
     "d = {}\nl = [1]\nt = (1, 2)\ndef f1():\n    del d['k']\ndef f2():\n    del l[5]\ndef f3():\n    del l['a']\ndef f4():\n    del t[0]\ndef f5():\n    del d[[1]]\nfor f in [f1, f2, f3, f4, f5]:\n  try:\n    f()\n  except Exception as e:\n    print(type(e).__name__, e)"),
    # ---- everyday forms (chained comparisons, slices with steps, repetition, in, augmented subscripts)
    ("daily_forms", "x = 5\nprint(0 < x < 10, 1 < 2 > 3, 1 == 1.0 < 2)\nxs = list(range(10))\nprint(xs[::3], xs[8:2:-2], xs[-3:], \"abcdef\"[::-2], (1, 2, 3, 4)[::2], xs[100:], xs[-100:2])\nprint(\"ab\" * 2, 0 * \"ab\", -1 * [1], (1,) * 2, \"bc\" in \"abcd\", \"\" in \"a\", 3 in {3: 1}, \"x\" not in \"abc\")\nd = {\"a\": 1}\nd[\"a\"] += 2\nl = [1, 2]\nl[0] *= 10\nl[-1] -= 1\nprint(d, l, 1 if x > 3 else 2 if x > 1 else 3)", None),
    # ---- conditional expressions
    ("cond_basic", "print(1 if true else 2, 1 if false else 2)", None),
    ("cond_prec", "print(1 if true else 2 + 10, (1 if false else 2) + 10, 3 + (1 if false else 2))", None),
    ("cond_right_assoc", "for v in [0, 1, 2] { print(\"a\" if v == 0 else \"b\" if v == 1 else \"c\") }",
     "for v in [0, 1, 2]:\n    print('a' if v == 0 else 'b' if v == 1 else 'c')"),
    ("cond_or_binds_tighter", "print(0 or 5 if false else 7, 0 or (5 if false else 7))", None),
    ("cond_not_and", 'print("a" if not 0 and 1 else "b", "a" if 0 or [] else "b")', None),
    ("cond_lazy", "fn boom() { error(\"ValueError\", \"boom\") }\nprint(1 if true else boom(), boom() if false else 2)",
     "def boom():\n    raise ValueError('boom')\nprint(1 if True else boom(), boom() if False else 2)"),
    ("cond_dict_else", 'c = false\nx = 1 if c else {"k": 2}\nprint(x, {} if c else {"z": 0})', None),
    ("cond_args", "fn f(a, b=0) { [a, b] }\nprint(f(1 if true else 2, b=3 if false else 4))",
     "def f(a, b=0):\n    return [a, b]\nprint(f(1 if True else 2, b=3 if False else 4))"),
    ("cond_index", "xs = [10, 20, 30]\nprint(xs[0 if false else 2], xs[1 if true else 0:])", None),
    ("cond_return", "fn sign(x) { return -1 if x < 0 else 1 if x > 0 else 0 }\nprint([sign(v) for v in [-5, 0, 5]])",
     "def sign(x):\n    return -1 if x < 0 else 1 if x > 0 else 0\nprint([sign(v) for v in [-5, 0, 5]])"),
    ("cond_truthy", 'print("t" if [0] else "f", "t" if "" else "f", "t" if none else "f")', None),
    ("cond_tuple", "t = 1, 2 if false else 3\nprint(t)", None),
    # ---- is / is not
    ("is_none", "x = none\ny = 0\nprint(x is none, x is not none, y is none, y is not none, none is none)", None),
    ("is_bool", "f = true\nprint(f is true, f is false, 1 is true, 0 is false, true is not false)", None),
    ("is_list", "a = []\nb = a\nprint(a is b, a is [], [] is [], a is not [], a == [])", None),
    ("is_dict", "d = {}\ne = d\nprint(d is e, d is {}, d is not e)", None),
    ("is_func", "fn f() { 1 }\ng = f\nprint(g is f, f is not g)",
     "def f():\n    return 1\ng = f\nprint(g is f, f is not g)"),
    ("is_tuple_self", "t = (1, 2)\nu = t\nprint(t is u, t is not u)", None),
    ("is_int_small", "a = 5\nb = 2 + 3\nprint(a is b, a is 5, a is 5.0, 1 is true)", None),
    ("is_str", 's = "ab"\nprint(s is "ab", s is "abc", s is not "ab")', None),
    ("is_chain", "a = []\nb = a\nc = []\nprint(a is b is not c, a is b is c, 1 < 2 is true)", None),
    ("is_not_prec", "a = none\nprint(not a is none, not a is not none)", None),
    ("is_in_comp", "xs = [1, none, 2, none]\nprint([x for x in xs if x is not none], len([x for x in xs if x is none]))", None),
    ("is_guard", "x = none\nprint(x is not none and x > 1, 5 if x is none else x)", None),
    # ---- {**d} in dict displays (session 11)
    ("dict_unpack", 'd = {"a": 1, "b": 2}\ne = {"c": 3}\nprint({**d, "k": 4}, {"a": 0, **d}, {**d, **e, "a": 9}, {**{}}, {**d, }, {})\nprint([*[1, 2], *(3,), *range(2)], (*"ab", 1))', None),
    ("dict_unpack_copy", 'd = {"a": [1]}\nc = {**d}\nc["b"] = 2\nprint(d, c, c["a"] is d["a"])', None),
    ("dict_unpack_order", 'fn k(x) {\n    print(x)\n    x\n}\nprint({k("a"): k(1), **k({"b": 2}), k("c"): k(3), **k({"a": 5})})',
     "def k(x):\n    print(x)\n    return x\nprint({k('a'): k(1), **k({'b': 2}), k('c'): k(3), **k({'a': 5})})"),
    ("dict_unpack_errors", 'for f in [fn() { {**[1]} }, fn() { {"a": 1, **5} }, fn() { {**none} }, fn() { {**"ab"} }] {\n  try { f() } catch e { print(e.kind, e.message) }\n}',
     "for f in [lambda: {**[1]}, lambda: {'a': 1, **5}, lambda: {**None}, lambda: {**'ab'}]:\n  try:\n    f()\n  except Exception as e:\n    print(type(e).__name__, e)"),
    # ---- positional-only parameters (PEP 570)
    ("posonly", 'fn f(a, b, /, c, d=4) { [a, b, c, d] }\nprint(f(1, 2, 3), f(1, 2, c=3), f(1, 2, 3, d=5))\nfn h(a, /, **kw) { [a, kw] }\nprint(h(1, a=2), h(3))\nfn k(a, /, b=2, *, c) { [a, b, c] }\nprint(k(1, c=3), k(1, 5, c=3), k(1, b=6, c=7))\nm = fn(x, y=10, /) { x * y }\nprint(m(4), m(4, 2))\nfn v(a, /, *args, **kw) { [a, args, kw] }\nprint(v(1, 2, 3, a=4, z=5))',
     "def f(a, b, /, c, d=4):\n    return [a, b, c, d]\nprint(f(1, 2, 3), f(1, 2, c=3), f(1, 2, 3, d=5))\ndef h(a, /, **kw):\n    return [a, kw]\nprint(h(1, a=2), h(3))\ndef k(a, /, b=2, *, c):\n    return [a, b, c]\nprint(k(1, c=3), k(1, 5, c=3), k(1, b=6, c=7))\nm = lambda x, y=10, /: x * y\nprint(m(4), m(4, 2))\ndef v(a, /, *args, **kw):\n    return [a, args, kw]\nprint(v(1, 2, 3, a=4, z=5))"),
    ("posonly_errors", 'fn f(a, b, /, c, d=4) { [a, b, c, d] }\nfn k(a, /, b=2, *, c) { [a, b, c] }\nfor g in [fn() { f(1, b=2, c=3) }, fn() { f(a=1, b=2, c=3) }, fn() { f(1) }, fn() { f(1, 2, 3, 4, 5) }, fn() { f(1, 2, 3, b=2) }, fn() { f(1, 2, 3, zz=1) }, fn() { f(1, 2, a=4, c=3) }, fn() { f(1, 2, zz=1, a=4) }, fn() { k(1, a=2, c=3) }, fn() { k(a=1, c=3) }, fn() { k(1) }, fn() { f(c=1) }] {\n  try { g() } catch e { print(e.kind, e.message) }\n}',
     "def f(a, b, /, c, d=4):\n    return [a, b, c, d]\ndef k(a, /, b=2, *, c):\n    return [a, b, c]\nfor g in [lambda: f(1, b=2, c=3), lambda: f(a=1, b=2, c=3), lambda: f(1), lambda: f(1, 2, 3, 4, 5), lambda: f(1, 2, 3, b=2), lambda: f(1, 2, 3, zz=1), lambda: f(1, 2, a=4, c=3), lambda: f(1, 2, zz=1, a=4), lambda: k(1, a=2, c=3), lambda: k(a=1, c=3), lambda: k(1), lambda: f(c=1)]:\n  try:\n    g()\n  except Exception as e:\n    print(type(e).__name__, e)"),
    # ---- del x.attr
    ("del_attr_errors", 'l = [1]\nfor g in [fn() { del l.append }, fn() { del l.nosuch }] {\n  try { g() } catch e { print(e.kind, e.message) }\n}\nprint(l)',
     "l = [1]\ndef g1():\n    del l.append\ndef g2():\n    del l.nosuch\nfor g in [g1, g2]:\n  try:\n    g()\n  except Exception as e:\n    print(type(e).__name__, e)\nprint(l)"),
]

def to_python(src):
    return re.sub(r"\b(none|true|false)\b", lambda m: {"none": "None", "true": "True", "false": "False"}[m.group(1)], src)

def run(src):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(src, "<case>", "exec"), {})
    return buf.getvalue()

def main():
    if sys.version_info[:2] != (3, 11):
        sys.exit("run with CPython 3.11")
    import warnings
    warnings.simplefilter("ignore")  # "is" with a literal
    out = []
    for name, tsr, py in CASES:
        want = run(py if py is not None else to_python(tsr))
        want = re.sub(r"\b(None|True|False)\b", lambda m: m.group(1).lower(), want)
        out.append({"name": name, "src": tsr, "python": py if py is not None else to_python(tsr), "want": want})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyforms.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")

if __name__ == "__main__":
    main()
