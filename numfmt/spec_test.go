package numfmt

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"strconv"
	"testing"
)

type formatGolden struct {
	Python string `json:"python"`
	Format []struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
		Spec  string          `json:"spec"`
		Out   *string         `json:"out"`
		Error *struct {
			Kind string `json:"kind"`
			Msg  string `json:"msg"`
		} `json:"error"`
	} `json:"format"`
	Repr []struct {
		Bits string `json:"bits"`
		Repr string `json:"repr"`
	} `json:"repr"`
}

func loadFormatGolden(t *testing.T) *formatGolden {
	t.Helper()
	data, err := os.ReadFile("testdata/format_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g formatGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

func fromBits(t *testing.T, hex string) float64 {
	t.Helper()
	u, err := strconv.ParseUint(hex, 16, 64)
	if err != nil {
		t.Fatalf("bad bits %q: %v", hex, err)
	}
	return math.Float64frombits(u)
}

// TestFormatSpecGolden checks FormatSpec against CPython's format() on
// thousands of (value, spec) pairs made by testdata/gen_golden.py.
func TestFormatSpecGolden(t *testing.T) {
	g := loadFormatGolden(t)
	if len(g.Format) < 1000 {
		t.Fatalf("only %d golden cases", len(g.Format))
	}
	fails := 0
	for _, c := range g.Format {
		var x any
		var s string
		switch c.Type {
		case "float":
			_ = json.Unmarshal(c.Value, &s)
			x = fromBits(t, s)
		case "int":
			_ = json.Unmarshal(c.Value, &s)
			i, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			x = i
		case "bool":
			var b bool
			_ = json.Unmarshal(c.Value, &b)
			x = b
		case "str":
			_ = json.Unmarshal(c.Value, &s)
			x = s
		}
		got, err := FormatSpec(x, c.Spec)
		switch {
		case c.Error != nil:
			var fe *Error
			if !errors.As(err, &fe) || fe.ErrorKind() != c.Error.Kind || fe.Error() != c.Error.Msg {
				t.Errorf("format(%s %v, %q) = %q, %v; want %s: %s", c.Type, x, c.Spec, got, err, c.Error.Kind, c.Error.Msg)
				fails++
			}
		case err != nil || got != *c.Out:
			t.Errorf("format(%s %v, %q) = %q, %v; want %q", c.Type, x, c.Spec, got, err, *c.Out)
			fails++
		}
		if fails > 40 {
			t.Fatal("too many failures")
		}
	}
}

// TestFloatReprGolden checks FloatRepr against Python's repr(float) on
// special values, threshold values and thousands of random doubles.
func TestFloatReprGolden(t *testing.T) {
	g := loadFormatGolden(t)
	if len(g.Repr) < 1000 {
		t.Fatalf("only %d repr cases", len(g.Repr))
	}
	for _, c := range g.Repr {
		f := fromBits(t, c.Bits)
		if got := FloatRepr(f); got != c.Repr {
			t.Errorf("FloatRepr(%v [%s]) = %q, want %q", f, c.Bits, got, c.Repr)
		}
	}
}

func TestFloatReprExamples(t *testing.T) {
	tenth := 0.1 // a variable, so that 0.1 + 0.2 is rounded as float64 arithmetic
	cases := []struct {
		f    float64
		want string
	}{
		{1, "1.0"}, {0.1, "0.1"}, {100, "100.0"}, {1e-5, "1e-05"}, {1e-4, "0.0001"},
		{1e16, "1e+16"}, {1e15, "1000000000000000.0"}, {1.5e300, "1.5e+300"},
		{math.Copysign(0, -1), "-0.0"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"},
		{math.NaN(), "nan"}, {tenth + 0.2, "0.30000000000000004"}, {5e-324, "5e-324"},
		{-2.5, "-2.5"}, {123456789.0, "123456789.0"},
	}
	for _, c := range cases {
		if got := FloatRepr(c.f); got != c.want {
			t.Errorf("FloatRepr(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestFormatSpecExamples(t *testing.T) {
	cases := []struct {
		x          any
		spec, want string
	}{
		{2.675, ".2f", "2.67"}, {0.5, ".0f", "0"}, {1.5, ".0f", "2"}, {2.5, ".0f", "2"},
		{1e16, "", "1e+16"}, {0.25, ".1%", "25.0%"}, {1234567.891, ",.2f", "1,234,567.89"},
		{int64(1234567), "_", "1_234_567"}, {int64(255), "#x", "0xff"}, {3, ">4", "   3"},
		{math.Inf(-1), "08.2f", "-0000inf"}, {math.NaN(), ">6", "   nan"},
		{math.Copysign(0, -1), ".1f", "-0.0"}, {math.Copysign(0, -1), "z.1f", "0.0"},
		{"ab", "*^6", "**ab**"}, {true, "", "true"}, {false, "d", "0"},
		{12.0, ".3", "12.0"}, {123.0, ".3", "1.23e+02"}, {int64(1234), "09,", "0,001,234"},
	}
	for _, c := range cases {
		got, err := FormatSpec(c.x, c.spec)
		if err != nil || got != c.want {
			t.Errorf("FormatSpec(%v, %q) = %q, %v; want %q", c.x, c.spec, got, err, c.want)
		}
	}
}

func TestFormatSpecErrors(t *testing.T) {
	cases := []struct {
		x          any
		spec, kind string
	}{
		{1.5, "d", "ValueError"}, {int64(1), ".2", "ValueError"}, {"s", "+", "ValueError"},
		{int64(-1), "c", "OverflowError"}, {[]int{1}, "", "TypeError"},
		{1.0, "1000000000000", "ValueError"}, {1.0, ".1000000000000f", "ValueError"},
	}
	for _, c := range cases {
		_, err := FormatSpec(c.x, c.spec)
		var ek interface{ ErrorKind() string }
		if !errors.As(err, &ek) || ek.ErrorKind() != c.kind {
			t.Errorf("FormatSpec(%v, %q) error = %v, want kind %s", c.x, c.spec, err, c.kind)
		}
	}
	_, err := FormatSpec(1.5, "d")
	if want := "Unknown format code 'd' for object of type 'float'"; err == nil || err.Error() != want {
		t.Errorf("error message %v, want %q", err, want)
	}
}

// TestFormatSpecNoPanic feeds arbitrary specs (bytes from the grammar's
// alphabet plus a few others) to every value kind: any outcome but a panic
// or an error without a kind is fine.
func TestFormatSpecNoPanic(t *testing.T) {
	alphabet := []rune("<>^=+- z#0123456789,_.dfFeEgGnxXobcs%€\x00")
	values := []any{0.0, math.Copysign(0, -1), 1.5, math.NaN(), math.Inf(-1), 1e300,
		int64(0), int64(-7), int64(math.MinInt64), int64(0x10ffff), "héllo", true}
	state := uint64(1)
	rnd := func(n int) int {
		state = state*6364136223846793005 + 1442695040888963407
		return int((state >> 33) % uint64(n))
	}
	for i := 0; i < 20000; i++ {
		r := make([]rune, rnd(9))
		for j := range r {
			r[j] = alphabet[rnd(len(alphabet))]
		}
		v := values[rnd(len(values))]
		_, err := FormatSpec(v, string(r))
		if err != nil {
			var ek interface{ ErrorKind() string }
			if !errors.As(err, &ek) || ek.ErrorKind() == "" {
				t.Fatalf("FormatSpec(%v, %q): error without a kind: %v", v, string(r), err)
			}
		}
	}
}
