package runtime

// vmState is the VM's per-thread state (call stack, step counter, cancel
// flag). Placeholder: the VM implementation replaces this file.
type vmState struct{}
