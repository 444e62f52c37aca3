package client

import (
	"context"
	"net/http"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// PhoneTest has the station send one real notice to the [phone] service
// (phone nil: config.toml's table; else that table, checked first) and
// returns what the service answered.
func (c *Client) PhoneTest(ctx context.Context, phone map[string]any) (apitype.PhoneTestResult, error) {
	var out apitype.PhoneTestResult
	err := c.do(ctx, http.MethodPost, "/v1/phone/test", apitype.PhoneTest{Phone: phone}, &out)
	return out, err
}
