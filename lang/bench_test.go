package lang

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// largeSource generates n lines of the form "x{i%100} = {i} + 1".
func largeSource(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "x%d = %d + 1\n", i%100, i)
	}
	return b.String()
}

func benchParse(b *testing.B, src string) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bench.tsr", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseLarge parses a generated 100,000-line file.
func BenchmarkParseLarge(b *testing.B) { benchParse(b, largeSource(100000)) }

// BenchmarkParseCapstone parses examples/capstone.tsr.
func BenchmarkParseCapstone(b *testing.B) {
	src, err := os.ReadFile("../examples/capstone.tsr")
	if err != nil {
		b.Fatal(err)
	}
	benchParse(b, string(src))
}

// BenchmarkParseSmall parses a typical short example.
func BenchmarkParseSmall(b *testing.B) {
	src, err := os.ReadFile("../examples/lang_functions.tsr")
	if err != nil {
		b.Fatal(err)
	}
	benchParse(b, string(src))
}
