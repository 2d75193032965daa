//go:build linux

package tensor

import "syscall"

// physicalMemory is the default allocation limit: half the machine's RAM
// (from sysinfo(2)), so that one runaway request fails cleanly instead of
// exhausting the machine.
var physicalMemory = func() int64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil || si.Totalram == 0 {
		return 1 << 40
	}
	return int64(si.Totalram) * int64(si.Unit) / 2
}()
