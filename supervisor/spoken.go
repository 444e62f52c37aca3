package supervisor

import (
	"fmt"
	"time"
)

// Spoken says a duration the way a person would: "40 s", "5 min",
// "5 min 30 s", "1 h 5 min". Every face a person reads (notices, cards,
// the CLI's own lines) says durations so; JSON keeps Go's form.
func Spoken(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		m, sec := int(d.Minutes()), int(d.Seconds())%60
		if sec == 0 {
			return fmt.Sprintf("%d min", m)
		}
		return fmt.Sprintf("%d min %d s", m, sec)
	}
	h, m := int(d.Hours()), int(d.Minutes())%60
	if m == 0 {
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// SpokenText is a duration as written by Go or by a person ("5m0s",
// "5m") said as Spoken does; text that is no duration stays as it is.
func SpokenText(s string) string {
	d, err := time.ParseDuration(s)
	if err != nil {
		return s
	}
	return Spoken(d)
}
