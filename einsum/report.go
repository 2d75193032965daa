package einsum

import (
	"fmt"
	"strings"
)

// PathString formats Path like NumPy prints a path: "[(1, 2), (0, 1)]",
// or "[(0,)]" for a single operand.
func (p *Plan) PathString() string {
	var b strings.Builder
	b.WriteByte('[')
	for k, pr := range p.Path {
		if k > 0 {
			b.WriteString(", ")
		}
		if len(pr) == 1 {
			fmt.Fprintf(&b, "(%d,)", pr[0])
			continue
		}
		fmt.Fprintf(&b, "(%d, %d)", pr[0], pr[1])
	}
	b.WriteByte(']')
	return b.String()
}

// Speedup returns NaiveFLOPs / FLOPs (1 when FLOPs is 0).
func (p *Plan) Speedup() float64 {
	if p.FLOPs == 0 {
		return 1
	}
	return p.NaiveFLOPs / p.FLOPs
}

// Report returns a printout in the style of numpy.einsum_path's second
// result: the contraction, naive and optimised scaling and FLOP counts, the
// theoretical speedup, the largest intermediate (elements), the path and
// optimizer, then one line per step with its scaling, the pairwise
// contraction, the remaining contraction and the lowering (e.g.
// "bmm B=1 M=64 K=512 N=8"). Ellipsis dimensions are written with letters
// unused by the equation, as NumPy does. Unlike NumPy, the optimised FLOP
// count is the exact sum of the steps (NumPy adds 1).
func (p *Plan) Report() string {
	name := p.labelNamer()
	term := func(ls []Label) string {
		var b strings.Builder
		for _, l := range ls {
			b.WriteString(name(l))
		}
		return b.String()
	}
	// Current operand terms: original subscripts (ellipsis expanded) for
	// inputs, result labels for intermediates.
	terms := make([]string, len(p.Shapes))
	for k, t := range p.Equation.Inputs {
		var b strings.Builder
		ne := len(p.Shapes[k]) - len(t.Labels)
		for i, l := range t.Labels {
			if i == t.Ellipsis {
				b.WriteString(term(appendEllipsis(nil, p.NumEllipsisDims-ne, p.NumEllipsisDims)))
			}
			b.WriteString(name(l))
		}
		if t.Ellipsis == len(t.Labels) {
			b.WriteString(term(appendEllipsis(nil, p.NumEllipsisDims-ne, p.NumEllipsisDims)))
		}
		terms[k] = b.String()
	}
	out := term(p.Output)

	var b strings.Builder
	fmt.Fprintf(&b, "  Complete contraction:  %s\n", p.Equation)
	fmt.Fprintf(&b, "         Naive scaling:  %d\n", p.NaiveScaling)
	fmt.Fprintf(&b, "     Optimized scaling:  %d\n", p.Scaling)
	fmt.Fprintf(&b, "      Naive FLOP count:  %.3e\n", p.NaiveFLOPs)
	fmt.Fprintf(&b, "  Optimized FLOP count:  %.3e\n", p.FLOPs)
	fmt.Fprintf(&b, "   Theoretical speedup:  %.3f\n", p.Speedup())
	fmt.Fprintf(&b, "  Largest intermediate:  %.3e elements\n", p.LargestIntermediate)
	fmt.Fprintf(&b, "                  Path:  %s\n", p.PathString())
	fmt.Fprintf(&b, "             Optimizer:  %s\n", p.Optimizer)
	b.WriteString(strings.Repeat("-", 74) + "\n")
	fmt.Fprintf(&b, "%6s %24s %40s\n", "scaling", "current", "remaining")
	b.WriteString(strings.Repeat("-", 74))
	if len(p.Steps) == 0 {
		cur := terms[0] + "->" + out
		fmt.Fprintf(&b, "\n%4d    %24s %40s    %s", p.Scaling, cur, cur, p.singleLowering(name))
		return b.String() + "\n"
	}
	for k := range p.Steps {
		st := &p.Steps[k]
		res := term(st.Result)
		if k == len(p.Steps)-1 {
			res = out
		}
		cur := terms[st.Left] + "," + terms[st.Right] + "->" + res
		terms = append(terms[:st.Right], terms[st.Right+1:]...)
		terms = append(terms[:st.Left], terms[st.Left+1:]...)
		terms = append(terms, term(st.Result))
		rem := strings.Join(terms, ",") + "->" + out
		if k == len(p.Steps)-1 {
			rem = out + "->" + out
		}
		var low string
		if st.Kind == StepMul {
			low = fmt.Sprintf("mul B=%d M=%d N=%d", st.B, st.M, st.N)
		} else {
			low = fmt.Sprintf("bmm B=%d M=%d K=%d N=%d", st.B, st.M, st.K, st.N)
		}
		if len(st.SumLeft)+len(st.SumRight) > 0 {
			low += " after summing " + term(append(append([]Label(nil), st.SumLeft...), st.SumRight...))
		}
		fmt.Fprintf(&b, "\n%4d    %24s %40s    %s", st.Scaling, cur, rem, low)
	}
	return b.String() + "\n"
}

func (p *Plan) singleLowering(name func(Label) string) string {
	var parts []string
	pr := p.Preps[0]
	if pr.Squeeze != nil {
		parts = append(parts, "reshape")
	}
	if len(pr.Diagonals) > 0 {
		parts = append(parts, "diagonal")
	}
	if len(p.Final.SumLabels) > 0 {
		var s strings.Builder
		for _, l := range p.Final.SumLabels {
			s.WriteString(name(l))
		}
		parts = append(parts, "sum "+s.String())
	}
	if p.Final.Perm != nil {
		parts = append(parts, "permute")
	}
	if len(parts) == 0 {
		return "view"
	}
	return strings.Join(parts, ", ")
}

// labelNamer names letters by themselves and ellipsis dimensions by letters
// the equation does not use (lowercase first), or "(...k)" when none is left.
func (p *Plan) labelNamer() func(Label) string {
	var used [NumLetters]bool
	for _, t := range p.Equation.Inputs {
		for _, l := range t.Labels {
			used[l] = true
		}
	}
	names := make([]string, p.NumEllipsisDims)
	k := 0
	for _, c := range "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" {
		if k == len(names) {
			break
		}
		if l, _ := LabelOf(byte(c)); !used[l] {
			names[k] = string(c)
			k++
		}
	}
	for ; k < len(names); k++ {
		names[k] = fmt.Sprintf("(...%d)", k)
	}
	return func(l Label) string {
		if l.IsEllipsis() {
			return names[l-EllipsisLabel]
		}
		return string(l.Letter())
	}
}
