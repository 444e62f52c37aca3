package config

import (
	"reflect"
	"strings"
	"testing"
)

// The dashboard's Phone settings are written as the file's [phone] table:
// a new one at the end, a changed one in place of the old (the rest of the
// file, comments too, as it was), read back as the same table; a bad
// value is refused in one sentence naming the key, and no table at all
// removes it.
func TestSetPhone(t *testing.T) {
	dir := t.TempDir()
	file := `# my station
[[projects]]
name = "web"
path = "` + dir + `"
command = ["agent"]

[phone]
service = "webhook"
url = "https://hooks.example/x"

# the second project
[[projects]]
name = "api"
path = "` + dir + `"
command = ["agent"]
`
	want := map[string]any{"service": "ntfy", "url": "https://ntfy.example", "topic": "builds-k3x9q", "token_env": "NTFY_TOKEN",
		"kinds": []any{"permission", "blocked"}, "quiet": "23:00-07:00", "quiet_kinds": []any{"permission"}}
	out, cfg, err := SetPhone("config.toml", []byte(file), want, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	if strings.Contains(text, "hooks.example") || !strings.Contains(text, "# the second project\n[[projects]]\nname = \"api\"") || !strings.HasPrefix(text, "# my station\n") {
		t.Errorf("the rest of the file changed:\n%s", text)
	}
	if !strings.HasSuffix(text, "\n\n[phone]\nservice = \"ntfy\"\nurl = \"https://ntfy.example\"\ntopic = \"builds-k3x9q\"\ntoken_env = \"NTFY_TOKEN\"\nkinds = [\"permission\", \"blocked\"]\nquiet = \"23:00-07:00\"\nquiet_kinds = [\"permission\"]\n") {
		t.Errorf("the [phone] table is not as written:\n%s", text)
	}
	if len(cfg.Projects) != 2 {
		t.Errorf("projects %+v", cfg.Projects)
	}
	if got := cfg.Phone.Table(); !reflect.DeepEqual(got, want) {
		t.Errorf("read back %v\nwant %v", got, want)
	}
	// Saved again: one table, not two.
	again, _, err := SetPhone("config.toml", out, want, Platform{})
	if err != nil || string(again) != text {
		t.Errorf("saved twice: %v\n%s", err, again)
	}

	bad := map[string]any{"service": "ntfy", "url": "https://ntfy.example", "topic": "no spaces allowed", "quiet": "23:00-07:00"}
	if _, _, err := SetPhone("config.toml", out, bad, Platform{}); err == nil || !strings.HasPrefix(err.Error(), "phone.topic: \"no spaces allowed\" is not an ntfy topic; use up to 58 letters") {
		t.Errorf("a bad topic: %v", err)
	}
	if _, _, err := SetPhone("config.toml", out, map[string]any{"service": "ntfy", "url": "https://ntfy.example", "topic": "t", "quiet": "late"}, Platform{}); err == nil || !strings.Contains(err.Error(), "phone.quiet") {
		t.Errorf("bad quiet hours: %v", err)
	}

	off, cfg, err := SetPhone("config.toml", out, nil, Platform{})
	if err != nil || strings.Contains(string(off), "[phone]") || cfg.Phone.Enabled() || !strings.Contains(string(off), `name = "api"`) {
		t.Errorf("removed: %v\n%s", err, off)
	}

	if _, _, err := SetPhone("config.toml", []byte("phone = { service = \"ntfy\", url = \"https://ntfy.sh\", topic = \"t\" }\n"), want, Platform{}); err == nil || !strings.Contains(err.Error(), "edit it by hand") {
		t.Errorf("an inline table: %v", err)
	}
}
