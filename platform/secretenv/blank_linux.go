package secretenv

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// blankStartEnv overwrites the values of names with NUL bytes in the
// environment block this process was started with (between env_start and
// env_end of /proc/self/stat), which is what /proc/self/environ shows to
// any process of the same user. Go copied the block at start and never
// reads it again; a C getenv (a cgo build) then finds the variable empty.
// Best effort: a kernel that refuses the write leaves the block as it was.
func blankStartEnv(names []string) {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return
	}
	// The command name (field 2) is in parentheses and may hold anything.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return
	}
	fs := strings.Fields(string(stat[i+1:])) // fields 3…
	if len(fs) < 49 {
		return
	}
	start, err1 := strconv.ParseInt(fs[50-3], 10, 64)
	end, err2 := strconv.ParseInt(fs[51-3], 10, 64)
	if err1 != nil || err2 != nil || start <= 0 || end <= start || end-start > 16<<20 {
		return
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer mem.Close()
	block := make([]byte, end-start)
	if _, err := mem.ReadAt(block, start); err != nil {
		return
	}
	changed := false
	off := 0
	for _, kv := range bytes.Split(block, []byte{0}) {
		if k, v, ok := bytes.Cut(kv, []byte{'='}); ok && len(v) > 0 && isOneOf(string(k), names) {
			vstart := off + len(k) + 1
			clear(block[vstart : vstart+len(v)])
			changed = true
		}
		off += len(kv) + 1
	}
	if changed {
		_, _ = mem.WriteAt(block, start)
	}
}

func isOneOf(k string, names []string) bool {
	for _, n := range names {
		if n == k {
			return true
		}
	}
	return false
}
