//go:build darwin && cgo

package notifier

// #include <stdlib.h>
import "C"

// The notification center's delegate and completion handlers
// (native_darwin.go) call these.

//export buildstationNotifyClicked
func buildstationNotifyClicked(link *C.char) { native.clicked(C.GoString(link)) }

//export buildstationNotifyActed
func buildstationNotifyActed(link, action *C.char) {
	native.acted(C.GoString(link), C.GoString(action))
}

//export buildstationNotifyAuthorized
func buildstationNotifyAuthorized(granted C.int, err *C.char) {
	native.authorized(granted != 0, C.GoString(err))
}

//export buildstationNotifyFailed
func buildstationNotifyFailed(ident, err *C.char) { native.failed(C.GoString(ident), C.GoString(err)) }
