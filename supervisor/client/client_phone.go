package client

import (
	"context"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// PhoneTest has the station send one real notice to the [phone] service
// (phone nil: config.toml's table; else that table, checked first) and
// returns what the service answered.
func (c *Client) PhoneTest(ctx context.Context, phone map[string]any) (apitype.PhoneTestResult, error) {
	var out apitype.PhoneTestResult
	err := c.do(ctx, "POST", "/v1/phone/test", apitype.PhoneTest{Phone: phone}, &out)
	return out, err
}

// PhoneSettings reads config.toml's [phone] table (nil: none).
func (c *Client) PhoneSettings(ctx context.Context) (map[string]any, error) {
	var out apitype.PhoneSettings
	err := c.do(ctx, "GET", "/v1/phone/settings", nil, &out)
	return out.Phone, err
}

// SetPhoneSettings saves phone as config.toml's [phone] table, checked by
// the station like the file (a bad value: an error naming the key, and
// nothing saved); it returns the table as saved.
func (c *Client) SetPhoneSettings(ctx context.Context, phone map[string]any) (map[string]any, error) {
	var out apitype.PhoneSettings
	err := c.do(ctx, "POST", "/v1/phone/settings", apitype.PhoneSettings{Phone: phone}, &out)
	return out.Phone, err
}
