package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// ProjectSettings are every key `project set` takes for p (ProjectKeys, in
// their declared order), each with the value p's table writes and the one
// that applies when it writes none: what the dashboard's Edit project
// shows, one field per key, so it offers every key the station takes.
func (c *Config) ProjectSettings(p Project) []supervisor.ProjectSetting {
	out := make([]supervisor.ProjectSetting, 0, len(ProjectKeys))
	for _, k := range ProjectKeys {
		out = append(out, supervisor.ProjectSetting{Key: k, Type: projectKeyType(k), Value: p.Written[k], Default: c.projectDefault(k)})
	}
	return out
}

// projectDefault is what key k is for a project that does not set it:
// the [defaults] value for a setting, the declared one for a project's
// own key ("" when it has none: no gate, no setup).
func (c *Config) projectDefault(k string) string {
	for _, key := range Keys {
		if key.Table == "defaults" && key.Name == k && key.show != nil {
			return key.show(c.Defaults)
		}
	}
	if v, ok := declaredDefaults()["projects"][k]; ok {
		return writtenValue(v) // as declared in Keys
	}
	return ""
}

// ShortDuration is d as a person writes it: "5m", "1h30m", "90s".
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// writtenValue is a value of config.toml as `project set` takes it back:
// a string as it is, an array of strings as words (quoted where a word
// holds a space), a number or boolean as TOML writes it.
func writtenValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		words := make([]string, 0, len(x))
		for _, w := range x {
			s := fmt.Sprint(w)
			if s == "" || strings.ContainsAny(s, " \t\"'") {
				s = strconv.Quote(s)
			}
			words = append(words, s)
		}
		return strings.Join(words, " ")
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
