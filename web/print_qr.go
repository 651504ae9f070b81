package web

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"strings"

	qrcode "github.com/yeqown/go-qrcode/v2"
)

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
