package web

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"strings"
	"sync"

	qrcode "github.com/yeqown/go-qrcode/v2"
)

// maxQRCodes bounds the QR codes a server keeps drawn: a round's print
// page of a 1,000-table evening (one code per table, ~13 KB each, ~13 MB).
const maxQRCodes = 1024

// qrCodes keeps the QR codes drawn, by the text they carry: a code holds
// nothing but its text, so a kept one is never stale (a re-issued link is
// another text). Drawing one is ~4 ms of CPU; the round's print page drew
// one per table on every view, and each public page its own. go-qrcode
// may pick another of the equally good masks on another draw: kept, a
// code looks the same on every view. The zero value is ready.
type qrCodes struct{ drawn kept[template.URL] }

// svg is qrSVG(text), drawn once.
func (c *qrCodes) svg(text string) (template.URL, error) {
	return c.drawn.get(text, "", maxQRCodes, func() (template.URL, error) { return qrSVG(text) })
}

// kept keeps, per slot, the last value computed and the version of what
// it was computed from: a value is computed once per version, and a new
// version replaces the old one in its slot (a page's part is kept once
// per tournament, not once per state it went through). At most max slots:
// full, it starts again empty. The version must name everything the value
// shows, so nothing kept is stale. The zero value is ready.
type kept[V any] struct {
	mu     sync.Mutex
	values map[string]keptValue[V]
}

type keptValue[V any] struct {
	version string
	value   V
}

// get returns the value kept in slot at version, else computes, keeps and
// returns it; an error is returned and not kept.
func (k *kept[V]) get(slot, version string, max int, compute func() (V, error)) (V, error) {
	k.mu.Lock()
	e, ok := k.values[slot]
	k.mu.Unlock()
	if ok && e.version == version {
		return e.value, nil
	}
	v, err := compute()
	if err != nil {
		return v, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.values[slot]; k.values == nil || (!ok && len(k.values) >= max) {
		k.values = make(map[string]keptValue[V])
	}
	k.values[slot] = keptValue[V]{version, v}
	return v, nil
}

// qrSVG encodes text as a QR code (github.com/yeqown/go-qrcode/v2) and
// draws its modules as an inline SVG data: URI (the CSP allows data:
// images; no inline markup needs a nonce).
func qrSVG(text string) (template.URL, error) {
	qr, err := qrcode.New(text)
	if err != nil {
		return "", fmt.Errorf("qr code: %w", err)
	}
	var w svgWriter
	if err := qr.Save(&w); err != nil {
		return "", fmt.Errorf("qr code: %w", err)
	}
	return template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(w.svg))), nil
}

// svgWriter is a qrcode.Writer that keeps the matrix as SVG: one unit
// square per dark module, a quiet zone of 4 modules.
type svgWriter struct{ svg string }

func (w *svgWriter) Write(mat qrcode.Matrix) error {
	const quiet = 4
	n := mat.Width() + 2*quiet
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges"><rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n, n, n)
	mat.Iterate(qrcode.IterDirection_ROW, func(x, y int, v qrcode.QRValue) {
		if v.IsSet() {
			fmt.Fprintf(&b, "M%d %dh1v1h-1z", x+quiet, y+quiet)
		}
	})
	b.WriteString(`"/></svg>`)
	w.svg = b.String()
	return nil
}

func (w *svgWriter) Close() error { return nil }
