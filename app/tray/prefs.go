package tray

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
)

// prefs reads the dashboard's preferences (the notification settings) in
// the tray process, which runs no Fyne app: the file Fyne keeps them in,
// read again for each notice, so a setting changed in the dashboard counts
// at once. Notices are rare; a read is cheap.
type prefs struct{ path string }

// fynePrefs finds the preferences file of app id where Fyne 2.7 keeps it
// (fyne.io/fyne/v2/internal/app.RootConfigDir, joined with the app id);
// TestPrefsPathIsFynes checks it against Fyne's own.
func fynePrefs(id string) prefs {
	var root string
	switch runtime.GOOS {
	case "darwin":
		h, _ := os.UserHomeDir()
		root = filepath.Join(h, "Library", "Preferences", "fyne")
	case "windows":
		h, _ := os.UserHomeDir()
		root = filepath.Join(h, "AppData", "Roaming", "fyne")
	default:
		d, _ := os.UserConfigDir()
		root = filepath.Join(d, "fyne")
	}
	return prefs{path: filepath.Join(root, id, "preferences.json")}
}

// bool is key's value, or fallback when the file or the key is missing or
// not a boolean.
func (p prefs) bool(key string, fallback bool) bool {
	b, err := os.ReadFile(p.path)
	if err != nil {
		return fallback
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return fallback
	}
	v, ok := m[key].(bool)
	if !ok {
		return fallback
	}
	return v
}
