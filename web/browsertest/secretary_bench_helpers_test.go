package browsertest

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func hostOf(u string) string {
	p, _ := url.Parse(u)
	return p.Host
}

// withCookies adds the client's cookies to a request sent on its
// transport (so that gzip is not undone by the client).
func withCookies(c *http.Client, req *http.Request) *http.Request {
	for _, ck := range c.Jar.Cookies(req.URL) {
		req.AddCookie(ck)
	}
	return req
}
