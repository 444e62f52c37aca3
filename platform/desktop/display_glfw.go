//go:build cgo && !darwin

package desktop

import (
	"io"
	"log"
	"os"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// DisplayProblem opens and closes a hidden 1×1 window with the OpenGL 2.1
// context the dashboard needs, and says in a few words why that failed
// ("" when it worked): without a display, or on a machine with no OpenGL
// 2.1 (a Windows VM's basic display driver), the dashboard would panic
// deep in GLFW. The tray checks once as it starts, so a person hears it at
// once rather than on the first click. It runs on the main thread, like
// every GLFW call.
func DisplayProblem() (msg string) {
	const noDisplay = "no display to open a window on (is DISPLAY or WAYLAND_DISPLAY set, and does that display accept this user?)"
	const noGL = "this display has no OpenGL 2.1, which the tray's windows need (on a virtual machine, turn on 3D acceleration or install a GPU driver)"
	// GLFW reports through the standard logger as well as by errors and
	// panics: the person gets one sentence from us instead.
	log.SetOutput(io.Discard)
	defer log.SetOutput(os.Stderr)
	stage := noDisplay
	defer func() {
		if r := recover(); r != nil {
			msg = stage
		}
	}()
	if err := glfw.Init(); err != nil {
		return noDisplay
	}
	defer glfw.Terminate()
	glfw.WindowHint(glfw.Visible, glfw.False) // panics when Init found no display
	glfw.WindowHint(glfw.ContextVersionMajor, 2)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	stage = noGL
	w, err := glfw.CreateWindow(1, 1, "display check", nil, nil)
	if err != nil {
		return noGL
	}
	w.Destroy()
	return ""
}
