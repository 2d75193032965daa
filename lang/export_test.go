package lang

// LendingMethods exposes lendingMethods to the external tests.
var LendingMethods = lendingMethods
