//go:build darwin && cgo

package tray

// #include <stdlib.h>
import "C"

// buildstationURLEvent is called by the kAEGetURL handler
// (url_darwin.go) with the link's text.
//
//export buildstationURLEvent
func buildstationURLEvent(url *C.char) { deliverURL(C.GoString(url)) }
