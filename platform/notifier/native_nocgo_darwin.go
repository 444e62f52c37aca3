//go:build darwin && !cgo

package notifier

// A build without cgo (make cross) cannot reach the notification center:
// pickDarwinBackend never picks it, so these are never called.
const nativeBuilt = false

func bundleID() string      { return "" }
func nativeStart(Options)   {}
func nativePost(message)    {}
func nativeWithdraw(string) {}

// native is never started without cgo; New's wait is never reached.
var native nativeState
