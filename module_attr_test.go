package tsr_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
)

// TestModuleAttrAssign: assigning to a user module's attribute rebinds the
// module's global, which its functions then see (Python: 10 20); stdlib
// modules are read-only.
func TestModuleAttrAssign(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "mods"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "scale = 3\nfn mul(x) { x * scale }\nfn get() { scale }\n"
	if err := os.WriteFile(filepath.Join(dir, "mods", "u.tsr"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := tsr.New(tsr.Options{AllowDirs: []string{dir}, Stdout: &out})
	main := filepath.Join(dir, "main.tsr")
	prog := `import "mods/u.tsr" as u
print(u.scale, u.mul(2))
u.scale = 10
print(u.scale, u.mul(2), u.get())
u.scale += 1
print(u.scale, u.mul(2))
u.extra = "new"
print(u.extra)
`
	if _, err := in.Eval(ctx, main, prog); err != nil {
		t.Fatal(err)
	}
	// A second import of the cached module sees the same globals.
	if _, err := in.Eval(ctx, main, `import "mods/u.tsr" as v`+"\nprint(v.scale, v.mul(1), v.extra)"); err != nil {
		t.Fatal(err)
	}
	want := "3 6\n10 20 10\n11 22\nnew\n11 11 new\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}

	for _, tc := range []struct{ src, msg string }{
		{"nn.Linear = 1", "cannot assign to 'nn.Linear': stdlib module 'nn' is read-only"},
		{"linalg.bogus = 1", "cannot add attribute 'bogus' to stdlib module 'linalg'"},
	} {
		_, err := in.Eval(ctx, "ro.tsr", tc.src)
		var e *tsr.Error
		if !errors.As(err, &e) || e.Kind != "AttributeError" || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: got %v, want AttributeError containing %q", tc.src, err, tc.msg)
		}
	}
	// The failed assignment left nn intact.
	if _, err := in.Eval(ctx, "ro.tsr", "l = nn.Linear(2, 3)"); err != nil {
		t.Errorf("nn.Linear after refused assignment: %v", err)
	}
}

// TestModuleAttrDel: del m.x unbinds a user module's global (Python: the
// module's functions then raise NameError, m.x is AttributeError "module
// 'u' has no attribute 'scale'"); a stdlib module is read-only.
func TestModuleAttrDel(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "u.tsr"), []byte("scale = 3\nfn get() { scale }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := tsr.New(tsr.Options{AllowDirs: []string{dir}, Stdout: &out})
	prog := `import "u.tsr" as u
print(u.get())
del u.scale
try { u.scale } catch e { print(e.kind, e.message) }
try { u.get() } catch e { print(e.kind, e.message) }
try { del u.scale } catch e { print(e.kind, e.message) }
u.scale = 5
print(u.get())
try { del nn.Linear } catch e { print(e.kind, e.message) }
`
	if _, err := in.Eval(ctx, filepath.Join(dir, "main.tsr"), prog); err != nil {
		t.Fatal(err)
	}
	want := "3\nAttributeError module 'u' has no attribute 'scale'\nNameError name 'scale' is not defined\n" +
		"AttributeError module 'u' has no attribute 'scale'\n5\n" +
		"AttributeError cannot delete 'nn.Linear': stdlib module 'nn' is read-only\n"
	if out.String() != want {
		t.Errorf("output\n%s\nwant\n%s", out.String(), want)
	}
}
