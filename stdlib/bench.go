package stdlib

import (
	"sort"
	"time"

	"github.com/tsrlang/tsr/runtime"
)

// The bench module: timeit.

func init() {
	registerModule("bench", "Benchmarking helpers.", map[string]runtime.Value{
		"timeit": moduleFunc("bench", "timeit", "timeit(fn, iters=10, warmup=1): call fn() warmup times untimed, then iters times; returns the named tuple (min, median, max) of the wall times in milliseconds (median: the mean of the middle two for even iters). Devices are synchronised around each run (the cpu needs none).", benchTimeit),
	})
}

// benchTimeit is bench.timeit(fn, iters=10, warmup=1): it calls fn()
// warmup times untimed, then iters times, timing each call with the
// monotonic clock, and returns runtime.NamedTuple "timeit" with fields
// (min, median, max) in milliseconds, so that it both unpacks as a
// 3-tuple and reads as t.median (LANGUAGE.md section 8). iters < 1 or
// warmup < 0 is a ValueError; an error raised by fn propagates.
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
	sort.Float64s(ms)
	median := ms[iters/2]
	if iters%2 == 0 {
		median = (ms[iters/2-1] + ms[iters/2]) / 2
	}
	return &runtime.NamedTuple{TypeName: "timeit", Fields: []string{"min", "median", "max"},
		Tuple: runtime.Tuple{runtime.Float(ms[0]), runtime.Float(median), runtime.Float(ms[iters-1])}}, nil
}
