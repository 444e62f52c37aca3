package keychain

import (
	"errors"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/source"
)

// token_env wins over the keychain, and an empty variable says so.
func TestTokenEnv(t *testing.T) {
	src := config.Source{Kind: "github", Repo: "a/b", TokenEnv: "BS_TEST_TOKEN"}
	t.Setenv("BS_TEST_TOKEN", "ghp_x")
	if tok, err := Token(src); err != nil || tok != "ghp_x" {
		t.Fatalf("Token = %q, %v", tok, err)
	}
	t.Setenv("BS_TEST_TOKEN", "")
	if _, err := Token(src); !errors.Is(err, source.ErrNoToken) || !strings.Contains(err.Error(), "BS_TEST_TOKEN") {
		t.Fatalf("empty variable: %v", err)
	}
}

// A machine with no Secret Service (no session bus: a headless CI box)
// gets an error that says to use token_env; nothing panics.
func TestNoKeychain(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
	err := Set("github", "", "ghp_x")
	if err == nil {
		t.Skip("this machine has a working keychain")
	}
	if !strings.Contains(err.Error(), "token_env") {
		t.Fatalf("Set: %v, want a sentence pointing at token_env", err)
	}
	if _, err := Token(config.Source{Kind: "github"}); !errors.Is(err, source.ErrNoToken) || !strings.Contains(err.Error(), "token_env") {
		t.Fatalf("Token: %v", err)
	}
}

// What login stores, Token reads back.
func TestRoundTrip(t *testing.T) {
	keyring.MockInit()
	if err := Set("linear", "", "lin_x"); err != nil {
		t.Fatal(err)
	}
	if tok, err := Token(config.Source{Kind: "linear"}); err != nil || tok != "lin_x" {
		t.Fatalf("Token = %q, %v", tok, err)
	}
	if _, err := Token(config.Source{Kind: "github"}); !errors.Is(err, source.ErrNoToken) {
		t.Fatalf("no github token: %v", err)
	}
}

// A source on another host (GitHub Enterprise) never gets the
// github.com token: tokens are kept per host (#33 item 11).
func TestTokenKeyedByHost(t *testing.T) {
	keyring.MockInit()
	if err := Set("github", "", "ghp_dotcom"); err != nil {
		t.Fatal(err)
	}
	ghe := config.Source{Kind: "github", Repo: "a/b", APIURL: "https://ghe.example.com/api/v3"}
	if tok, err := Token(ghe); !errors.Is(err, source.ErrNoToken) {
		t.Fatalf("Token(GHE) = %q, %v; want no token, not github.com's", tok, err)
	}
	if err := Set("github", "ghe.example.com", "ghe_tok"); err != nil {
		t.Fatal(err)
	}
	if tok, err := Token(ghe); err != nil || tok != "ghe_tok" {
		t.Fatalf("Token(GHE) = %q, %v", tok, err)
	}
	if tok, err := Token(config.Source{Kind: "github", Repo: "a/b"}); err != nil || tok != "ghp_dotcom" {
		t.Fatalf("Token(github.com) = %q, %v", tok, err)
	}
	if tok, err := Token(config.Source{Kind: "github", Repo: "a/b", APIURL: "https://api.github.com"}); err != nil || tok != "ghp_dotcom" {
		t.Fatalf("Token(api.github.com named) = %q, %v", tok, err)
	}
}
