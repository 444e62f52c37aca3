//go:build !darwin

package notifier

// Warning is "" here: only macOS chooses among notifiers that differ in
// whether a click opens the session (notify_darwin.go).
func Warning() string { return "" }
