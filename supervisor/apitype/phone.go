package apitype

// PhoneTest asks the station to send one real notice to the phone's
// service (POST /v1/phone/test). Phone, when set, is a [phone] table to
// test instead of config.toml's (the dashboard's form before it is
// saved): its keys and values as config.toml writes them.
type PhoneTest struct {
	Phone map[string]any `json:"phone,omitempty"`
}

// PhoneTestResult is what the service answered.
type PhoneTestResult struct {
	Service string `json:"service"` // "ntfy", "webhook (slack)"
	Answer  string `json:"answer"`  // the service's answer, one line
}

// PhoneSettings is config.toml's [phone] table, read (GET
// /v1/phone/settings) and saved (POST /v1/phone/settings) by the
// dashboard's Phone settings: its keys and values as config.toml writes
// them; nil or no service: no table (nothing goes to a phone).
type PhoneSettings struct {
	Phone map[string]any `json:"phone"`
}

// The [phone] table's words, which the dashboard's Phone settings offer
// and supervisor/config checks: the services, the kinds of notice, a
// webhook's shapes.
const (
	PhoneNtfy    = "ntfy"
	PhoneWebhook = "webhook"
)

// PhoneKinds are the kinds a [phone] table may name: a permission or a
// question a session asks, a blocked task, a finished one, and the
// station's own (a paused queue, a board it cannot reach).
var PhoneKinds = []string{"permission", "question", "blocked", "finished", "station"}

// DefaultPhoneKinds is kinds when the table does not say.
var DefaultPhoneKinds = []string{"permission", "question", "blocked", "station"}

// PhoneShapes are a webhook's body shapes.
var PhoneShapes = []string{"json", "slack", "discord"}
