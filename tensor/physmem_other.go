//go:build !linux

package tensor

// physicalMemory is the default allocation limit where the machine's RAM is
// not queried: 1 TiB, beyond which no allocation can succeed anyway.
var physicalMemory int64 = 1 << 40
