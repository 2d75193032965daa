package tsr

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/runtime"
)

// Args is the raw form of a call from tsr to a Go function registered
// with RegisterFunc as func(Args) (any, error).
type Args struct {
	// Name is the name the function was registered under.
	Name string
	// Positional holds the call's positional arguments as tsr values.
	Positional []runtime.Value
	// Keyword holds the call's keyword arguments, in the order given.
	Keyword []runtime.Kwarg
	in      *Interpreter
}

// Unpack binds the arguments to Go variables: pairs alternates parameter
// names and pointers ("x", &x, "alpha?", &alpha); a name ending in "?" is
// optional. It accepts the pointer types of runtime.UnpackArgs (*int,
// *float64, *string, *bool, *runtime.Value, ...). Errors are TypeErrors
// naming the function and the parameter.
func (a Args) Unpack(pairs ...any) error {
	return runtime.UnpackArgs(a.Name, a.Positional, a.Keyword, pairs...)
}

// Context returns the context of the Eval, Run or Call that is running.
func (a Args) Context() context.Context {
	if a.in != nil && a.in.ctx != nil {
		return a.in.ctx
	}
	return context.Background()
}

// Interpreter returns the interpreter making the call (to convert values
// with its ToValue, or to call back into tsr with Call).
func (a Args) Interpreter() *Interpreter { return a.in }

var (
	typeArgs    = reflect.TypeOf(Args{})
	typeError   = reflect.TypeOf((*error)(nil)).Elem()
	typeContext = reflect.TypeOf((*context.Context)(nil)).Elem()
)

// param is one parameter of a reflected Go function.
type param struct {
	name     string
	typ      reflect.Type
	optional bool
	def      runtime.Value // default (nil: the Go zero value)
}

// RegisterFunc binds the global name to a Go function callable from tsr.
// fn is either
//
//   - func(tsr.Args) (any, error): the raw form; the function unpacks its
//     own arguments (Args.Unpack) and its result is converted with ToValue;
//     or
//   - any other Go func, whose parameters are converted from the tsr
//     arguments with Convert (so float64, int, string, bool, []float64,
//     *tensor.Tensor, *mat.Dense, map[string]T, runtime.Value, ... all
//     work). A first parameter of type context.Context receives the running
//     Eval's context. A variadic final parameter takes the remaining
//     positional arguments. The results may be (), (T), (error), (T, error)
//     or several values (returned to tsr as a tuple), with an optional final
//     error; values are converted with ToValue.
//
// params names the Go function's parameters (after a context.Context), in
// order, which lets tsr pass them by keyword: "x", "alpha?" (optional:
// the Go zero value when omitted) or "alpha=0.5" (optional, with a default
// given as a tsr expression, evaluated once now). Without params, arguments
// are positional only and all required. A variadic parameter cannot be
// named by keyword.
//
// An error returned by fn reaches tsr with the error's kind when it
// implements runtime.HasKind (see runtime.Errorf), else as a RuntimeError;
// the host gets back an *Error whose Unwrap is fn's error. A panic in fn
// becomes an uncatchable InternalError naming the function.
func (in *Interpreter) RegisterFunc(name string, fn any, params ...string) error {
	if !isIdent(name) || isKeyword(name) {
		return fmt.Errorf("tsr.RegisterFunc: %q is not a valid tsr name", name)
	}
	b, err := in.newFunc(name, fn, params)
	if err != nil {
		return err
	}
	if in.registered == nil {
		in.registered = map[*runtime.Builtin]bool{}
	}
	in.registered[b] = true
	in.globals.Set(name, b)
	return nil
}

// SetDoc sets the help text (shown by the REPL's :help) of a function
// registered with RegisterFunc.
func (in *Interpreter) SetDoc(name, doc string) error {
	v, _ := in.globals.Get(name)
	b, ok := v.(*runtime.Builtin)
	if !ok || !in.registered[b] {
		return fmt.Errorf("tsr.SetDoc: %q is not a registered Go function", name)
	}
	b.Doc = doc
	return nil
}

func (in *Interpreter) newFunc(name string, fn any, names []string) (*runtime.Builtin, error) {
	fv := reflect.ValueOf(fn)
	if fv.Kind() != reflect.Func || fv.IsNil() {
		return nil, fmt.Errorf("tsr.RegisterFunc %s: fn must be a non-nil func, not %T", name, fn)
	}
	if raw, ok := fn.(func(Args) (any, error)); ok {
		if len(names) > 0 {
			return nil, fmt.Errorf("tsr.RegisterFunc %s: a func(Args) (any, error) unpacks its own arguments; give no parameter names", name)
		}
		return runtime.NewBuiltin(name, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (v runtime.Value, err error) {
			defer recoverGo(name, &err)
			r, err := raw(Args{Name: name, Positional: args, Keyword: kwargs, in: in})
			if err != nil {
				return nil, err
			}
			return in.ToValue(r)
		}), nil
	}
	ft := fv.Type()
	first := 0
	if ft.NumIn() > 0 && ft.In(0) == typeContext {
		first = 1
	}
	nparams := ft.NumIn() - first
	var params []param
	for i := 0; i < nparams; i++ {
		p := param{name: fmt.Sprintf("argument %d", i+1), typ: ft.In(first + i)}
		if ft.IsVariadic() && i == nparams-1 {
			p.typ = p.typ.Elem()
		}
		params = append(params, p)
	}
	variadic := ft.IsVariadic()
	nfixed := nparams
	if variadic {
		nfixed--
	}
	if len(names) > 0 {
		if len(names) != nparams {
			return nil, fmt.Errorf("tsr.RegisterFunc %s: %d parameter names for a func with %d parameters", name, len(names), nparams)
		}
		sawOptional := false
		for i, n := range names {
			n = strings.TrimSpace(n)
			p := &params[i]
			if k := strings.IndexByte(n, '='); k >= 0 {
				src := strings.TrimSpace(n[k+1:])
				n = strings.TrimSpace(n[:k])
				def, err := in.evalDefault(name, n, src)
				if err != nil {
					return nil, err
				}
				p.optional, p.def = true, def
			} else if strings.HasSuffix(n, "?") {
				n = strings.TrimSuffix(n, "?")
				p.optional = true
			}
			if !isIdent(n) || isKeyword(n) {
				return nil, fmt.Errorf("tsr.RegisterFunc %s: bad parameter name %q", name, names[i])
			}
			if variadic && i == nparams-1 {
				if p.optional {
					return nil, fmt.Errorf("tsr.RegisterFunc %s: the variadic parameter %s cannot have a default", name, n)
				}
			} else if p.optional {
				sawOptional = true
			} else if sawOptional {
				return nil, fmt.Errorf("tsr.RegisterFunc %s: required parameter %s follows an optional one", name, n)
			}
			p.name = n
		}
	}
	nout := ft.NumOut()
	hasErr := nout > 0 && ft.Out(nout-1) == typeError
	if hasErr {
		nout--
	}
	for i := 0; i < nout; i++ {
		if ft.Out(i) == typeError {
			return nil, fmt.Errorf("tsr.RegisterFunc %s: only the last result may be an error", name)
		}
	}
	named := len(names) > 0
	return runtime.NewBuiltin(name, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (res runtime.Value, err error) {
		defer recoverGo(name, &err)
		in := in
		// Bind positional and keyword arguments to parameter slots.
		slots := make([]runtime.Value, nfixed)
		var rest []runtime.Value
		for i, a := range args {
			switch {
			case i < nfixed:
				slots[i] = a
			case variadic:
				rest = append(rest, a)
			default:
				return nil, runtime.Errorf("TypeError", "%s() takes %d positional arguments but %d were given", name, nfixed, len(args))
			}
		}
		for _, kw := range kwargs {
			found := false
			if named {
				for i := 0; i < nfixed; i++ {
					if params[i].name == kw.Name {
						if slots[i] != nil {
							return nil, runtime.Errorf("TypeError", "%s() got multiple values for argument '%s'", name, kw.Name)
						}
						slots[i] = kw.Value
						found = true
						break
					}
				}
			}
			if !found {
				return nil, runtime.Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", name, kw.Name)
			}
		}
		in0 := make([]reflect.Value, 0, ft.NumIn())
		if first == 1 {
			ctx := context.Background()
			if in.ctx != nil {
				ctx = in.ctx
			}
			in0 = append(in0, reflect.ValueOf(&ctx).Elem())
		}
		for i := 0; i < nfixed; i++ {
			p := params[i]
			a := slots[i]
			if a == nil {
				if !p.optional {
					return nil, runtime.Errorf("TypeError", "%s() missing required argument '%s' (pos %d)", name, p.name, i+1)
				}
				a = p.def
			}
			x := reflect.New(p.typ).Elem()
			if a != nil {
				if err := convertTo(a, x); err != nil {
					return nil, runtime.Errorf("TypeError", "%s(): %s: %v", name, p.name, err)
				}
			}
			in0 = append(in0, x)
		}
		if variadic {
			p := params[nparams-1]
			for j, a := range rest {
				x := reflect.New(p.typ).Elem()
				if err := convertTo(a, x); err != nil {
					return nil, runtime.Errorf("TypeError", "%s(): argument %d: %v", name, nfixed+j+1, err)
				}
				in0 = append(in0, x)
			}
		}
		out := fv.Call(in0)
		if hasErr {
			if e := out[len(out)-1]; !e.IsNil() {
				return nil, e.Interface().(error)
			}
			out = out[:len(out)-1]
		}
		switch len(out) {
		case 0:
			return runtime.None, nil
		case 1:
			return in.ToValue(out[0].Interface())
		}
		tup := make(runtime.Tuple, len(out))
		for i, o := range out {
			v, err := in.ToValue(o.Interface())
			if err != nil {
				return nil, err
			}
			tup[i] = v
		}
		return tup, nil
	}), nil
}

// evalDefault evaluates a parameter default given as tsr source.
func (in *Interpreter) evalDefault(fn, param, src string) (runtime.Value, error) {
	prog, err := lang.Compile("<default of "+fn+"."+param+">", src)
	if err != nil {
		return nil, fmt.Errorf("tsr.RegisterFunc %s: default of %s: %w", fn, param, err)
	}
	th := &runtime.Thread{Name: "default", MaxSteps: 1 << 20}
	v, err := th.ExecIn(prog, runtime.NewGlobals(in.predeclared))
	if err != nil {
		return nil, fmt.Errorf("tsr.RegisterFunc %s: default of %s: %w", fn, param, err)
	}
	return v, nil
}

// recoverGo turns a panic in a host function into an InternalError.
func recoverGo(name string, err *error) {
	if r := recover(); r != nil {
		msg := fmt.Sprint(r)
		if e, ok := r.(error); ok {
			msg = e.Error()
		}
		*err = runtime.Errorf("InternalError", "panic in Go function %s: %s", name, msg)
	}
}

// isKeyword reports whether s is a reserved word of the language (the
// lexer's list, LANGUAGE.md §1-3), which a program cannot use as a name.
func isKeyword(s string) bool {
	switch s {
	case "fn", "if", "else", "for", "in", "while", "break", "continue", "return", "try", "catch",
		"assert", "import", "as", "and", "or", "not", "true", "false", "none":
		return true
	}
	return false
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || (i > 0 && '0' <= r && r <= '9') {
			continue
		}
		return false
	}
	return true
}
