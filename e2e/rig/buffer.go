//go:build unix

package rig

import "github.com/buildstation/buildstation/internal/testsupport/testwait"

// Buffer is a station's output, written by exec's copier goroutine while
// the test reads it: testwait's, named here so that an e2e test finds its
// whole harness in one package.
type Buffer = testwait.Buffer

// Tail is the last n bytes of s, marked as cut when it is: enough of a
// long log for a failure message.
func Tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
