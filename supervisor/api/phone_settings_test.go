package api_test

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The dashboard's Phone settings save through the API: the [phone] table
// lands in config.toml (the projects kept), reads back the same, and is
// in force at once; a bad value is refused in one sentence naming the
// key, and the file is left as it was.
func TestPhoneSettingsRoundTrip(t *testing.T) {
	st, e := newBoardEnv(t)
	cl := e.client(stationToken)
	ctx := context.Background()
	if got, err := cl.PhoneSettings(ctx); err != nil || got != nil {
		t.Fatalf("before: %v, %v; want no table", got, err)
	}
	want := map[string]any{"service": "ntfy", "url": "https://ntfy.example", "topic": "builds-k3x9q", "token_env": "NTFY_TOKEN",
		"kinds": []any{"permission", "question", "blocked"}, "quiet": "23:00-07:00", "quiet_kinds": []any{"permission"}}
	saved, err := cl.SetPhoneSettings(ctx, want)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(saved, want) {
		t.Errorf("saved %v\nwant %v", saved, want)
	}
	path := st.Config().Path
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.Contains(text, "[phone]\nservice = \"ntfy\"\nurl = \"https://ntfy.example\"\ntopic = \"builds-k3x9q\"\ntoken_env = \"NTFY_TOKEN\"\nkinds = [\"permission\", \"question\", \"blocked\"]\nquiet = \"23:00-07:00\"\nquiet_kinds = [\"permission\"]\n") ||
		!strings.Contains(text, "name = \"web\"") {
		t.Errorf("config.toml:\n%s", text)
	}
	if got, err := cl.PhoneSettings(ctx); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("read back %v, %v", got, err)
	}
	if p := st.Config().Phone; p.Topic != "builds-k3x9q" || !p.Quiet.Set {
		t.Errorf("in force: %+v", p)
	}

	bad := map[string]any{"service": "ntfy", "url": "ntfy.example", "topic": "builds-k3x9q"}
	if _, err := cl.SetPhoneSettings(ctx, bad); err == nil || !strings.Contains(err.Error(), `phone.url: "ntfy.example" is not an http(s) URL; write the server's or the webhook's address`) {
		t.Errorf("a bad url: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != text {
		t.Errorf("a refused table changed config.toml:\n%s", after)
	}
	if p := st.Config().Phone; p.URL != "https://ntfy.example" {
		t.Errorf("a refused table is in force: %+v", p)
	}
}
