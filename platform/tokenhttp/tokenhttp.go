package tokenhttp

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// MaxBody bounds one answer's body. GitHub caps an issue's body at 65,536
// characters, so a page of 100 issues stays well under it; a bigger answer
// is a broken or hostile service, refused rather than held in memory.
const MaxBody = 32 << 20

// maxBody is MaxBody, smaller in tests.
var maxBody int64 = MaxBody

// Timeout bounds one request when the caller gives no client.
const Timeout = 30 * time.Second

// ErrTooBig is an answer longer than MaxBody.
var ErrTooBig = errors.New("the answer is larger than 32 MiB")

// Loopback reports whether host (a URL's Hostname) is this machine.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckURL says why u may not carry a token: it must be https, or http
// to a loopback address.
func CheckURL(u *url.URL) error {
	switch {
	case u.Host == "":
		return fmt.Errorf("%q names no host", u.String())
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && Loopback(u.Hostname()):
		return nil
	case u.Scheme == "http":
		return fmt.Errorf("%s sends the token in plain text; use https (plain http is taken only for a loopback address)", u.Redacted())
	}
	return fmt.Errorf("%q is not an http(s) URL", u.String())
}

// Client is an http.Client that sets header: value on requests to api's
// scheme and host alone; hc is the client to wrap (nil: one with
// Timeout). It fails when api may not carry a token (CheckURL).
func Client(api, header, value string, hc *http.Client) (*http.Client, error) {
	u, err := url.Parse(api)
	if err != nil {
		return nil, fmt.Errorf("api address %q: %w", api, err)
	}
	if err := CheckURL(u); err != nil {
		return nil, err
	}
	out := &http.Client{Timeout: Timeout}
	if hc != nil {
		*out = *hc
	}
	base := out.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	out.Transport = &transport{base: base, scheme: u.Scheme, host: strings.ToLower(u.Host), header: header, value: value}
	return out, nil
}

// transport adds the token for the API's host only and bounds bodies.
type transport struct {
	base          http.RoundTripper
	scheme, host  string
	header, value string
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if req.URL.Scheme == t.scheme && strings.EqualFold(req.URL.Host, t.host) {
		req.Header.Set(t.header, t.value)
	} else {
		// Another host (a redirect, a link in an answer): it gets no
		// token, whatever the caller set.
		req.Header.Del(t.header)
		req.Header.Del("Authorization")
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = &bounded{r: resp.Body, left: maxBody}
	return resp, nil
}

// bounded fails a body that goes past its limit.
type bounded struct {
	r    io.ReadCloser
	left int64
}

func (b *bounded) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly the limit from a longer one.
		var one [1]byte
		if n, _ := b.r.Read(one[:]); n > 0 {
			return 0, ErrTooBig
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *bounded) Close() error { return b.r.Close() }
