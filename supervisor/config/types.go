package config

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The helpers below read one TOML value of an expected type. A wrong type is
// recorded as a located problem and reported as not ok, so the caller keeps
// the default and checking carries on to find the earliest problem.

// keep stores a value read into *dst when it was read well: a bad one
// leaves the default there, its problem recorded already.
func keep[T any](dst *T) func(T, bool) {
	return func(v T, ok bool) {
		if ok {
			*dst = v
		}
	}
}

func (c *checker) str(key keyPath, v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		c.fail(key, nil, "is "+describe(v)+", not a string", `write it in quotes, like "text"`)
	}
	return s, ok
}

func (c *checker) integer(key keyPath, v any) (int, bool) {
	n, ok := v.(int64)
	if !ok {
		c.fail(key, nil, "is "+describe(v)+", not a whole number", "write a number without quotes, like 4")
		return 0, false
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		c.fail(key, nil, fmt.Sprintf("%d is out of range", n), "write a smaller number")
		return 0, false
	}
	return int(n), true
}

// sessions is a count of sessions (max_sessions, concurrency): a whole
// number of at least one.
func (c *checker) sessions(key keyPath, v any) (int, bool) {
	n, ok := c.integer(key, v)
	if ok && n < 1 {
		c.fail(key, nil, fmt.Sprintf("%d is less than 1", n), "allow at least one session")
	}
	return n, ok
}

func (c *checker) boolean(key keyPath, v any) (bool, bool) {
	b, ok := v.(bool)
	if !ok {
		c.fail(key, nil, "is "+describe(v)+", not true or false", "write true or false without quotes")
	}
	return b, ok
}

func (c *checker) strings(key keyPath, v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		c.fail(key, nil, "is "+describe(v)+", not an array of strings", `write it like ["a", "b"]`)
		return nil, false
	}
	out := make([]string, 0, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			c.fail(key, nil, fmt.Sprintf("item %d is %s, not a string", i, describe(e)), `write it like ["a", "b"]`)
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func (c *checker) duration(key keyPath, v any) (time.Duration, bool) {
	s, ok := v.(string)
	if !ok {
		c.fail(key, nil, "is "+describe(v)+", not a duration", durationFix)
		return 0, false
	}
	d, err := parseDuration(s)
	if err != nil {
		c.fail(key, err, err.Error(), durationFix)
		return 0, false
	}
	return d, true
}

func (c *checker) oneOf(key keyPath, v any, what string, allowed []string) (string, bool) {
	s, ok := c.str(key, v)
	if !ok {
		return "", false
	}
	if !slices.Contains(allowed, s) {
		c.fail(key, nil, fmt.Sprintf("%q is not %s", s, what), "use one of "+quoteList(allowed))
		return "", false
	}
	return s, true
}

func (c *checker) table(key keyPath, v any, want string) (map[string]any, bool) {
	t, ok := v.(map[string]any)
	if !ok {
		c.fail(key, nil, "is "+describe(v)+", not a table", "write it as "+want)
	}
	return t, ok
}

// tables reads [[projects]], or its inline form projects = [{…}, …].
func (c *checker) tables(key keyPath, v any) ([]map[string]any, bool) {
	switch list := v.(type) {
	case []map[string]any:
		return list, true
	case []any:
		out := make([]map[string]any, 0, len(list))
		for i, e := range list {
			t, ok := c.table(key.at(i), e, "a [[projects]] table")
			if !ok {
				return nil, false
			}
			out = append(out, t)
		}
		return out, true
	}
	c.fail(key, nil, "is "+describe(v)+", not a list of tables", "write each project as a [[projects]] table")
	return nil, false
}

// describe names a TOML value's type the way a user would, for messages.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", v)
	case int64, float64:
		return fmt.Sprintf("the number %v", v)
	case bool:
		return fmt.Sprintf("%v", v)
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	default:
		return "a date or time"
	}
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// sizeFix says how to write a size.
const sizeFix = `write a size like "64MiB", "512KiB" or "1GiB" (or a number of bytes), 64KiB or more`

// size reads a number of bytes: a whole number, or a string with a unit
// (B, KiB, MiB, GiB; KB, MB, GB count in thousands).
func (c *checker) size(key keyPath, v any) (int64, bool) {
	var n int64
	switch v := v.(type) {
	case int64:
		n = v
	case string:
		s := strings.TrimSpace(v)
		i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
		if i < 0 {
			i = len(s)
		}
		units := map[string]int64{"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "KB": 1e3, "MB": 1e6, "GB": 1e9}
		num, err := strconv.ParseInt(s[:i], 10, 64)
		unit, known := units[strings.TrimSpace(s[i:])]
		if err != nil || !known || num > math.MaxInt64/unit {
			c.fail(key, nil, fmt.Sprintf("%q is not a size", v), sizeFix)
			return 0, false
		}
		n = num * unit
	default:
		c.fail(key, nil, "is "+describe(v)+", not a size", sizeFix)
		return 0, false
	}
	if n < 64<<10 {
		c.fail(key, nil, fmt.Sprintf("%d bytes is too small", n), sizeFix)
		return 0, false
	}
	return n, true
}
