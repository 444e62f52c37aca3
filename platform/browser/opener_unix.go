//go:build unix && !darwin

package browser

func opener(link string) (string, []string) { return "xdg-open", []string{link} }
