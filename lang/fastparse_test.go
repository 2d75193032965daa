package lang

import (
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// checkFastParse compares the fast parser with the participle parser on
// src: where the fast parser accepts the input, participle must accept it
// too, with an identical parse tree. It reports whether the fast parser
// accepted the input.
func checkFastParse(t *testing.T, src string) bool {
	t.Helper()
	toks, err := tokenize("d.tsr", src)
	if err != nil {
		return false
	}
	fast, ok := fastParseFile("d.tsr", toks)
	if !ok {
		return false
	}
	slow, err := parseTokens(fileParser, "d.tsr", toks)
	if err != nil {
		t.Fatalf("%q: the fast parser accepts what participle rejects: %v", src, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		var a, b strings.Builder
		dumpNode(&a, reflect.ValueOf(fast), "")
		dumpNode(&b, reflect.ValueOf(slow), "")
		t.Fatalf("%q: parse trees differ:\nfast %s\nslow %s", src, a.String(), b.String())
	}
	return true
}

// fastCorpus returns every golden input, each line prefix of the golden
// files, and every f-string field of them.
func fastCorpus(t *testing.T) []string {
	var out []string
	for _, src := range goldenSources(t) {
		out = append(out, src)
		lines := strings.SplitAfter(src, "\n")
		for k := 1; k < len(lines); k++ {
			out = append(out, strings.Join(lines[:k], ""))
		}
	}
	out = append(out, goldenSnippets...)
	return out
}

// TestFastParseMatchesParticiple runs checkFastParse over the golden
// corpus and checks that the fast parser accepts all the valid inputs.
func TestFastParseMatchesParticiple(t *testing.T) {
	accepted, total := 0, 0
	for _, src := range fastCorpus(t) {
		total++
		if checkFastParse(t, src) {
			accepted++
			continue
		}
		// Whatever participle accepts should be fast too.
		// (Inputs whose f-strings or ein literals read as grammar
		// literals are participle's by design.)
		if toks, err := tokenize("d.tsr", src); err == nil && fastParsable(toks) {
			if _, err := parseTokens(fileParser, "d.tsr", toks); err == nil {
				t.Errorf("%q: participle accepts what the fast parser gives up on", src)
			}
		}
	}
	t.Logf("fast parser accepted %d of %d inputs", accepted, total)
}

// TestFastParseFields checks f-string fields: the field parser must agree
// with participle's.
func TestFastParseFields(t *testing.T) {
	for _, text := range []string{"x", "x, y", "a + b * c", "f(x)[1:2].y", "x,", "{'a': 1}['a']", "x\n", "(", "x y", "", "1 if", "-x ** 2"} {
		toks, err := tokenize("f.tsr", text)
		if err != nil {
			continue
		}
		fast, ok := fastParseField("f.tsr", toks)
		slow, err := parseTokens(fieldParser, "f.tsr", toks)
		if ok != (err == nil) {
			t.Errorf("%q: fast ok=%v, participle err=%v", text, ok, err)
			continue
		}
		if ok && !reflect.DeepEqual(fast, slow) {
			t.Errorf("%q: field trees differ", text)
		}
	}
}

// FuzzFastParse checks the fast parser against participle on arbitrary input.
func FuzzFastParse(f *testing.F) {
	addSeeds(f)
	for _, s := range goldenSnippets {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkFastParse(t, src)
	})
}

// TestTokenTypes checks that the untyped token constants agree with
// participle's EOF.
func TestTokenTypes(t *testing.T) {
	if tokEOF != lexer.EOF {
		t.Fatalf("tokEOF is %d, lexer.EOF %d", tokEOF, lexer.EOF)
	}
}
