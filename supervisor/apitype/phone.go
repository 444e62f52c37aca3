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
