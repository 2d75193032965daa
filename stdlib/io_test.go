package stdlib

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"image"
	_ "image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensorio"
)

// ioRun compiles and runs src on a fresh thread with policy p (nil: none)
// and the globals in env, returning the printed output and the value of
// the last expression.
func ioRun(t *testing.T, p FSPolicy, env map[string]runtime.Value, src string) (string, runtime.Value, error) {
	t.Helper()
	prog, err := lang.Compile("test.tsr", src)
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, src)
	}
	var out bytes.Buffer
	th := &runtime.Thread{Name: "main", Stdout: &out}
	pre := map[string]runtime.Value{}
	for k, v := range runtime.Universe {
		pre[k] = v
	}
	for k, v := range Predeclared() {
		pre[k] = v
	}
	for k, v := range env {
		pre[k] = v
	}
	Setup(th)
	if p != nil {
		SetFSPolicy(th, p)
	}
	v, err := th.ExecIn(prog, runtime.NewGlobals(pre))
	return out.String(), v, err
}

// ioMust is ioRun that fails the test on a tsr error.
func ioMust(t *testing.T, p FSPolicy, env map[string]runtime.Value, src string) (string, runtime.Value) {
	t.Helper()
	out, v, err := ioRun(t, p, env, src)
	if err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out)
	}
	return out, v
}

// ioKind returns the tsr error kind and message of err.
func ioKind(t *testing.T, err error) (string, string) {
	t.Helper()
	var ee *runtime.EvalError
	if !errors.As(err, &ee) {
		t.Fatalf("want a tsr error, got %v", err)
	}
	return ee.Kind, ee.Msg
}

func strEnv(kv ...string) map[string]runtime.Value {
	m := map[string]runtime.Value{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = runtime.String(kv[i+1])
	}
	return m
}

// ioGolden is testdata/io/golden.json (see testdata/gen_io_golden.py).
type ioGolden struct {
	Mixed map[string]struct {
		Shape  []int         `json:"shape"`
		Values []json.Number `json:"values"`
	} `json:"mixed"`
	Order  []string    `json:"order"`
	CSV    [][]float64 `json:"csv"`
	Digits struct {
		XShape []int     `json:"X_shape"`
		YShape []int     `json:"y_shape"`
		XSum   float64   `json:"X_sum"`
		YFirst []int64   `json:"y_first"`
		XRow0  []float64 `json:"X_row0"`
	} `json:"digits"`
	Camera struct {
		Shape  []int   `json:"shape"`
		Sum    int64   `json:"sum"`
		Row100 []int64 `json:"row100"`
	} `json:"camera"`
}

func loadIOGolden(t *testing.T) *ioGolden {
	t.Helper()
	b, err := os.ReadFile("testdata/io/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g ioGolden
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&g); err != nil {
		t.Fatal(err)
	}
	return &g
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkTensorValues compares t with golden values (exact).
func checkTensorValues(t *testing.T, name string, x *tensor.Tensor, wantDType string, shape []int, vals []json.Number) {
	t.Helper()
	if got := x.DType().String(); got != wantDType {
		t.Errorf("%s: dtype %s, want %s", name, got, wantDType)
	}
	if !sameInts(x.Shape(), shape) {
		t.Errorf("%s: shape %v, want %v", name, x.Shape(), shape)
		return
	}
	switch {
	case x.DType().IsFloat():
		got := x.ToFloat64s()
		for i, n := range vals {
			w, _ := n.Float64()
			if math.Float64bits(got[i]) != math.Float64bits(w) {
				t.Errorf("%s[%d] = %v, want %v", name, i, got[i], w)
			}
		}
	case x.DType() == tensor.Bool:
		got := x.ToBools()
		for i, n := range vals {
			if w := n.String() == "1"; got[i] != w {
				t.Errorf("%s[%d] = %v, want %v", name, i, got[i], w)
			}
		}
	default:
		got := x.ToInt64s()
		for i, n := range vals {
			w, err := n.Int64()
			if err != nil {
				t.Fatal(err)
			}
			if got[i] != w {
				t.Errorf("%s[%d] = %v, want %v", name, i, got[i], w)
			}
		}
	}
}

// TestIOLoadNumpy reads a .npz written by numpy.savez (one array per
// dtype) and checks every value, the dtypes and the entry order.
func TestIOLoadNumpy(t *testing.T) {
	g := loadIOGolden(t)
	_, v := ioMust(t, AllowDirs("testdata"), nil, `io.load("testdata/io/mixed.npz")`)
	d, ok := v.(*runtime.Dict)
	if !ok {
		t.Fatalf("io.load(.npz) = %s, want a dict", v.Type())
	}
	var keys []string
	for _, k := range d.Keys() {
		keys = append(keys, string(k.(runtime.String)))
	}
	if strings.Join(keys, ",") != strings.Join(g.Order, ",") {
		t.Errorf("keys %v, want %v (file order)", keys, g.Order)
	}
	dtypes := map[string]string{"f16": "f16", "f32": "f32", "f64": "f64", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "u8": "u8", "bool": "bool", "scalar": "f64"}
	for _, k := range g.Order {
		e, _, _ := d.Get(runtime.String(k))
		x, ok := TensorOf(e)
		if !ok {
			t.Fatalf("%s is %s, want a tensor", k, e.Type())
		}
		checkTensorValues(t, k, x, dtypes[k], g.Mixed[k].Shape, g.Mixed[k].Values)
	}
}

// TestIORoundTrip saves and loads every format through io.save/io.load
// and compares in tsr (exact equality, dtype and shape).
func TestIORoundTrip(t *testing.T) {
	dir := t.TempDir()
	src := `
manual_seed(0)
fn same(a, b) {
    assert a.dtype == b.dtype, f"dtype {a.dtype} != {b.dtype}"
    assert a.shape == b.shape, f"shape {a.shape} != {b.shape}"
    if a.numel() > 0 { assert bool((a == b).all()), "values differ" }
    true
}
ts = {
    "f16": randn(3, 4).to(f16), "bf16": randn(5).to(bf16), "f32": randn(2, 3, 4),
    "f64": randn(7, dtype=f64), "i8": tensor([-128, 0, 127], dtype=i8),
    "i16": tensor([[-32768], [32767]], dtype=i16), "i32": arange(6, dtype=i32).reshape(2, 3),
    "i64": tensor([-9223372036854775807 - 1, 9223372036854775807]),
    "u8": tensor([0, 255], dtype=u8), "bool": tensor([true, false, true]),
    "empty": zeros(0, 3), "scalar": tensor(2.5),
}
# safetensors: every dtype, metadata kept, order kept
io.save(D + "/all.safetensors", ts, metadata={"format": "pt"})
back = io.load(D + "/all.safetensors")
assert list(back) == list(ts), "order"
for k in ts { same(ts[k], back[k]) }
# npz: all but bf16 (NumPy has no bfloat16); compressed and stored
np = {}
for k in ts { if k != "bf16" { np[k] = ts[k] } }
io.save(D + "/all.npz", np)
io.save(D + "/allz.npz", np, compress=true)
for f in ["/all.npz", "/allz.npz"] {
    back = io.load(D + f)
    for k in np { same(np[k], back[k]) }
}
# npy: one file per dtype; a non-contiguous view is saved in C order
for k in np {
    io.save(D + "/" + k + ".npy", np[k])
    same(np[k], io.load(D + "/" + k + ".npy"))
}
x = arange(12, dtype=f32).reshape(3, 4)
io.save(D + "/t.npy", x.t())
same(x.t().contiguous(), io.load(D + "/t.npy"))
io.save(D + "/list.npz", [x, x.t()])
l = io.load(D + "/list.npz")
assert list(l) == ["arr_0", "arr_1"], "positional names"
# csv: f64 by default, f32 with dtype=, header row with columns=, gzip
m = randn(5, 3, dtype=f64)
io.save(D + "/m.csv", m)
same(m, io.load(D + "/m.csv"))
io.save(D + "/m.csv.gz", m, columns=["a", "b", "c"])
same(m, io.load(D + "/m.csv.gz"))
m32 = randn(4, 2)
io.save(D + "/m32.csv", m32)
same(m32, io.load(D + "/m32.csv", dtype=f32))
k = tensor([[1, 2], [3, 4]])
io.save(D + "/k.csv", k)
same(k, io.load(D + "/k.csv", dtype=i64))
same(k.to(f64), io.load(D + "/k.csv", header=false))
# images: png exact for gray, RGB, RGBA; jpeg approximately
g = (arange(64).reshape(8, 8) * 4).to(u8)
io.save(D + "/g.png", g)
same(g, io.load(D + "/g.png"))
rgb = randint(0, 256, [6, 5, 3]).to(u8)
io.save(D + "/rgb.png", rgb)
same(rgb, io.load(D + "/rgb.png"))
rgba = randint(0, 255, [4, 4, 4]).to(u8)
io.save(D + "/rgba.png", rgba)
same(rgba, io.load(D + "/rgba.png"))
flat = full([16, 16], 128, dtype=u8)
io.save(D + "/flat.jpg", flat, quality=95)
j = io.load(D + "/flat.jpg")
assert j.shape == [16, 16] and j.dtype == u8, "jpeg shape"
assert (j.to(i32) - 128).abs().max().item() <= 1, "jpeg values"
print("ok")
`
	out, _ := ioMust(t, AllowDirs(dir), strEnv("D", dir), src)
	if out != "ok\n" {
		t.Errorf("output %q", out)
	}
	// Atomic writes leave no temporary files behind.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// TestIOLoadConversions checks dtype= on load and the values read from a
// NumPy-written CSV with a header and a blank line.
func TestIOLoadConversions(t *testing.T) {
	g := loadIOGolden(t)
	_, v := ioMust(t, AllowDirs("testdata"), nil, `io.load("testdata/io/mixed.csv")`)
	x, _ := TensorOf(v)
	if x.DType() != tensor.F64 || !sameInts(x.Shape(), []int{len(g.CSV), len(g.CSV[0])}) {
		t.Fatalf("csv: %s %v", x.DType(), x.Shape())
	}
	got := x.ToFloat64s()
	for i, row := range g.CSV {
		for j, w := range row {
			if got[i*len(row)+j] != w {
				t.Errorf("csv[%d][%d] = %v, want %v", i, j, got[i*len(row)+j], w)
			}
		}
	}
	// An integer dtype refuses non-integral values instead of truncating.
	_, _, err := ioRun(t, AllowDirs("testdata"), nil, `io.load("testdata/io/mixed.csv", dtype=i64)`)
	if kind, msg := ioKind(t, err); kind != "ValueError" || !strings.Contains(msg, "mixed.csv") {
		t.Errorf("csv as i64: %s: %s", kind, msg)
	}
	// dtype= converts other formats like .to().
	out, _ := ioMust(t, AllowDirs("testdata"), nil, `d = io.load("testdata/io/mixed.npz", dtype=f64); print(d["u8"].dtype, d["u8"][1].tolist())`)
	if out != "f64 [253.0, 254.0, 255.0]\n" {
		t.Errorf("dtype=f64: %q", out)
	}
}

// TestIORealData checks examples/data against NumPy/PIL statistics.
func TestIORealData(t *testing.T) {
	g := loadIOGolden(t)
	data := filepath.Join("..", "examples", "data")
	env := strEnv("D", data)
	_, v := ioMust(t, AllowDirs(data), env, `
d = io.load(D + "/digits.npz")
X, y = d["X"], d["y"]
Xn = io.load(D + "/digits_X.npy")
c = io.load(D + "/digits.csv.gz")
assert bool((Xn == X.to(f64)).all()), "npy != npz"
assert bool((c[:, :64] == Xn).all()) and bool((c[:, 64] == y.to(f64)).all()), "csv != npy"
assert bool((io.load(D + "/digits_y.npy") == y).all()), "y"
img = io.load(D + "/camera.png")
(X, y, img)
`)
	tup := v.(runtime.Tuple)
	X, _ := TensorOf(tup[0])
	y, _ := TensorOf(tup[1])
	img, _ := TensorOf(tup[2])
	if X.DType() != tensor.F32 || !sameInts(X.Shape(), g.Digits.XShape) || y.DType() != tensor.I64 || !sameInts(y.Shape(), g.Digits.YShape) {
		t.Fatalf("digits: X %s %v, y %s %v", X.DType(), X.Shape(), y.DType(), y.Shape())
	}
	sum := 0.0
	for _, v := range X.ToFloat64s() {
		sum += v
	}
	if sum != g.Digits.XSum {
		t.Errorf("X sum %v, want %v", sum, g.Digits.XSum)
	}
	xs := X.ToFloat64s()
	for i, w := range g.Digits.XRow0 {
		if xs[i] != w {
			t.Errorf("X[0][%d] = %v, want %v", i, xs[i], w)
		}
	}
	ys := y.ToInt64s()
	for i, w := range g.Digits.YFirst {
		if ys[i] != w {
			t.Errorf("y[%d] = %d, want %d", i, ys[i], w)
		}
	}
	if img.DType() != tensor.U8 || !sameInts(img.Shape(), g.Camera.Shape) {
		t.Fatalf("camera: %s %v", img.DType(), img.Shape())
	}
	px := img.ToInt64s()
	var isum int64
	for _, p := range px {
		isum += p
	}
	if isum != g.Camera.Sum {
		t.Errorf("camera sum %d, want %d", isum, g.Camera.Sum)
	}
	for i, w := range g.Camera.Row100 {
		if got := px[100*512+200+i]; got != w {
			t.Errorf("camera[100][%d] = %d, want %d", 200+i, got, w)
		}
	}
}

// TestIOErrors covers corrupt, missing and unsupported files and bad
// arguments: each a tsr error of the right kind naming the file.
func TestIOErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.npy"), []byte("\x93NUMPY\x01\x00garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.npz"), []byte("PK\x03\x04 not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ragged.csv"), []byte("1,2\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		src, kind, msg string
	}{
		{`io.load(D + "/bad.npy")`, "ValueError", "bad.npy"},
		{`io.load(D + "/bad.npz")`, "ValueError", "bad.npz"},
		{`io.load(D + "/ragged.csv")`, "ValueError", "ragged.csv: line 2"},
		{`io.load(D + "/missing.npy")`, "FileNotFoundError", "no such file or directory: '" + dir + "/missing.npy'"},
		{`io.load(D + "/x.txt")`, "ValueError", "x.txt"},
		{`io.load(D + "/x.npy", header=true)`, "ValueError", "header= applies only to .csv"},
		{`io.save(D + "/b.npy", tensor([1.0]).to(bf16))`, "TypeError", "b.npy"},
		{`io.save(D + "/m.npy", zeros(2), metadata={"a": "b"})`, "ValueError", "metadata= applies only to .safetensors"},
		{`io.save(D + "/m.safetensors", {"a": zeros(2)}, metadata={"a": 1})`, "TypeError", "metadata must map strings to strings"},
		{`io.save(D + "/k.npz", {1: zeros(2)})`, "TypeError", "dict keys must be strings"},
		{`io.save(D + "/k.npz", {"a": 1})`, "TypeError", "value of \"a\" must be a tensor"},
		{`io.save(D + "/k.npy", 3)`, "TypeError", "must be a tensor"},
		{`io.save(D + "/q.jpg", zeros(4, 4, dtype=u8), quality=0)`, "ValueError", "quality must be in 1..100"},
		{`io.save(D + "/q.png", zeros(4, 4, dtype=u8), quality=50)`, "ValueError", "quality= applies only"},
		{`io.save(D + "/two.npy", {"a": zeros(1), "b": zeros(1)})`, "ValueError", "two.npy"},
		{`io.save(D + "/img.png", zeros(4, 4))`, "ValueError", "img.png"},
		{`io.save(D + "/nodir/x.npy", zeros(1))`, "FileNotFoundError", "nodir/x.npy"},
	}
	for _, c := range cases {
		_, _, err := ioRun(t, AllowDirs(dir), strEnv("D", dir), c.src)
		if err == nil {
			t.Errorf("%s: no error", c.src)
			continue
		}
		kind, msg := ioKind(t, err)
		if kind != c.kind || !strings.Contains(msg, c.msg) {
			t.Errorf("%s:\n got %s: %s\nwant %s containing %q", c.src, kind, msg, c.kind, c.msg)
		}
	}
	// A failed save leaves no file and no temporary file behind.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		switch e.Name() {
		case "bad.npy", "bad.npz", "ragged.csv":
		default:
			t.Errorf("unexpected file after failed saves: %s", e.Name())
		}
	}
}

// TestFSPolicy checks that file access is off without a policy, that
// AllowDirs confines paths (including through symbolic links), and that the
// errors are PermissionErrors a program can catch.
func TestFSPolicy(t *testing.T) {
	dir := t.TempDir()
	inside := filepath.Join(dir, "in")
	outside := filepath.Join(dir, "out")
	for _, d := range []string{inside, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(inside, "escape")); err != nil {
		t.Fatal(err)
	}
	env := strEnv("IN", inside, "OUT", outside)

	_, _, err := ioRun(t, nil, env, `io.save(IN + "/a.npy", zeros(2))`)
	kind, msg := ioKind(t, err)
	if kind != "PermissionError" || msg != "io.save: file-system access is disabled; the host must grant directories" {
		t.Errorf("no policy: %s: %s", kind, msg)
	}
	_, _, err = ioRun(t, nil, env, `plot.line([1, 2], path=IN + "/a.png")`)
	if kind, _ := ioKind(t, err); kind != "PermissionError" {
		t.Errorf("plot without policy: %s", kind)
	}

	for _, src := range []string{
		`io.save(OUT + "/a.npy", zeros(2))`,
		`io.load(OUT + "/a.npy")`,
		`io.save(IN + "/escape/a.npy", zeros(2))`,
		`io.save(IN + "/../out/a.npy", zeros(2))`,
		`plot.hist([1, 2], path=OUT + "/h.svg")`,
	} {
		_, _, err := ioRun(t, AllowDirs(inside), env, src)
		if err == nil {
			t.Errorf("%s: allowed outside the granted directory", src)
			continue
		}
		if kind, msg := ioKind(t, err); kind != "PermissionError" || !strings.Contains(msg, "outside the directories granted") {
			t.Errorf("%s: %s: %s", src, kind, msg)
		}
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("files written outside: %v", ents)
	}
	out, _ := ioMust(t, AllowDirs(inside), env, `
try { io.load(OUT + "/a.npy") } catch e { print(e.kind) }
io.save(IN + "/sub.npy", ones(3))
print(io.load(IN + "/sub.npy"))`)
	if out != "PermissionError\ntensor([1., 1., 1.])\n" {
		t.Errorf("output %q", out)
	}
	ioMust(t, AllowAll(), env, `io.save(OUT + "/ok.npy", zeros(1))`)
	if _, err := os.Stat(filepath.Join(outside, "ok.npy")); err != nil {
		t.Errorf("AllowAll: %v", err)
	}
	if _, err := AllowDirs(inside).Check("", false); err == nil {
		t.Error("empty path accepted")
	}
}

// TestPlot draws every plot kind to PNG and SVG and checks that the files
// decode (PNG) or parse as XML with an <svg> root (SVG).
func TestPlot(t *testing.T) {
	dir := t.TempDir()
	src := `
manual_seed(0)
x = linspace(0, 6.28, 50)
plot.line(x.sin(), path=D + "/l1.png", title="sin")
plot.line(x, stack([x.sin(), x.cos()], 1), path=D + "/l2.svg", labels=["sin", "cos"], xlabel="t", ylabel="y")
plot.line([1, 10, 100], path=D + "/l3.png", logy=true, figsize=(3, 2))
plot.heatmap(randn(8, 12), path=D + "/h.png", title="heat", cmap="bluered")
plot.heatmap([[1, 2], [3, 4]], path=D + "/h.svg", cmap="gray")
plot.heatmap(ones(3, 3), path=D + "/hc.png")
plot.hist(randn(1000), bins=20, path=D + "/hist.png")
plot.hist([1, 1, 2], path=D + "/hist.svg")
plot.spectrum(tensor([10.0, 5.0, 1.0, 0.1, 0.0]), path=D + "/s.png", title="spectrum")
plot.spectrum(tensor([3.0, 2.0]), path=D + "/s.svg")
`
	ioMust(t, AllowDirs(dir), strEnv("D", dir), src)
	for _, f := range []string{"l1.png", "l3.png", "h.png", "hc.png", "hist.png", "s.png"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
		if err != nil || format != "png" || cfg.Width < 100 || cfg.Height < 100 {
			t.Errorf("%s: %v %s %dx%d", f, err, format, cfg.Width, cfg.Height)
		}
		if _, _, err := image.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "l3.png"))
	if cfg, _, _ := image.DecodeConfig(bytes.NewReader(b)); cfg.Width != 288 || cfg.Height != 192 {
		t.Errorf("figsize=(3, 2) at 96 dpi: %dx%d, want 288x192", cfg.Width, cfg.Height)
	}
	for _, f := range []string{"l2.svg", "h.svg", "hist.svg", "s.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(b))
		root := ""
		for {
			tok, err := dec.Token()
			if err != nil {
				if err.Error() != "EOF" {
					t.Errorf("%s: invalid XML: %v", f, err)
				}
				break
			}
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Local
			}
		}
		if root != "svg" {
			t.Errorf("%s: root element %q", f, root)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 10 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("files: %v", names)
	}
	for _, c := range []struct{ src, kind, msg string }{
		{`plot.line([1, 2])`, "TypeError", "missing required argument 'path'"},
		{`plot.line([1, 2], path=D + "/x.pdf")`, "ValueError", "use a .png or .svg"},
		{`plot.line([1, nan], path=D + "/x.png")`, "ValueError", "non-finite"},
		{`plot.line([0, 1], path=D + "/x.png", logy=true)`, "ValueError", "positive"},
		{`plot.line([1, 2], [1, 2, 3], path=D + "/x.png")`, "ValueError", "xs must be 1-D with 3 elements"},
		{`plot.heatmap(zeros(3), path=D + "/x.png")`, "ValueError", "2-D"},
		{`plot.heatmap(zeros(2, 2), path=D + "/x.png", cmap="jet")`, "ValueError", "unknown cmap"},
		{`plot.hist([1.0], bins=0, path=D + "/x.png")`, "ValueError", "bins"},
		{`plot.spectrum(tensor([1.0, -1.0]), path=D + "/x.png")`, "ValueError", "non-negative"},
		{`plot.line("abc", path=D + "/x.png")`, "TypeError", "ys must be a tensor"},
	} {
		_, _, err := ioRun(t, AllowDirs(dir), strEnv("D", dir), c.src)
		if err == nil {
			t.Errorf("%s: no error", c.src)
			continue
		}
		if kind, msg := ioKind(t, err); kind != c.kind || !strings.Contains(msg, c.msg) {
			t.Errorf("%s: %s: %s (want %s containing %q)", c.src, kind, msg, c.kind, c.msg)
		}
	}
}

// TestDeviceModules checks the cuda and metal modules of a CPU-only build.
func TestDeviceModules(t *testing.T) {
	out, _ := ioMust(t, nil, nil, `
print(cuda.is_available(), cuda.device_count(), metal.is_available(), metal.device_count())
for f in [fn() { cuda.synchronize() }, fn() { cuda.Event(enable_timing=true) }, fn() { cuda.Stream() }, fn() { metal.synchronize() }] {
    try { f() } catch e { print(e.kind) }
}`)
	if out != "false 0 false 0\nRuntimeError\nRuntimeError\nRuntimeError\nRuntimeError\n" {
		t.Errorf("output %q", out)
	}
	_, _, err := ioRun(t, nil, nil, `cuda.synchronize()`)
	_, msg := ioKind(t, err)
	if !strings.Contains(msg, "cuda.synchronize: CUDA is not available") || !strings.Contains(msg, cudaDriverLib()) {
		t.Errorf("message %q", msg)
	}
	if !cudaAccel.present && !strings.Contains(msg, "driver library libcuda.so.1 not found") {
		t.Errorf("message %q", msg)
	}
	_, _, err = ioRun(t, nil, nil, `cuda.Event(bogus=1)`)
	if kind, _ := ioKind(t, err); kind != "TypeError" {
		t.Errorf("bad keyword: %s", kind)
	}
}

// TensorFromArray keeps tsr's bool invariant (one byte, 0 or 1) for a
// host's Array whose true bytes are any nonzero value, as tensorio's own
// readers do.
func TestTensorFromArrayNormalisesBools(t *testing.T) {
	x, err := TensorFromArray(&tensorio.Array{DType: "bool", Shape: []int{4}, Data: []byte{0, 1, 2, 0xff}})
	if err != nil {
		t.Fatal(err)
	}
	if got := x.Storage().U8(); got[0] != 0 || got[1] != 1 || got[2] != 1 || got[3] != 1 {
		t.Fatalf("bool bytes %v, want [0 1 1 1]", got)
	}
}
