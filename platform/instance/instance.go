package instance

import (
	"bufio"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// ErrRunning is Listen's answer when another tray already serves home.
var ErrRunning = errors.New("a tray is already running")

// ErrNotRunning is Send's answer when no tray answers.
var ErrNotRunning = errors.New("no tray is running")

// Request is what a second instance asks the first to show.
type Request struct {
	// Open is a session id to show the console of; empty shows the
	// dashboard.
	Open string `json:"open,omitempty"`
	// Task and Do are a finished notice's button pressed through its
	// link (a Windows toast's View diff or Merge): Do "diff" shows Task's
	// diff window, "merge" merges its work (the link's key was checked by
	// the sender). Open is then the session the notice named.
	Task string `json:"task,omitempty"`
	Do   string `json:"do,omitempty"`
	// Ping only asks whether a tray answers.
	Ping bool `json:"ping,omitempty"`
	// Quit asks the tray to quit: an installer replacing the program
	// (`service pause`).
	Quit  bool   `json:"quit,omitempty"`
	Token string `json:"token,omitempty"`
}

// timeout bounds one exchange: a wedged tray must not hang the caller.
const timeout = 3 * time.Second

// Server is the running tray's end.
type Server struct {
	ln    net.Listener
	token string
	clean func()
	// release drops the claim (claimTray) after the endpoint is gone.
	release func()
	once    sync.Once
}

// Listen claims the tray for home. It returns ErrRunning when another
// tray holds it; a stale endpoint left by a crashed tray is taken over.
// The claim is an OS object the OS drops with the process (claimTray: a
// lock file on unix, a named mutex on Windows), so two trays started in
// the same instant cannot both win.
func Listen(home string) (*Server, error) {
	release, ok, err := claimTray(home)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrRunning
	}
	s, err := listen(home)
	if err != nil {
		release()
		return nil, err
	}
	s.release = release
	return s, nil
}

// Serve answers requests until ctx ends or Close, calling handle for each
// (on Serve's goroutine; handle must not block long).
func (s *Server) Serve(ctx context.Context, handle func(Request)) error {
	stop := context.AfterFunc(ctx, func() { s.Close() })
	defer stop()
	// Closed (the claim released) before Serve returns: a tray started
	// right after this one quits must find the home free.
	defer s.Close()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("tray endpoint: %w", err)
		}
		s.answer(c, handle)
	}
}

func (s *Server) answer(c net.Conn, handle func(Request)) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(timeout))
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil {
		return
	}
	var r Request
	if json.Unmarshal(line, &r) != nil {
		fmt.Fprintln(c, "bad request")
		return
	}
	if subtle.ConstantTimeCompare([]byte(r.Token), []byte(s.token)) != 1 {
		fmt.Fprintln(c, "bad token")
		return
	}
	if !r.Ping {
		handle(r)
	}
	fmt.Fprintln(c, "ok")
}

// Close stops listening and removes the endpoint.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		err = s.ln.Close()
		if s.clean != nil {
			s.clean()
		}
		if s.release != nil {
			s.release()
		}
	})
	return err
}

// Send hands r to the tray running for home. It wraps ErrNotRunning when
// none answers.
func Send(home string, r Request) error {
	_, err := exchange(home, r)
	return err
}

func exchange(home string, r Request) (string, error) {
	c, token, err := dial(home)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNotRunning, err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(timeout))
	r.Token = token
	b, _ := json.Marshal(r)
	if _, err := c.Write(append(b, '\n')); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNotRunning, err)
	}
	answer, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNotRunning, err)
	}
	if answer != "ok\n" {
		return "", fmt.Errorf("the running tray refused the request: %s", answer)
	}
	return answer, nil
}
