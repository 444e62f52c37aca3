package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Client calls a station's API. The tray, the CLI and the agent side all use
// it, so every route has one method here.
type Client struct {
	BaseURL string // e.g. http://127.0.0.1:49152
	Token   string // the station token, or a session token for Agent*
	// ShowsNotices marks this client's event stream as one whose notices
	// reach a person (the tray), so the station shows none of its own.
	ShowsNotices bool

	// home, when set by Dial, names the home folder in "no station"
	// errors.
	home string
	// SessionID, when set, makes the client an agent's: the station
	// proves it holds this session's token rather than the station's.
	SessionID string

	// idle holds the connections between calls (wire.go); each was
	// proven before a token went over it (prove.go).
	idle pool

	// urlFile is the session's station.url (rediscover.go); mu guards
	// BaseURL, which rediscover may change.
	urlFile string
	mu      sync.Mutex

	// spare is the connection Dial proved the station on, kept for the
	// first call (so a command line verb dials and proves once, not
	// twice); a call that comes later than spareFor, or to another
	// address, dials its own, and an unused spare is closed then.
	spareMu   sync.Mutex
	spare     net.Conn
	spareAddr string
}

// spareFor is how long Dial's proven connection waits for the first call.
const spareFor = 2 * time.Second

// requestTimeout bounds one ordinary call; streams (Events, Attach) have none.
const requestTimeout = 30 * time.Second

// Dial returns a client for the station running in home, from its
// station.json and token. It checks that the station is there — that the
// program at station.json's address proves it holds the token — so a stale
// station.json reads as "no station" rather than a later odd failure, and
// the token is never sent to whoever holds a dead station's port.
func Dial(home string) (*Client, error) {
	if err := apitype.CheckHome(home); err != nil {
		return nil, err
	}
	sf, err := apitype.ReadStationFile(home)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, noStation(home)
	}
	if err != nil {
		return nil, fmt.Errorf("%w; restart the station with \"buildstation daemon\"", err)
	}
	tok, err := apitype.ReadToken(home)
	if err != nil {
		return nil, fmt.Errorf("%w; restart the station with \"buildstation daemon\"", err)
	}
	u, err := url.Parse(sf.URL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("station.json in %s has a bad url %q; restart the station with \"buildstation daemon\"", home, sf.URL)
	}
	c := &Client{BaseURL: strings.TrimRight(sf.URL, "/"), Token: tok, home: home}
	ctx, cancel := context.WithTimeout(context.Background(), dialTimeout)
	defer cancel()
	conn, err := c.dialProven(ctx, "tcp", u.Host)
	var busy *apitype.Error
	switch {
	case errors.As(err, &busy):
		// The station answered, busy: the next call retries.
	case err != nil:
		return nil, c.transportError(err)
	default:
		c.keepSpare(conn, u.Host)
	}
	return c, nil
}

// keepSpare keeps conn, proven for addr, for the first call, and closes
// it after spareFor if no call took it.
func (c *Client) keepSpare(conn net.Conn, addr string) {
	c.spareMu.Lock()
	c.spare, c.spareAddr = conn, addr
	c.spareMu.Unlock()
	time.AfterFunc(spareFor, func() {
		if conn := c.takeSpare(""); conn != nil {
			conn.Close()
		}
	})
}

// takeSpare returns Dial's proven connection if it is for addr and has not
// been taken or expired; nil otherwise. With addr "" it takes it anyway.
func (c *Client) takeSpare(addr string) net.Conn {
	c.spareMu.Lock()
	defer c.spareMu.Unlock()
	conn := c.spare
	if conn == nil || addr != "" && addr != c.spareAddr {
		return nil
	}
	c.spare = nil
	return conn
}

// dialTimeout bounds Dial's check that the station is there.
const dialTimeout = 5 * time.Second

// FromEnv returns the agent side's client, from the variables the station
// sets in every session.
func FromEnv() (*Client, error) {
	for _, k := range []string{apitype.EnvURL, apitype.EnvToken, apitype.EnvSessionID} {
		if os.Getenv(k) == "" {
			return nil, fmt.Errorf("%s is not set; run this from inside a Build Station session", k)
		}
	}
	return &Client{
		BaseURL:   strings.TrimRight(os.Getenv(apitype.EnvURL), "/"),
		Token:     os.Getenv(apitype.EnvToken),
		SessionID: os.Getenv(apitype.EnvSessionID),
		urlFile:   urlFileFromEnv(),
	}, nil
}

// ErrNoStation is what Dial's error wraps when no station answers for the
// home: a verb that can do its work without one (project add) tells it
// from a station that answers badly.
var ErrNoStation = errors.New("no station is running")

func noStation(home string) error {
	return fmt.Errorf(`%w for %s; start one with "buildstation daemon"`, ErrNoStation, home)
}

// newRequest builds an authenticated request; body, when non-nil, is sent
// as JSON.
func (c *Client) newRequest(method, path string, body any) (*request, error) {
	req := &request{method: method, path: path, header: [][2]string{{"Authorization", "Bearer " + c.Token}}}
	if c.SessionID == "" && c.home != "" {
		// A station-token call made from inside a session: say so.
		if id := os.Getenv(apitype.EnvSessionID); id != "" {
			req.header = append(req.header, [2]string{apitype.OriginHeader, id})
		}
	}
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		req.body = b
		req.header = append(req.header, [2]string{"Content-Type", "application/json"})
	}
	return req, nil
}

// do sends one request and decodes a 2xx answer into out (when non-nil).
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	_, err := c.doHeader(ctx, method, path, body, out)
	return err
}

// doHeader is do that also returns the answer's header. The call has
// requestTimeout at most.
func (c *Client) doHeader(ctx context.Context, method, path string, body, out any) (textproto.MIMEHeader, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	req, err := c.newRequest(method, path, body)
	if err != nil {
		return textproto.MIMEHeader{}, err
	}
	resp, err := c.send(ctx, req)
	if err != nil {
		return textproto.MIMEHeader{}, err
	}
	defer resp.Body.Close() // before cancel: a body read to its end keeps its connection
	if resp.StatusCode/100 != 2 {
		return resp.Header, readError(resp)
	}
	b, err := io.ReadAll(resp.Body)
	if err == nil && out != nil {
		err = json.NewDecoder(bytes.NewReader(b)).Decode(out)
	}
	if err != nil {
		return resp.Header, fmt.Errorf("read the station's answer to %s %s: %w", method, path, err)
	}
	return resp.Header, nil
}

// send sends one request. An agent's client whose station does not
// answer as its station at the address it has looks for the address the
// session's station.url names, once (rediscover.go).
func (c *Client) send(ctx context.Context, req *request) (*response, error) {
	for try := 0; ; try++ {
		base := c.base()
		resp, err := c.roundTrip(ctx, base, req)
		if err == nil {
			return resp, nil
		}
		if try > 0 || !unreached(err) || !c.rediscover(base) {
			return nil, c.transportError(err)
		}
	}
}

// transportError turns "nothing listens there" into the sentence that says
// to start a station.
func (c *Client) transportError(err error) error {
	if perr, ok := c.proofError(err); ok {
		return perr
	}
	var apiErr *apitype.Error
	if errors.As(err, &apiErr) {
		return apiErr
	}
	var busy *BusyError
	if errors.As(err, &busy) {
		return busy
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		if c.home != "" {
			return noStation(c.home)
		}
		return fmt.Errorf(`the station at %s does not answer; check that it is running with "buildstation status"`, c.base())
	}
	return fmt.Errorf("reach the station at %s: %w", c.base(), err)
}

// readError decodes the station's {"error": ...} answer into an *apitype.Error.
func readError(resp *response) error {
	var body apitype.ErrorBody
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if json.Unmarshal(b, &body) != nil || body.Error == "" {
		body.Error = fmt.Sprintf("the station answered %s; see the station log", resp.Status)
	}
	return &apitype.Error{Status: resp.StatusCode, Message: body.Error}
}

// esc escapes one path segment (an id or a project name).
func esc(s string) string { return url.PathEscape(s) }
