package web

import (
	"fmt"
	"html/template"
	"strings"

	qrcode "github.com/yeqown/go-qrcode/v2"
)

// maxQRCodes bounds the QR codes a server keeps drawn: a round's print
// page of a 1,000-table evening (one code per table, ~3 KB each, ~3 MB).
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
	return template.URL("data:image/svg+xml," + svgDataEscaper.Replace(w.svg)), nil
}

// svgDataEscaper writes an SVG as the text of a data: URL (RFC 2397):
// the characters a URL cannot carry as they are, percent-encoded. Plain
// text, not base64: the codes' paths ("m1,0h2") are a fraction of the
// size and compress, where base64 does neither.
var svgDataEscaper = strings.NewReplacer("%", "%25", "#", "%23", "<", "%3C", ">", "%3E", `"`, "%22", " ", "%20")

// svgWriter is a qrcode.Writer that keeps the matrix as SVG with a quiet
// zone of 4 modules: each row's runs of dark modules are one stroke of
// width 1 along the row's middle ("M4,4.5h7m2,0h1": a run of seven, a gap
// of two, a run of one). One square per module made a 100-table print
// page 1.7 MB, most of it QR codes; runs make a code about a sixth.
type svgWriter struct{ svg string }

// qrQuiet is the quiet zone around a code, in modules (ISO/IEC 18004: 4).
const qrQuiet = 4

func (w *svgWriter) Write(mat qrcode.Matrix) error {
	w.svg = qrRunsSVG(mat.Bitmap())
	return nil
}

// qrRunsSVG draws dark[y][x] as described at svgWriter.
func qrRunsSVG(dark [][]bool) string {
	n := len(dark) + 2*qrQuiet
	b := fmt.Appendf(nil, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges"><rect width="%d" height="%d" fill="#fff"/><path stroke="#000" d="`, n, n, n, n)
	for y, row := range dark {
		pen := -1 // where the last run of this row ended; -1 before the first
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			end := x
			for end < len(row) && row[end] {
				end++
			}
			if pen < 0 {
				b = fmt.Appendf(b, "M%d,%d.5", x+qrQuiet, y+qrQuiet)
			} else {
				b = fmt.Appendf(b, "m%d,0", x-pen)
			}
			b = fmt.Appendf(b, "h%d", end-x)
			pen, x = end, end
		}
	}
	b = append(b, `"/></svg>`...)
	return string(b)
}

func (w *svgWriter) Close() error { return nil }
