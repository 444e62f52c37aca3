package depfloor

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// floors are the lowest versions allowed, and why.
var floors = map[string]struct{ min, why string }{
	"golang.org/x/image": {"v0.43.0", "image decoders' advisories fixed in v0.43.0 (the tray decodes icons)"},
	"golang.org/x/net":   {"v0.62.0", "html and http2 advisories: keep x/net current"},
}

func TestDependencyFloors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]string{}
	for line := range strings.SplitSeq(string(b), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && strings.HasPrefix(f[1], "v") {
			have[f[0]] = f[1]
		}
	}
	for mod, fl := range floors {
		v, ok := have[mod]
		if !ok {
			continue // no longer used
		}
		if less(v, fl.min) {
			t.Errorf("go.mod requires %s %s, below %s: %s; run go get %s@latest", mod, v, fl.min, fl.why, mod)
		}
	}
}

// less compares vMAJOR.MINOR.PATCH versions (a pre-release suffix is
// ignored: it only matters within one patch version).
func less(a, b string) bool {
	pa, pb := parts(a), parts(b)
	for i := range pa {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return false
}

func parts(v string) [3]int {
	var out [3]int
	v, _, _ = strings.Cut(strings.TrimPrefix(v, "v"), "-")
	for i, s := range strings.SplitN(v, ".", 3) {
		out[i], _ = strconv.Atoi(s)
	}
	return out
}
