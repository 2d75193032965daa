//go:build race

package cpu

// raceEnabled: the race detector is on (sync.Pool then drops entries at
// random, so allocation counts are meaningless).
const raceEnabled = true
