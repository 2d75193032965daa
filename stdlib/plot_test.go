package stdlib

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlotPositionalPath: the output path may be passed as the last
// positional argument of every plot function, and errors about path say how
// to pass it.
func TestPlotPositionalPath(t *testing.T) {
	dir := t.TempDir()
	src := `
plot.line([1, 2, 3], D + "/a.png")
plot.line([0, 1, 2], [1, 4, 9], D + "/b.svg", title="xs ys")
plot.heatmap([[1, 2], [3, 4]], D + "/c.png")
plot.hist([1, 1, 2], D + "/d.png")
plot.hist([1, 1, 2, 5], 4, D + "/e.svg")
plot.spectrum(tensor([3.0, 2.0]), D + "/f.png")
plot.line([1, 2], path=D + "/g.png")
`
	ioMust(t, AllowDirs(dir), strEnv("D", dir), src)
	for _, f := range []string{"a.png", "b.svg", "c.png", "d.png", "e.svg", "f.png", "g.png"} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil || st.Size() < 100 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, c := range []struct{ src, kind, msg string }{
		{`plot.line([1, 2], D + "/x.png", path=D + "/y.png")`, "TypeError", "plot.line() got multiple values for argument 'path'"},
		{`plot.hist([1, 2], D + "/x.png", path=D + "/y.png")`, "TypeError", "plot.hist() got multiple values for argument 'path'"},
		{`plot.line([1, 2], D + "/x.pdf")`, "ValueError", "use a .png or .svg"},
		{`plot.line([1, 2])`, "TypeError", `plot.line() missing required argument 'path' (the .png or .svg file to write), e.g. plot.line(..., "plot.png") or path="plot.png"`},
		{`plot.heatmap([[1]])`, "TypeError", "plot.heatmap() missing required argument 'path'"},
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
	if ents, _ := os.ReadDir(dir); len(ents) != 7 {
		t.Errorf("%d files written, want 7", len(ents))
	}
}
