//go:build darwin && cgo

package desktop

// #include <stdlib.h>
import "C"

// buildstationURLEvent is called by the kAEGetURL handler
// (links_darwin.go) with the link's text.
//
//export buildstationURLEvent
func buildstationURLEvent(url *C.char) { deliverURL(C.GoString(url)) }
