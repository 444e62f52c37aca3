package supervisor

import "time"

// PhoneNote is a notice owed to the phone's service (internal/phone),
// kept in the station's outbox until the service takes it: a service that
// does not answer, or a station that restarts meanwhile, loses none.
type PhoneNote struct {
	Seq    int64     // the outbox's number for it, oldest first
	Note   []byte    // the notice as internal/phone wrote it (JSON)
	Tries  int       // sends that failed so far
	Queued time.Time // when it was kept
}

// PhoneLink is how the phone's service ([phone] in config.toml) stands,
// as status and the tray say it. Absent from Status when no [phone] table
// is set.
type PhoneLink struct {
	Service string `json:"service"` // "ntfy", "webhook (slack)"
	Host    string `json:"host"`    // the server's or the webhook's host: "ntfy.example"
	OK      bool   `json:"ok"`
	// Since is when the service stopped taking notices; zero while it
	// takes them.
	Since  time.Time `json:"since,omitzero"`
	Queued int       `json:"queued"` // notices kept in the outbox for a retry
	Error  string    `json:"error,omitempty"`
}

// Away is the one line that says the service does not take notices, as
// status and the tray say it: "Phone: ntfy.example not answering since
// 03:12 — retrying"; "" while it answers.
func (l PhoneLink) Away() string {
	if l.OK || l.Service == "" {
		return ""
	}
	who := l.Host
	if who == "" {
		who = l.Service
	}
	line := "Phone: " + who + " not answering"
	if !l.Since.IsZero() {
		line += " since " + l.Since.Local().Format("15:04")
	}
	return line + " — retrying"
}
