package web

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	qrcode "github.com/yeqown/go-qrcode/v2"
)

// paintedModules reads the path of a drawn code back: the modules its
// strokes cover (a stroke of width 1 along y+.5 from x covers x…x+h-1 of
// row y), in the code's own coordinates (quiet zone taken off).
func paintedModules(t *testing.T, svg string) map[[2]int]bool {
	t.Helper()
	m := regexp.MustCompile(` d="([^"]*)"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no path in %.80q", svg)
	}
	cmd := regexp.MustCompile(`([Mmh])([0-9]+)(?:,([0-9]+)(\.5)?)?`)
	painted := map[[2]int]bool{}
	x, y := 0, 0
	rest := m[1]
	for rest != "" {
		c := cmd.FindStringSubmatchIndex(rest)
		if c == nil || c[0] != 0 {
			t.Fatalf("path: cannot read %.20q", rest)
		}
		op, a := rest[c[2]:c[3]], atoi(t, rest[c[4]:c[5]])
		switch op {
		case "M":
			if c[9] < 0 {
				t.Fatalf("M without .5 (the stroke would straddle two rows): %.20q", rest)
			}
			x, y = a, atoi(t, rest[c[6]:c[7]])
		case "m":
			if rest[c[6]:c[7]] != "0" {
				t.Fatalf("m leaves the row: %.20q", rest)
			}
			x += a
		case "h":
			for i := range a {
				if painted[[2]int{x + i - qrQuiet, y - qrQuiet}] {
					t.Errorf("module %d,%d painted twice", x+i, y)
				}
				painted[[2]int{x + i - qrQuiet, y - qrQuiet}] = true
			}
			x += a
		}
		rest = rest[c[1]:]
	}
	return painted
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestQRRunsPaintTheMatrix: the strokes cover exactly the dark modules
// of the code the library made, for codes of several sizes, and nothing
// of the quiet zone.
func TestQRRunsPaintTheMatrix(t *testing.T) {
	for _, text := range []string{"x", "http://192.168.1.20:8080/table/K7Q2M9XP", "https://segnapunti.example.it/table/" + strings.Repeat("A9", 40)} {
		qr, err := qrcode.New(text)
		if err != nil {
			t.Fatal(err)
		}
		// One draw, both kept: another draw may pick another mask.
		var w svgWriter
		var bitmap [][]bool
		if err := qr.Save(bothWriter{&w, &bitmap}); err != nil {
			t.Fatal(err)
		}
		painted := paintedModules(t, w.svg)
		dark := 0
		for y, row := range bitmap {
			for x, d := range row {
				if d {
					dark++
				}
				if painted[[2]int{x, y}] != d {
					t.Fatalf("%q: module %d,%d dark=%t, painted=%t", text, x, y, d, painted[[2]int{x, y}])
				}
			}
		}
		if len(painted) != dark {
			t.Errorf("%q: %d modules painted, %d dark (something outside the code)", text, len(painted), dark)
		}
		n := len(bitmap) + 2*qrQuiet
		if !strings.Contains(w.svg, `viewBox="0 0 `+strconv.Itoa(n)+" "+strconv.Itoa(n)+`"`) {
			t.Errorf("%q: viewBox is not the code and its quiet zone (%d): %.120s", text, n, w.svg)
		}
	}
}

// TestQRRunsEdges: a row that is all dark is one run from the quiet
// zone's edge; a row with nothing dark draws nothing; runs after a gap move
// by the gap.
func TestQRRunsEdges(t *testing.T) {
	svg := qrRunsSVG([][]bool{{true, true, true}, {false, false, false}, {true, false, true}})
	if want := ` d="M4,4.5h3M4,6.5h1m1,0h1"`; !strings.Contains(svg, want) {
		t.Errorf("path %s, want %s", svg, want)
	}
}

// TestQRDataURL: the code is an image the page can carry (an SVG data:
// URL, which the CSP's img-src data: allows: percent-encoded where a URL
// needs it, the same SVG once decoded), and a kept one is the same.
func TestQRDataURL(t *testing.T) {
	var c qrCodes
	u, err := c.svg("http://10.0.0.2:8080/table/ABCDEFGH")
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "data:image/svg+xml,"
	if !strings.HasPrefix(string(u), prefix) {
		t.Fatalf("src %.40q", u)
	}
	text := string(u)[len(prefix):]
	if i := strings.IndexAny(text, ` "<>#`); i >= 0 {
		t.Errorf("%q left as it is in a URL: %.40q", text[i], text[i:])
	}
	svg, err := url.PathUnescape(text)
	if err != nil || !strings.HasPrefix(svg, "<svg ") || !strings.HasSuffix(svg, "</svg>") || !strings.Contains(svg, `fill="#fff"`) {
		t.Fatalf("not the SVG (%v): %.60q", err, svg)
	}
	again, _ := c.svg("http://10.0.0.2:8080/table/ABCDEFGH")
	if again != u {
		t.Error("a kept code changed")
	}
}

// bothWriter draws the code with svgWriter and keeps the library's own
// matrix of the same draw.
type bothWriter struct {
	svg    *svgWriter
	bitmap *[][]bool
}

func (w bothWriter) Write(mat qrcode.Matrix) error {
	*w.bitmap = mat.Bitmap()
	return w.svg.Write(mat)
}
func (w bothWriter) Close() error { return nil }
