package api

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// attachSession serves the attach stream described in supervisor/apitype/attach.go.
func (s *Server) attachSession(w http.ResponseWriter, r *http.Request) {
	if !isUpgrade(r) {
		w.Header().Set("Upgrade", apitype.AttachProtocol)
		writeError(w, http.StatusUpgradeRequired, `attach is a raw stream; send Connection: Upgrade and Upgrade: `+apitype.AttachProtocol+` (or use "buildstation session attach")`)
		return
	}
	id := r.PathValue("id")
	// Attach before the upgrade so an unknown session is an ordinary 404.
	att, err := s.areas.Sessions.Attach(id)
	if err != nil {
		s.stationError(w, r, err, sessionNotFound(id))
		return
	}
	var closeOnce sync.Once
	closeAtt := func() { closeOnce.Do(att.Close) }
	defer closeAtt()

	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		s.stationError(w, r, fmt.Errorf("hijack attach connection: %w", err), "")
		return
	}
	defer conn.Close()
	// The server's read/write timeouts were for a short request; a console
	// stays open as long as the viewer wants.
	_ = conn.SetDeadline(time.Time{})
	if _, err := fmt.Fprintf(brw, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: %s\r\n\r\n", apitype.AttachProtocol); err != nil {
		return
	}
	if err := brw.Flush(); err != nil {
		return
	}
	// A station shutdown (Serve's ctx) must end the stream: net/http does
	// not track hijacked connections.
	stop := context.AfterFunc(r.Context(), func() { conn.Close() })
	defer stop()

	done := make(chan struct{})
	go func() {
		defer close(done)
		s.pumpOutput(conn, att)
	}()
	s.readInput(r.Context(), brw.Reader, att, id)
	// The viewer went away or broke the protocol: stop the feed so the
	// output pump ends, then wait for it.
	closeAtt()
	conn.Close()
	<-done
}

// pumpOutput writes the replay, then live output, and closes conn when the
// session's output ends so the viewer sees EOF.
func (s *Server) pumpOutput(conn net.Conn, att *supervisor.Attachment) {
	defer conn.Close()
	if len(att.Replay) > 0 {
		if _, err := conn.Write(att.Replay); err != nil {
			return
		}
	}
	for chunk := range att.Output {
		if _, err := conn.Write(chunk); err != nil {
			// Keep draining is pointless: the viewer is gone, and the
			// reader side will Close the attachment.
			return
		}
	}
}

// readInput applies the viewer's frames until the connection ends.
func (s *Server) readInput(ctx context.Context, br *bufio.Reader, att *supervisor.Attachment, id string) {
	for {
		typ, payload, err := apitype.ReadFrame(br)
		if err != nil {
			return
		}
		switch typ {
		case apitype.FrameInput:
			if len(payload) == 0 || att.Input == nil {
				continue
			}
			if _, err := att.Input.Write(payload); err != nil {
				s.log.DebugContext(ctx, "attach input", "session", id, "err", err)
				return
			}
		case apitype.FrameResize:
			cols, rows, err := apitype.ParseResize(payload)
			if err != nil {
				return
			}
			if att.Resize != nil && cols > 0 && rows > 0 {
				if err := att.Resize(cols, rows); err != nil {
					s.log.DebugContext(ctx, "attach resize", "session", id, "err", err)
				}
			}
		default:
			s.log.DebugContext(ctx, "attach: unknown frame type", "session", id, "type", typ)
			return
		}
	}
}

// isUpgrade reports whether r asks to switch to the attach protocol.
func isUpgrade(r *http.Request) bool {
	if !strings.EqualFold(r.Header.Get("Upgrade"), apitype.AttachProtocol) {
		return false
	}
	for _, v := range r.Header.Values("Connection") {
		for tok := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(tok), "upgrade") {
				return true
			}
		}
	}
	return false
}
