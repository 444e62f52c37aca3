package architecture

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor/config"
)

var update = flag.Bool("update", false, "rewrite the generated part of docs/configuration.md")

// The generated part of docs/configuration.md, between these lines.
const (
	generatedStart = "<!-- generated from supervisor/config Keys"
	generatedEnd   = "<!-- end of generated -->"
)

// TestConfigurationPageIsGenerated fails when docs/configuration.md's key
// reference is not what supervisor/config's Keys and Tables make of it, so
// a key, a default or its description is written in one place, the code.
// It lives here, not in supervisor/config, whose tests register a fake
// agent profile that the page must not name.
func TestConfigurationPageIsGenerated(t *testing.T) {
	path := filepath.Join("..", "..", "..", "docs", "configuration.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	start := strings.Index(page, generatedStart)
	end := strings.Index(page, generatedEnd)
	if start < 0 || end < start {
		t.Fatalf("%s lacks the lines %q … %q around its generated part", path, generatedStart, generatedEnd)
	}
	start += strings.Index(page[start:], "\n") + 1
	want := config.Reference()
	if page[start:end] == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(page[:start]+want+page[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is not what supervisor/config's Keys say; run go test ./internal/checks/architecture -run TestConfigurationPageIsGenerated -update", path)
}
