package config

import (
	"fmt"
	"slices"
	"strings"
)

// Table is p as [phone] keys and values, the way the dashboard's Phone
// settings read and send them (strings, and arrays of strings); nil when
// p forwards nothing. Defaults are left out, as a person writes the
// table.
func (p Phone) Table() map[string]any {
	if !p.Enabled() {
		return nil
	}
	t := map[string]any{"service": p.Service, "url": p.URL}
	if p.Topic != "" {
		t["topic"] = p.Topic
	}
	if p.TokenEnv != "" {
		t["token_env"] = p.TokenEnv
	}
	if p.Service == PhoneWebhook && p.Shape != "" && p.Shape != "json" {
		t["shape"] = p.Shape
	}
	if !slices.Equal(p.Kinds, DefaultPhoneKinds) {
		t["kinds"] = anyList(p.Kinds)
	}
	if len(p.Projects) > 0 {
		t["projects"] = anyList(p.Projects)
	}
	if p.Quiet.Set {
		t["quiet"] = p.Quiet.String()
	}
	if len(p.QuietKinds) > 0 {
		t["quiet_kinds"] = anyList(p.QuietKinds)
	}
	return t
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// SetPhone writes t as the file's [phone] table and returns the new text
// and its parsed config: t is checked first as config.toml's table is
// (the error names the key and what to write, and nothing is written);
// the old table's lines are replaced by the new table at the end of the
// file, the rest of the file staying as the person wrote it. A t without
// a service removes the table: nothing goes to a phone. plat is the
// machine's defaults the file is read with (Config.Platform).
func SetPhone(path string, data []byte, t map[string]any, plat Platform) ([]byte, *Config, error) {
	cfg, err := Parse(path, data, plat)
	if err != nil {
		return nil, nil, err
	}
	off := t == nil || t["service"] == nil || t["service"] == ""
	if !off {
		if _, err := CheckPhone(t); err != nil {
			return nil, nil, err
		}
	}
	text := string(data)
	lines := strings.SplitAfter(text, "\n")
	header, ok := locate(text)["phone"]
	switch {
	case ok && strings.TrimSpace(strings.SplitN(lines[header-1], "#", 2)[0]) == "[phone]":
		end := header
		for end < len(lines) && !isTableHeader(lines[end]) {
			end++
		}
		if end < len(lines) {
			// The comments just above the next table are its own.
			for end > header && isCommentOrBlank(lines[end-1]) {
				end--
			}
		}
		start := header - 1
		if start > 0 && strings.TrimSpace(lines[start-1]) == "" {
			start--
		}
		lines = slices.Delete(lines, start, end)
	case ok || cfg.Phone.Enabled():
		return nil, nil, fmt.Errorf("%s:%d: phone is not written as a [phone] table; edit it by hand", path, header)
	}
	out := strings.Join(lines, "")
	if !off {
		out += phoneText(out, t)
	}
	ncfg, err := Parse(path, []byte(out), plat)
	if err != nil {
		return nil, nil, err
	}
	return []byte(out), ncfg, nil
}

// phoneText is t as a [phone] table, in the keys' declared order, set
// apart from what the file already holds by a blank line.
func phoneText(before string, t map[string]any) string {
	var b strings.Builder
	switch {
	case before == "":
	case !strings.HasSuffix(before, "\n"):
		b.WriteString("\n\n")
	case !strings.HasSuffix(before, "\n\n"):
		b.WriteString("\n")
	}
	b.WriteString("[phone]\n")
	for _, k := range keysOf("phone") {
		switch v := t[k].(type) {
		case string:
			if v = strings.TrimSpace(v); v != "" {
				b.WriteString(k + " = " + tomlString(v) + "\n")
			}
		case []any, []string:
			var q []string
			for _, s := range toStrings(v) {
				q = append(q, tomlString(s))
			}
			b.WriteString(k + " = [" + strings.Join(q, ", ") + "]\n")
		}
	}
	return b.String()
}

func toStrings(v any) []string {
	switch v := v.(type) {
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return nil
}
