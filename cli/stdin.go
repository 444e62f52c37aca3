package cli

import (
	"fmt"
	"io"
)

// maxText is the most text read from stdin for one request; the API caps
// bodies at 1 MiB, so more could never be sent.
const maxText = 1 << 20

func readAllLimited(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxText+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxText {
		return nil, fmt.Errorf("more than %d bytes", maxText)
	}
	return b, nil
}
