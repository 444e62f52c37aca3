package demo

import (
	"testing"

	"github.com/buildstation/buildstation/internal/fakeagent"
)

// Every demo script must parse: a typo would block a demo task at once.
func TestScriptsParse(t *testing.T) {
	for _, task := range Tasks {
		for _, s := range []string{task.Script, task.Retry} {
			if s == "" {
				continue
			}
			if _, err := fakeagent.Parse(s); err != nil {
				t.Errorf("%s: %v", task.Title, err)
			}
		}
	}
}
