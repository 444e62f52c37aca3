package client

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Every connection this client opens is proven before any token goes over
// it: the peer must show it holds the token the client is about to send
// (the station token, or the session's), by answering a random nonce with
// an HMAC keyed by that token over the nonce and the address dialed (see
// supervisor/api/prove.go). A station that died leaves station.json
// (and a session its BUILDSTATION_URL) naming a port anyone may bind next;
// whoever holds it gets a challenge and nothing secret.
//
// The proof is made per connection, in the dialer, and not per request: a
// client that lives long (the tray) may reconnect to a port taken over
// meanwhile, and a keep-alive connection, once proven, costs nothing more.

// proveTimeout bounds one proof when the caller's context has no deadline.
const proveTimeout = 10 * time.Second

// NotStationError is a peer that did not prove it holds the token: no
// token was sent to it.
type NotStationError struct {
	Addr string // host:port dialed
	Why  string
}

func (e *NotStationError) Error() string {
	return fmt.Sprintf("the program at %s is not the station (%s), so no token was sent to it", e.Addr, e.Why)
}

// endedError is a station that answers the challenge of a session it no
// longer runs.
type endedError struct{ addr, session string }

func (e *endedError) Error() string {
	return fmt.Sprintf("the station at %s has no live session %s (it has ended), so the session token was not sent", e.addr, e.session)
}

// BusyError is a station that took the connection and closed it before
// answering the challenge: what it does to connections it has no room
// for (a flood's oldest). No token went over it, so trying again is
// safe; it is not a sign that station.json is stale.
type BusyError struct{ Addr string }

func (e *BusyError) Error() string {
	return fmt.Sprintf("the station is busy (at %s it closed the connection before answering); try again in a moment", e.Addr)
}

// busyTries and busyPause bound how often a connection the station
// closed at once is tried again: three tries within about a second.
const busyTries = 3

var busyPause = 300 * time.Millisecond

// dialProven dials addr and has the peer prove it holds c.Token before the
// connection carries a call (wire.go). A connection the station
// closed before answering is tried again, a few times (BusyError).
func (c *Client) dialProven(ctx context.Context, network, addr string) (net.Conn, error) {
	for try := 1; ; try++ {
		var d net.Dialer
		conn, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		err = c.prove(ctx, conn, addr)
		if err == nil {
			return conn, nil
		}
		conn.Close()
		var busy *BusyError
		if !errors.As(err, &busy) || try == busyTries {
			return nil, err
		}
		select {
		case <-time.After(time.Duration(try) * busyPause):
		case <-ctx.Done():
			return nil, err
		}
	}
}

// closedEarly reports whether err is the peer ending the connection
// before it sent anything.
func closedEarly(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNABORTED)
}

// prove sends the challenge over conn, reads the answer and checks it.
func (c *Client) prove(ctx context.Context, conn net.Conn, addr string) error {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(proveTimeout)
	}
	conn.SetDeadline(deadline)
	defer conn.SetDeadline(time.Time{})
	nb := make([]byte, 32)
	if _, err := rand.Read(nb); err != nil {
		return fmt.Errorf("prove the station: %w", err)
	}
	nonce := hex.EncodeToString(nb)
	b, _ := json.Marshal(apitype.ProveRequest{Session: c.SessionID, Nonce: nonce})
	req := &request{method: "POST", path: apitype.ProvePath, header: [][2]string{{"Content-Type", "application/json"}}, body: b}
	if err := writeRequest(conn, addr, req); err != nil {
		if closedEarly(err) {
			return &BusyError{Addr: addr}
		}
		return &NotStationError{Addr: addr, Why: "it does not take the challenge: " + err.Error()}
	}
	br := bufio.NewReader(conn)
	resp, err := readResponse(br)
	if err != nil {
		if closedEarly(err) && br.Buffered() == 0 {
			return &BusyError{Addr: addr}
		}
		return &NotStationError{Addr: addr, Why: "it does not answer the challenge over HTTP"}
	}
	r, _ := bodyOf(resp, br, req.method)
	body, err := io.ReadAll(io.LimitReader(r, 64<<10))
	if err != nil || br.Buffered() > 0 {
		// Bytes past the answer would be read as the next request's.
		return &NotStationError{Addr: addr, Why: "its answer to the challenge is not one HTTP response"}
	}
	return c.checkProof(resp, body, addr, nonce)
}

// checkProof reads the station's answer to the challenge.
func (c *Client) checkProof(resp *response, body []byte, addr, nonce string) error {
	switch {
	case resp.StatusCode == 200:
	case resp.StatusCode == 404 && c.SessionID != "":
		return &endedError{addr: addr, session: c.SessionID}
	case resp.StatusCode == 503:
		// The station's own "busy, retry": callers retry it as usual.
		// No token was sent either way.
		resp.Body = io.NopCloser(bytes.NewReader(body))
		return readError(resp)
	default:
		return &NotStationError{Addr: addr, Why: "it answers the challenge with " + resp.Status}
	}
	var pr apitype.ProveResponse
	if err := json.Unmarshal(body, &pr); err != nil {
		return &NotStationError{Addr: addr, Why: "its proof is not readable"}
	}
	got, err := hex.DecodeString(pr.Proof)
	m := hmac.New(sha256.New, []byte(c.Token))
	m.Write(apitype.ProofMessage(addr, nonce))
	if err != nil || !hmac.Equal(got, m.Sum(nil)) {
		return &NotStationError{Addr: addr, Why: "it could not prove it holds the token"}
	}
	return nil
}

// proofError turns a failed proof into the sentence a person reads: for
// the CLI and the tray, station.json is stale; for an agent, its station
// is gone from that address.
func (c *Client) proofError(err error) (error, bool) {
	var ns *NotStationError
	var ended *endedError
	switch {
	case errors.As(err, &ended):
		return ended, true
	case !errors.As(err, &ns):
		return nil, false
	case c.home != "":
		return fmt.Errorf("no station is running here (station.json is stale: the program at %s could not prove it holds this home's station token: %s, so the token was not sent to it); start one with \"buildstation daemon\"", ns.Addr, ns.Why), true
	case c.SessionID != "":
		return fmt.Errorf("the program at %s is not this session's station (%s), so the session token was not sent to it; "+
			"if the station restarted on another port, the session cannot reach it: requeue the task", c.base(), ns.Why), true
	}
	return ns, true
}
