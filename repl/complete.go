package repl

import (
	"sort"
	"strings"

	"github.com/tsrlang/tsr/runtime"
)

// keywords are the reserved words offered by completion.
var keywords = []string{
	"and", "as", "assert", "break", "catch", "continue", "else", "false", "fn", "for",
	"grad", "if", "import", "in", "is", "no_grad", "none", "not", "or", "return", "true",
	"try", "value_and_grad", "while",
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// Complete returns completions for the word ending at byte offset pos of
// line: the text to insert after the word for each candidate, sorted, and
// the word's length. A word is a dotted name: "lin" completes globals,
// modules and keywords; "linalg.sv" the module's members ("linalg.svd(");
// "x.str" the attributes of the value bound to x ("x.stride("). Callables
// get "(" appended. A line starting with ':' completes REPL commands, and
// the argument of :help completes names without "(".
//
// Completion only reads variables and attributes; it never calls tsr code.
func (s *Session) Complete(line string, pos int) ([]string, int) {
	if pos > len(line) {
		pos = len(line)
	}
	start := pos
	for start > 0 && isWordByte(line[start-1]) {
		start--
	}
	word := line[start:pos]
	before := strings.TrimSpace(line[:start])
	if before == ":" && line[start-1] == ':' {
		// The command name itself.
		var out []string
		for _, c := range commands {
			if strings.HasPrefix(c.name, word) {
				out = append(out, c.name[len(word):]+" ")
			}
		}
		sort.Strings(out)
		return out, len(word)
	}
	parens := !strings.HasPrefix(before, ":help") && !strings.HasPrefix(before, ":disasm") && !strings.HasPrefix(before, ":load")
	if strings.HasPrefix(before, ":load") {
		return nil, 0
	}
	var names []string
	var base runtime.Value
	prefix := word
	if dot := strings.LastIndexByte(word, '.'); dot >= 0 {
		prefix = word[dot+1:]
		v, ok := s.resolve(word[:dot])
		if !ok {
			return nil, 0
		}
		base = v
		names = attrNames(v)
	} else {
		names = append(names, s.in.Predeclared()...)
		names = append(names, s.in.Globals()...)
		names = append(names, keywords...)
	}
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !strings.HasPrefix(n, prefix) || seen[n] || (prefix == "" && strings.HasPrefix(n, "_")) {
			continue
		}
		seen[n] = true
		suffix := n[len(prefix):]
		if parens && s.isCallable(base, n) {
			suffix += "("
		}
		out = append(out, suffix)
	}
	sort.Strings(out)
	return out, len(prefix)
}

// resolve looks up a dotted name ("x", "linalg", "model.layer") without
// running code: a global, then attributes of values that have them.
func (s *Session) resolve(dotted string) (runtime.Value, bool) {
	parts := strings.Split(dotted, ".")
	v, ok := s.in.Global(parts[0])
	if !ok {
		return nil, false
	}
	for _, p := range parts[1:] {
		a, ok := v.(runtime.HasAttrs)
		if !ok {
			return nil, false
		}
		w, err := a.Attr(p)
		if err != nil || w == nil {
			return nil, false
		}
		v = w
	}
	return v, true
}

// attrNames lists the attributes of v: its own (HasAttrs, e.g. a tensor's
// AttrNames) or the methods of a built-in type.
func attrNames(v runtime.Value) []string {
	if a, ok := v.(runtime.HasAttrs); ok {
		return a.AttrNames()
	}
	return runtime.BuiltinMethodNames(v.Type())
}

// isCallable reports whether name (a global when base is nil, else an
// attribute of base) is callable.
func (s *Session) isCallable(base runtime.Value, name string) bool {
	var v runtime.Value
	if base == nil {
		v, _ = s.in.Global(name)
	} else if a, ok := base.(runtime.HasAttrs); ok {
		v, _ = a.Attr(name)
	} else {
		return true // methods of list, dict, str
	}
	_, ok := v.(runtime.Callable)
	return ok
}
