package secretenv

import (
	"os"
	"slices"
	"strings"
	"sync"
)

var (
	mu   sync.Mutex
	kept = map[string]string{} // name as found in the environment → value
)

// Take removes each variable names names (in any case: Windows reads
// names without case) from this process's environment, keeping its value
// for Getenv: no process started afterwards inherits it. On Linux it also
// blanks the values in the environment block the process started with
// (best effort). A name not set is left alone; Take may be called again
// with more names (a reloaded config's).
func Take(names []string) {
	if len(names) == 0 {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	var taken []string
	for _, kv := range os.Environ() {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, k) }) {
			continue // Windows' "=C:=C:\…" entries have no name
		}
		kept[k] = v
		os.Unsetenv(k)
		taken = append(taken, k)
	}
	if len(taken) > 0 {
		blankStartEnv(taken)
	}
}

// Getenv is the variable name's value: from the environment, else the one
// Take kept; "" when neither has one.
func Getenv(name string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	mu.Lock()
	defer mu.Unlock()
	if v, ok := kept[name]; ok {
		return v
	}
	for k, v := range kept {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}
