package repl_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestTerminal builds the tsr command and drives the REPL through a real
// terminal with testdata/tmux_test.sh (multi-line input, completion,
// Ctrl-C, Ctrl-D, history after a restart). Skipped without tmux or with
// -short.
func TestTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("tmux test needs a Unix terminal")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "tsr")
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.CommandContext(ctx, goBin, "build", "-o", bin, "github.com/tsrlang/tsr/cmd/tsr").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.CommandContext(ctx, "bash", "testdata/tmux_test.sh", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux_test.sh: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
