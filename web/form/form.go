// Package form parses and checks the pages' forms, one file per form
// (miniflux internal/ui/form). A form's Check returns Errors: field name →
// message id of package web's catalogue.
package form

import (
	"net/http"
	"strings"
)

// Errors maps a form field name to the message id saying what is wrong.
type Errors map[string]string

// Has reports whether field has an error (templates: aria-invalid).
func (e Errors) Has(field string) bool { _, ok := e[field]; return ok }

// Any reports whether there is any error.
func (e Errors) Any() bool { return len(e) > 0 }

// maxFormBytes bounds a form body (STYLE §10).
const maxFormBytes = 64 << 10

// parse reads a posted form, bounded.
func parse(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	return r.ParseForm()
}

func value(r *http.Request, name string) string { return strings.TrimSpace(r.PostFormValue(name)) }
