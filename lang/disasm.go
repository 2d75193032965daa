package lang

import (
	"fmt"
	"strings"

	"github.com/tsrlang/tsr/runtime"
)

// Disassemble returns a listing of every function of prog: one line per
// instruction with its pc, source line:col, opcode and decoded operand.
func Disassemble(prog *runtime.Program) string {
	var b strings.Builder
	fns := append([]*runtime.Funcode{prog.Toplevel}, prog.Functions...)
	for i, fc := range fns {
		if i > 0 {
			b.WriteByte('\n')
		}
		DisassembleFunc(&b, fc)
	}
	return b.String()
}

// DisassembleFunc writes the listing of one function to b.
func DisassembleFunc(b *strings.Builder, fc *runtime.Funcode) {
	prog := fc.Prog
	fmt.Fprintf(b, "function %s (%s:%d:%d) params=%d defaults=%d locals=%v cells=%v free=%v maxstack=%d\n",
		fc.Name, prog.Filename, fc.Pos.Line, fc.Pos.Col, fc.NumParams, fc.NumDefaults,
		fc.Locals, fc.Cells, fc.Freevars, fc.MaxStack)
	for pc, insn := range fc.Code {
		op, arg := runtime.Decode(insn)
		p := fc.Position(pc)
		fmt.Fprintf(b, "  %4d  %4d:%-3d  %-16s", pc, p.Line, p.Col, op)
		switch op {
		case runtime.CONST, runtime.FORMAT, runtime.IMPORT, runtime.BLOCK_ENTER:
			if arg < len(prog.Consts) {
				fmt.Fprintf(b, " %d\t# %s", arg, runtime.Repr(prog.Consts[arg]))
			} else if op == runtime.FORMAT {
				b.WriteString(" str")
			}
		case runtime.SMALLINT:
			fmt.Fprintf(b, " %d", arg-runtime.SmallIntBias)
		case runtime.LOAD_LOCAL, runtime.STORE_LOCAL, runtime.LOAD_CELL, runtime.STORE_CELL, runtime.LOAD_CELLREF,
			runtime.LOAD_LOCAL_B:
			fmt.Fprintf(b, " %d\t# %s", arg, nameAt(fc.Locals, arg))
		case runtime.STORE_LOCAL_C:
			fmt.Fprintf(b, " %d\t# %s%s", arg&^runtime.ClaimCall, nameAt(fc.Locals, arg&^runtime.ClaimCall), claimNote(arg))
		case runtime.STORE_GLOBAL_C:
			fmt.Fprintf(b, " %d\t# %s%s", arg&^runtime.ClaimCall, nameAt(prog.Globals, arg&^runtime.ClaimCall), claimNote(arg))
		case runtime.LOAD_FREE, runtime.LOAD_FREEREF:
			fmt.Fprintf(b, " %d\t# %s", arg, nameAt(fc.Freevars, arg))
		case runtime.LOAD_GLOBAL, runtime.STORE_GLOBAL, runtime.LOAD_GLOBAL_B:
			fmt.Fprintf(b, " %d\t# %s", arg, nameAt(prog.Globals, arg))
		case runtime.ATTR, runtime.SETATTR, runtime.METHOD:
			fmt.Fprintf(b, " %d\t# .%s", arg, nameAt(prog.Names, arg))
		case runtime.BINARY_TMP:
			fmt.Fprintf(b, " %s", runtime.Op(arg&0xffff))
			if arg>>16 != 0 {
				b.WriteString("\t# a call's result")
			}
		case runtime.FRESH_MARK:
			fmt.Fprintf(b, " %d", arg&^runtime.FreshDefer)
			if arg&runtime.FreshDefer != 0 {
				b.WriteString("\t# deferred: a number folds in as the contraction's scale")
			}
		case runtime.BINARY:
			fmt.Fprintf(b, " %s", runtime.Op(arg&^runtime.BinaryDefer))
			if arg&runtime.BinaryDefer != 0 {
				b.WriteString("\t# deferred: a number folds in as the product's scale")
			}
		case runtime.IS:
			if arg != 0 {
				b.WriteString(" not")
			}
		case runtime.LIST_APPEND, runtime.DICT_SET:
			fmt.Fprintf(b, " %d\t# the result under %d iterators", arg, arg)
		case runtime.INPLACE, runtime.UNARY:
			fmt.Fprintf(b, " %s", runtime.Op(arg))
		case runtime.CALL_KW:
			fmt.Fprintf(b, " %d\t# %d positional, %d keyword", arg, arg&0xfff, arg>>12)
		case runtime.MAKE_FUNC:
			fn := "?"
			if arg < len(prog.Functions) {
				fn = prog.Functions[arg].Name
			}
			fmt.Fprintf(b, " %d\t# %s", arg, fn)
		case runtime.GRAD_BEGIN:
			fmt.Fprintf(b, " %d\t# %d values, with_value=%v", arg, arg&0x7fffff, arg>>23 == 1)
		default:
			if op.IsJump() || arg != 0 {
				fmt.Fprintf(b, " %d", arg)
			}
		}
		b.WriteByte('\n')
	}
}

func nameAt(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return "?"
}

// claimNote describes a STORE_*_C argument: what the claimed value is.
func claimNote(arg int) string {
	if arg&runtime.ClaimCall != 0 {
		return " (a call's result)"
	}
	return ""
}
