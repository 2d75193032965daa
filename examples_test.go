package tsr_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
)

var update = flag.Bool("update", false, "rewrite examples/*.out golden files")

// TestExamples runs every examples/*.tsr that has a sibling .out file and
// compares its standard output byte for byte.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob("examples/*.tsr")
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, file := range files {
		golden := strings.TrimSuffix(file, ".tsr") + ".out"
		if _, err := os.Stat(golden); err != nil && !*update {
			continue
		}
		ran++
		t.Run(filepath.Base(file), func(t *testing.T) {
			var out bytes.Buffer
			in := tsr.New(tsr.Options{Stdout: &out, MaxSteps: 1 << 32, AllowAllFiles: true})
			if _, err := in.RunFile(context.Background(), file); err != nil {
				t.Fatalf("run: %v\noutput so far:\n%s", err, out.String())
			}
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != string(want) {
				t.Errorf("output differs from %s\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
	if ran == 0 {
		t.Fatal("no examples with .out files found")
	}
}
