package browser

// rundll32's FileProtocolHandler opens a link without a console or a shell.
func opener(link string) (string, []string) {
	return "rundll32", []string{"url.dll,FileProtocolHandler", link}
}
