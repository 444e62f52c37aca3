package config

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// Keys is the one list of what config.toml takes, and the checker reads
// every key it declares: each, written with its default or its example
// where it belongs, is never an unknown key. (The checker refuses what
// Keys lacks, so the two cannot drift apart the other way.)
func TestEveryDeclaredKeyIsRead(t *testing.T) {
	dir := t.TempDir()
	project := "[[projects]]\nname = \"p\"\npath = '" + dir + "'\n"
	around := map[string]string{
		"":               "",
		"defaults":       "[defaults]\n",
		"agents.NAME":    "[agents.x]\n",
		"projects":       project,
		"sources":        project + "[[sources]]\n",
		`prices."MODEL"`: "[prices.\"m\"]\n",
		"hooks":          "[hooks]\n",
		"phone":          "[phone]\n",
	}
	for _, k := range Keys {
		head, ok := around[k.Table]
		if !ok {
			t.Errorf("%s.%s: a table this test does not know", k.Table, k.Name)
			continue
		}
		value := k.Default
		if value == "" {
			value = k.Example
		}
		text := head + k.Name + " = " + value + "\n"
		if k.Table == "projects" && (k.Name == "name" || k.Name == "path") {
			text = project
		}
		_, err := Parse("/h/config.toml", []byte(text), Platform{})
		var e *Error
		if errors.As(err, &e) && e.Problem == "unknown key" {
			t.Errorf("%s.%s is declared in Keys but the checker does not read it: %v", k.Table, k.Name, err)
		}
	}
}

// A key the checker is not told of by Keys is refused, whatever its table.
func TestUndeclaredKeysAreUnknown(t *testing.T) {
	for _, text := range []string{"nope = 1\n", "[defaults]\nnope = 1\n", "[hooks]\nnope = [\"x\"]\n", "[agents.x]\ncommand = [\"x\"]\nnope = 1\n", "[prices.\"m\"]\nnope = 1\n"} {
		_, err := Parse("/h/config.toml", []byte(text), Platform{})
		if err == nil || !strings.Contains(err.Error(), "nope: unknown key; allowed here: ") {
			t.Errorf("%q: %v", text, err)
		}
	}
}

// A declared default is what TOML reads from it, whether the decoder ran
// (it does not for a plain string, so a command line start pays none) or
// not; the shortcut takes a string with an escape or a quote to TOML.
func TestDeclaredDefaultIsTOMLs(t *testing.T) {
	extra := []Key{{Name: "a", Default: `"a\tb"`}, {Name: "b", Default: `"say \"hi\""`}, {Name: "c", Default: `"C:\\x"`}, {Name: "d", Default: `""`}}
	n := 0
	for _, k := range append(slices.Clone(Keys), extra...) {
		if k.Default == "" {
			continue
		}
		var m map[string]any
		if err := toml.Unmarshal([]byte("v = "+k.Default), &m); err != nil {
			t.Fatalf("%s.%s: %v", k.Table, k.Name, err)
		}
		if got := k.declared(); !reflect.DeepEqual(got, m["v"]) {
			t.Errorf("%s.%s = %s: declared %#v, TOML reads %#v", k.Table, k.Name, k.Default, got, m["v"])
		}
		n++
	}
	if n < 20 {
		t.Errorf("%d declared defaults checked", n)
	}
}
