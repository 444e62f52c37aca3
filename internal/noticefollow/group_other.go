//go:build !unix

package noticefollow

import "os/exec"

// ownGroup leaves the hook as it is: a timeout kills the hook's own process
// (exec.CommandContext), and WaitDelay stops waiting for its children.
func ownGroup(*exec.Cmd) {}
