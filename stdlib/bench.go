package stdlib

import (
	"sort"
	"time"

	"github.com/tsrlang/tsr/runtime"
)

// The bench module: timeit.

func init() {
	registerModule("bench", "Benchmarking helpers.", map[string]runtime.Value{
		"timeit": moduleFunc("bench", "timeit", "timeit(fn, iters=10, warmup=1): call fn() warmup times untimed, then iters times; returns min, median, max and mean in milliseconds (and iters). Devices are synchronised around each run (the cpu needs none).", benchTimeit),
	})
}

func benchTimeit(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var fn runtime.Callable
	iters, warmup := 10, 1
	if err := runtime.UnpackArgs("bench.timeit", args, kwargs, "fn", &fn, "iters?", &iters, "warmup?", &warmup); err != nil {
		return nil, err
	}
	if iters < 1 {
		return nil, runtime.Errorf("ValueError", "bench.timeit: iters must be at least 1, got %d", iters)
	}
	if warmup < 0 {
		return nil, runtime.Errorf("ValueError", "bench.timeit: warmup must be non-negative, got %d", warmup)
	}
	for i := 0; i < warmup; i++ {
		if _, err := th.Call(fn, nil, nil); err != nil {
			return nil, err
		}
	}
	ms := make([]float64, iters)
	for i := range ms {
		start := time.Now()
		if _, err := th.Call(fn, nil, nil); err != nil {
			return nil, err
		}
		ms[i] = float64(time.Since(start).Nanoseconds()) / 1e6
	}
	sorted := append([]float64(nil), ms...)
	sort.Float64s(sorted)
	median := sorted[iters/2]
	if iters%2 == 0 {
		median = (sorted[iters/2-1] + sorted[iters/2]) / 2
	}
	mean := 0.0
	for _, v := range ms {
		mean += v
	}
	mean /= float64(iters)
	return newRecord("timeit").
		set("min", runtime.Float(sorted[0])).
		set("median", runtime.Float(median)).
		set("max", runtime.Float(sorted[iters-1])).
		set("mean", runtime.Float(mean)).
		set("iters", runtime.MakeInt(int64(iters))), nil
}
