package browser

func opener(link string) (string, []string) { return "open", []string{link} }
