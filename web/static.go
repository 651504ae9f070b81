package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed static
var staticFS embed.FS

// staticFiles serves the embedded static files at /static/{version}/{file}
// with a year-long immutable cache: the version is a hash of all the files,
// so a new binary with changed files changes every URL.
type staticFiles struct {
	version string
	files   map[string]string // URL file name → path in staticFS
}

func newStaticFiles() (*staticFiles, error) {
	sf := &staticFiles{files: map[string]string{}}
	h := sha256.New()
	err := fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := path.Base(p)
		if !strings.HasSuffix(name, ".js") && !strings.HasSuffix(name, ".css") {
			return nil // licences and notes are not served
		}
		b, err := staticFS.ReadFile(p)
		if err != nil {
			return err
		}
		h.Write([]byte(p))
		h.Write(b)
		sf.files[name] = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	sf.version = hex.EncodeToString(h.Sum(nil))[:12]
	return sf, nil
}

// url is a static file's URL, e.g. /static/3f2a…/htmx.min.js.
func (sf *staticFiles) url(name string) string {
	return "/static/" + sf.version + "/" + name
}

func (sf *staticFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p, ok := sf.files[r.PathValue("file")]
	if !ok || r.PathValue("version") != sf.version {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeFileFS(w, r, staticFS, p)
}
