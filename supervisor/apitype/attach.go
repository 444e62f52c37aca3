package apitype

// The attach stream: GET /v1/sessions/{id}/attach is a raw, bidirectional
// byte stream over one TCP connection, opened with an HTTP Upgrade so it
// passes the same Host/Origin/token checks as every route and needs no
// WebSocket library.
//
//	client → server   GET /v1/sessions/{id}/attach
//	                  Connection: Upgrade
//	                  Upgrade: buildstation-attach
//	                  Authorization: Bearer <station token>
//	server → client   HTTP/1.1 101 Switching Protocols (or a JSON error)
//
// After the 101:
//
//   - server → client: raw terminal bytes, unframed. First the session's
//     ring buffer (Attachment.Replay: the last screens), then each live
//     chunk. The server closes the connection when the session's output ends.
//   - client → server: frames of [1 byte type][2 bytes big-endian length]
//     [payload]. Type 'i': payload is input typed into the session.
//     Type 'r': payload is 4 bytes, cols then rows, each a big-endian uint16,
//     the viewer's terminal size. Any other type ends the stream.
//
// Output is unframed because it is the hot direction and a terminal only
// needs bytes; input is framed because it carries two kinds of message.

import (
	"encoding/binary"
	"errors"
	"io"
)

// AttachProtocol is the Upgrade token of the attach stream.
const AttachProtocol = "buildstation-attach"

// Frame types of the client → server direction.
const (
	FrameInput  byte = 'i'
	FrameResize byte = 'r'
)

// MaxFrame is the largest payload one frame holds (the length is 16 bits).
const MaxFrame = 1<<16 - 1

// WriteFrame writes one frame; payload must be at most MaxFrame bytes.
func WriteFrame(w io.Writer, typ byte, payload []byte) error {
	buf := make([]byte, 3+len(payload))
	buf[0] = typ
	binary.BigEndian.PutUint16(buf[1:3], uint16(len(payload)))
	copy(buf[3:], payload)
	_, err := w.Write(buf)
	return err
}

// ReadFrame reads one frame.
func ReadFrame(r io.Reader) (typ byte, payload []byte, err error) {
	var hdr [3]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	payload = make([]byte, binary.BigEndian.Uint16(hdr[1:3]))
	if _, err := io.ReadFull(r, payload); err != nil {
		return 0, nil, err
	}
	return hdr[0], payload, nil
}

func ResizePayload(cols, rows uint16) []byte {
	var p [4]byte
	binary.BigEndian.PutUint16(p[0:2], cols)
	binary.BigEndian.PutUint16(p[2:4], rows)
	return p[:]
}

func ParseResize(p []byte) (cols, rows uint16, err error) {
	if len(p) != 4 {
		return 0, 0, errors.New("resize frame payload is not 4 bytes")
	}
	return binary.BigEndian.Uint16(p[0:2]), binary.BigEndian.Uint16(p[2:4]), nil
}
