package tensor

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// readGoldenJSON reads a golden file written by a testdata/gen_*.py
// script as a JSON object.
func readGoldenJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	return file
}

// goldenFloats parses a JSON list of float strings as the generators
// write them: hexadecimal floats (float.hex), "inf", "-inf" and "nan".
func goldenFloats(t *testing.T, v any) []float64 {
	t.Helper()
	var r []float64
	for _, h := range v.([]any) {
		f, err := strconv.ParseFloat(h.(string), 64)
		if err != nil {
			t.Fatal(err)
		}
		r = append(r, f)
	}
	return r
}
