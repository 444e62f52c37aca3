//go:build unix

package tmux

// Available reports whether this machine can run the tmux backend: tmux is
// on the station's PATH.
func Available() bool {
	_, err := tmuxPath()
	return err == nil
}
