// Package backends is tsr's kernel registry: it knows which kernels exist
// for each (op, dtype, device), which CPU features each one needs, and
// which one was chosen on this machine.
//
// Kernel packages (backends/cpu, later backends/cuda...) register ordered
// candidates from their init functions; a candidate is eligible when the
// machine's CPU tier (possibly lowered by the TSR_CPU environment variable)
// meets its Requires tier. Among eligible candidates the one with the highest
// Priority wins, and the choice is stored in a dispatch table, so a lookup on
// the hot path is one map read (callers usually cache the result in a
// package-level function variable at init time).
//
// Every op must have a pure-Go candidate (Requires == TierGeneric), so
// resolution never fails on a machine that has the op registered at all.
package backends

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"golang.org/x/sys/cpu"
)

// Tier is a CPU feature level. Higher tiers imply the lower ones.
type Tier int

const (
	// TierGeneric needs nothing: pure Go.
	TierGeneric Tier = iota
	// TierAVX2 needs AVX2 and FMA3 (Haswell, Zen 1 and later).
	TierAVX2
	// TierAVX512 needs AVX-512 F, BW, VL and DQ (Skylake-X, Zen 4 and later),
	// on top of TierAVX2.
	TierAVX512
)

// String returns the name used by TSR_CPU: "generic", "avx2" or "avx512".
func (t Tier) String() string {
	switch t {
	case TierGeneric:
		return "generic"
	case TierAVX2:
		return "avx2"
	case TierAVX512:
		return "avx512"
	}
	return fmt.Sprintf("Tier(%d)", int(t))
}

// ParseTier parses a tier name as accepted by TSR_CPU ("generic"/"purego",
// "avx2", "avx512"; case-insensitive). It returns an error for any other name.
func ParseTier(s string) (Tier, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "generic", "purego", "go":
		return TierGeneric, nil
	case "avx2":
		return TierAVX2, nil
	case "avx512":
		return TierAVX512, nil
	}
	return TierGeneric, fmt.Errorf("backends: unknown CPU tier %q (want generic, avx2 or avx512)", s)
}

// HardwareTier reports the highest tier this CPU (and OS, via XSAVE state
// checks in golang.org/x/sys/cpu) supports, ignoring TSR_CPU.
func HardwareTier() Tier {
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL &&
		cpu.X86.HasAVX512DQ && cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		return TierAVX512
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		return TierAVX2
	}
	return TierGeneric
}

var (
	tierOnce  sync.Once
	tierValue Tier
	tierErr   error
)

// CPUTier is the tier used for dispatch: HardwareTier, lowered to the value
// of the TSR_CPU environment variable when that is set to a lower tier
// (a higher TSR_CPU than the hardware supports is ignored). An invalid
// TSR_CPU value is ignored and reported by TierError.
func CPUTier() Tier {
	tierOnce.Do(func() {
		tierValue = HardwareTier()
		if s, ok := os.LookupEnv("TSR_CPU"); ok && s != "" {
			t, err := ParseTier(s)
			if err != nil {
				tierErr = err
				return
			}
			if t < tierValue {
				tierValue = t
			}
		}
	})
	return tierValue
}

// TierError reports an invalid TSR_CPU value (nil when TSR_CPU is unset or valid).
func TierError() error {
	CPUTier()
	return tierErr
}

// Supported reports whether a kernel needing tier t may run on this machine
// (ignoring TSR_CPU): tests use it to run every variant the hardware allows.
func Supported(t Tier) bool { return t <= HardwareTier() }

// Key identifies an op: Op is a kernel name such as "sgemm" or "add",
// DType a tsr dtype name such as "float32", Device a device name ("cpu").
type Key struct {
	Op, DType, Device string
}

func (k Key) String() string { return k.Op + "/" + k.DType + "/" + k.Device }

// Candidate is one implementation of an op.
type Candidate struct {
	// Name describes the implementation, e.g. "avx512-12x32" or "go".
	Name string
	// Impl is the implementation; its concrete type is fixed per op by the
	// registering package (usually a func type) and asserted by the caller.
	Impl any
	// Requires is the CPU tier needed to run Impl.
	Requires Tier
	// Priority orders eligible candidates: the highest wins.
	Priority int
	// MinSize is the smallest problem size (in elements or FLOPs, as the op
	// defines) for which this candidate should be used; Select honours it,
	// Lookup ignores it.
	MinSize int
}

type entry struct {
	all    []Candidate // every registered candidate, in priority order
	usable []Candidate // those eligible at CPUTier, in priority order
}

var (
	mu    sync.RWMutex
	table = map[Key]*entry{}
)

// Register adds a candidate for key. It panics on a nil Impl or a duplicate
// candidate name for the same key: both are programming errors caught at
// start-up. Registration is meant for init functions; the dispatch entry for
// key is re-resolved immediately, so lookups always see every registration.
func Register(key Key, c Candidate) {
	if c.Impl == nil {
		panic("backends: Register " + key.String() + "/" + c.Name + ": nil Impl")
	}
	mu.Lock()
	defer mu.Unlock()
	e := table[key]
	if e == nil {
		e = &entry{}
		table[key] = e
	}
	for _, o := range e.all {
		if o.Name == c.Name {
			panic("backends: duplicate candidate " + key.String() + "/" + c.Name)
		}
	}
	e.all = append(e.all, c)
	sort.SliceStable(e.all, func(i, j int) bool { return e.all[i].Priority > e.all[j].Priority })
	tier := CPUTier()
	e.usable = e.usable[:0]
	for _, o := range e.all {
		if o.Requires <= tier {
			e.usable = append(e.usable, o)
		}
	}
}

// Lookup returns the chosen candidate for key: the highest-priority one the
// dispatch tier allows. ok is false when no eligible candidate is registered.
func Lookup(key Key) (c Candidate, ok bool) {
	mu.RLock()
	defer mu.RUnlock()
	e := table[key]
	if e == nil || len(e.usable) == 0 {
		return Candidate{}, false
	}
	return e.usable[0], true
}

// Select is Lookup for a problem of the given size: the highest-priority
// eligible candidate whose MinSize <= size.
func Select(key Key, size int) (c Candidate, ok bool) {
	mu.RLock()
	defer mu.RUnlock()
	e := table[key]
	if e == nil {
		return Candidate{}, false
	}
	for _, o := range e.usable {
		if o.MinSize <= size {
			return o, true
		}
	}
	return Candidate{}, false
}

// Candidates returns every registered candidate for key (eligible or not),
// highest priority first. Tests use it to check every variant.
func Candidates(key Key) []Candidate {
	mu.RLock()
	defer mu.RUnlock()
	e := table[key]
	if e == nil {
		return nil
	}
	return append([]Candidate(nil), e.all...)
}

// Choice is one row of Active: the chosen kernel for an op.
type Choice struct {
	Key      Key
	Name     string
	Requires Tier
}

// Active lists the chosen kernel for every registered op, sorted by key,
// for `tsr version` and bug reports.
func Active() []Choice {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Choice, 0, len(table))
	for k, e := range table {
		if len(e.usable) == 0 {
			continue
		}
		out = append(out, Choice{Key: k, Name: e.usable[0].Name, Requires: e.usable[0].Requires})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Key, out[j].Key
		if a.Device != b.Device {
			return a.Device < b.Device
		}
		if a.Op != b.Op {
			return a.Op < b.Op
		}
		return a.DType < b.DType
	})
	return out
}

// Summary is a one-line description of the CPU tier and the GEMM kernels,
// e.g. "cpu tier avx512 (hardware avx512); sgemm=avx512-12x32 dgemm=avx512-12x16".
func Summary() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "cpu tier %s (hardware %s)", CPUTier(), HardwareTier())
	first := true
	for _, c := range Active() {
		if c.Key.Op != "sgemm" && c.Key.Op != "dgemm" {
			continue
		}
		if first {
			sb.WriteString(";")
			first = false
		}
		fmt.Fprintf(&sb, " %s=%s", c.Key.Op, c.Name)
	}
	return sb.String()
}

// KernelTable lists the active kernel of every other registered op (GEMM
// is in Summary), one line per device and dtype, ops grouped by the
// variant chosen, e.g. "cpu float32: avx512: add div ...; go: ...".
func KernelTable() []string {
	type group struct {
		key   string
		names []string            // variant names in first-seen order
		ops   map[string][]string // variant -> ops
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, c := range Active() {
		if c.Key.Op == "sgemm" || c.Key.Op == "dgemm" {
			continue
		}
		k := c.Key.Device + " " + c.Key.DType
		g := byKey[k]
		if g == nil {
			g = &group{key: k, ops: map[string][]string{}}
			byKey[k] = g
			groups = append(groups, g)
		}
		if _, ok := g.ops[c.Name]; !ok {
			g.names = append(g.names, c.Name)
		}
		g.ops[c.Name] = append(g.ops[c.Name], c.Key.Op)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].key < groups[j].key })
	var out []string
	for _, g := range groups {
		var sb strings.Builder
		sb.WriteString(g.key + ":")
		for i, n := range g.names {
			if i > 0 {
				sb.WriteString(";")
			}
			fmt.Fprintf(&sb, " %s: %s", n, strings.Join(g.ops[n], " "))
		}
		out = append(out, sb.String())
	}
	return out
}
