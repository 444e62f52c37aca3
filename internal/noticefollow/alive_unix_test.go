//go:build unix

package noticefollow

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// alive reports whether pid still runs (a zombie does not count).
func alive(pid string) bool {
	n, err := strconv.Atoi(pid)
	if err != nil || syscall.Kill(n, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	return err != nil || !strings.Contains(string(stat), ") Z ")
}
