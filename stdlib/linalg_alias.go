package stdlib

import "github.com/tsrlang/tsr/runtime"

// linalg members that are other names for existing ops; forwarded at call time.
func init() {
	linalgAlias := map[string]string{"matmul": "matmul", "diagonal": "diagonal"}
	m := modules["linalg"]
	if m == nil {
		panic("stdlib: linalg_alias.go initialised before linalg.go")
	}
	{
		for name, target := range linalgAlias {
			name, target := name, target
			if _, ok := m.Members[name]; ok {
				continue
			}
			doc := "linalg." + name + ": the same as " + target
			if name == "diagonal" {
				m.Members[name] = moduleFunc("linalg", name, "diagonal(A, offset=0, dim1=-2, dim2=-1): the diagonal of each matrix (a view).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
					var A tensorArg
					var offset, dim1, dim2 runtime.Value = runtime.Int(0), runtime.Int(-2), runtime.Int(-1)
					if err := runtime.UnpackArgs("linalg.diagonal", args, kwargs, "A", &A, "offset?", &offset, "dim1?", &dim1, "dim2?", &dim2); err != nil {
						return nil, err
					}
					return callMethod(th, args0(args, kwargs, "A"), "diagonal", []runtime.Value{offset, dim1, dim2}, nil)
				})
				continue
			}
			m.Members[name] = moduleFunc("linalg", name, doc, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
				return callGlobal(th, target, args, kwargs)
			})
		}
		m.Members["vander"] = moduleFunc("linalg", "vander", "vander(x, N=none): the Vandermonde matrix [..., n, N] with columns x**0, x**1, ..., x**(N-1) (N defaults to n), by cumulative products as PyTorch.", linalgVander)
	}
}
