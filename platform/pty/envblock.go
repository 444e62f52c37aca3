package pty

import (
	"errors"
	"sort"
	"strings"
	"unicode/utf16"
)

// envBlock builds the environment block CreateProcess takes with
// CREATE_UNICODE_ENVIRONMENT: NUL-terminated UTF-16 "key=value" strings, then
// one more NUL. Keys are unique ignoring case (Windows looks them up that
// way; the last one wins, as exec.Cmd does), the block is sorted by key
// ignoring case as the documentation asks, and SYSTEMROOT is added from
// systemRoot when missing: many Windows DLLs fail to load without it.
// Entries such as "=C:=C:\src" (a drive's current directory) are kept.
func envBlock(env []string, systemRoot string) ([]uint16, error) {
	type kv struct{ key, entry string }
	index := make(map[string]int)
	var list []kv
	for _, e := range env {
		if strings.IndexByte(e, 0) >= 0 {
			return nil, errors.New("environment variable holds a NUL byte")
		}
		// A leading '=' belongs to the key ("=C:"), so look past it.
		k := e
		if i := strings.IndexByte(e[min(1, len(e)):], '='); i >= 0 {
			k = e[:i+min(1, len(e))]
		}
		if k == "" {
			continue
		}
		uk := strings.ToUpper(k)
		if i, ok := index[uk]; ok {
			list[i] = kv{uk, e}
			continue
		}
		index[uk] = len(list)
		list = append(list, kv{uk, e})
	}
	if _, ok := index["SYSTEMROOT"]; !ok && systemRoot != "" {
		list = append(list, kv{"SYSTEMROOT", "SYSTEMROOT=" + systemRoot})
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].key < list[j].key })
	var block []uint16
	for _, e := range list {
		block = append(block, utf16.Encode([]rune(e.entry))...)
		block = append(block, 0)
	}
	if len(block) == 0 {
		block = append(block, 0) // an empty block is two NULs
	}
	return append(block, 0), nil
}
