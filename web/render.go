package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"segnapunti/domain"
)

//go:embed templates
var templateFS embed.FS

// Page is the part of every page's template data the layout reads. A
// page's data struct embeds it: type loginPage struct { Page; … }.
type Page struct {
	Lang  Lang
	Title string // a message id
	// Viewer is the signed-in person; nil when signed out.
	Viewer *viewer
	// Nav is the navigation for the viewer's role.
	Nav []navItem
	// Path is the current path, for the language switch and the active link.
	Path string
	// Message is a message id announced in the aria-live region (e.g.
	// "saved"); Error is one announced as an error.
	Message, Error string
	// ErrorArgs are the arguments of Error's message.
	ErrorArgs []any
	// Zone is the wall clock of the page's times: its tournament's time
	// zone (issue 22; app.TournamentZone); nil is the default, Europe/Rome.
	// Templates show a time with (local $.Zone .At).
	Zone *time.Location
}

type navItem struct {
	Href, Label string // Label is a message id
	Current     bool
}

// page fills the layout's data for a request.
func (s *Server) page(r *http.Request, title string) Page {
	p := Page{Lang: langOf(r), Title: title, Path: r.URL.Path}
	if v, ok := viewerOf(r); ok {
		p.Viewer = &v
		p.Nav = navFor(v.Person.Role, r.URL.Path)
	}
	return p
}

// navFor is the navigation for a role; pages of later areas add items
// here by role.
func navFor(role domain.Role, current string) []navItem {
	items := []navItem{{Href: "/", Label: "nav.home"}}
	if role == domain.RoleAdmin {
		items = append(items, navItem{Href: "/admin", Label: "nav.admin"})
	}
	if role == domain.RoleFederation || role == domain.RoleAdmin {
		items = append(items, navItem{Href: "/federation", Label: "referee.fed_title"})
	}
	for i := range items {
		items[i].Current = items[i].Href == current
	}
	return items
}

// parseTemplates builds, for each language, one template set per page:
// the shared layout plus the page's file, with t bound to the language.
func (s *Server) parseTemplates() (map[Lang]map[string]*template.Template, error) {
	pages, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	out := map[Lang]map[string]*template.Template{}
	for _, lang := range Languages {
		base, err := template.New("layout.html").Funcs(s.funcs(lang)).ParseFS(templateFS, "templates/layout.html")
		if err != nil {
			return nil, err
		}
		// Partials (templates/partials/*.html) are shared by every page: a
		// piece of markup two pages show alike (the standings table of
		// UI.md §7) is written once.
		if partials, _ := fs.Glob(templateFS, "templates/partials/*.html"); len(partials) > 0 {
			if base, err = base.ParseFS(templateFS, partials...); err != nil {
				return nil, err
			}
		}
		out[lang] = map[string]*template.Template{}
		for _, p := range pages {
			name := strings.TrimSuffix(path.Base(p), ".html")
			if name == "layout" {
				continue
			}
			tpl, err := template.Must(base.Clone()).ParseFS(templateFS, p)
			if err != nil {
				return nil, err
			}
			out[lang][name] = tpl
		}
	}
	return out, nil
}

// funcs are the template functions: t "id" args… translates, static
// "file" is a static file's versioned URL.
func (s *Server) funcs(lang Lang) template.FuncMap {
	return template.FuncMap{
		"t": func(id string, args ...any) string {
			if len(args) == 1 { // Page.ErrorArgs passed whole
				if list, ok := args[0].([]any); ok {
					args = list
				}
			}
			return translate(lang, id, args...)
		},
		"static":   s.static.url,
		"roleName": func(r domain.Role) string { return translate(lang, "role."+string(r)) },
		"langs":    func() []Lang { return Languages },
		// seat and seatIDs: who sits at line "ns" or "eo" of a table — an
		// entrant, or an individual line's two players ("3 – 11").
		"seat":    func(tb domain.TableAssignment, line string) string { return strings.Join(seatIDs(tb, line), " – ") },
		"seatIDs": seatIDs,
		"who":     who,
		"local":   localTime,
		"zones":   func() []string { return suggestedZones },
		// matches: a round's tables grouped by team match (UI.md §9).
	}
}

// render writes a page with status. data is the page's struct (embedding
// Page) and must be a pointer.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	tpl, ok := s.templates[langOf(r)][name]
	if !ok {
		s.log.Error("no template", "name", name)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	var buf bytes.Buffer
	if err := tpl.ExecuteTemplate(&buf, "layout.html", data); err != nil {
		s.log.Error("render", "template", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// renderFragment executes one named template of a page (a block that htmx
// swaps in place, or a partial) without the layout.
// maxFragments bounds the page parts a server keeps rendered: one per
// tournament, block and language (a 200-entrant list is ~30 KB, a
// 100-item review queue ~130 KB).
const maxFragments = 256

// fragment renders block of page's template with data, to be printed
// whole by the page. With a slot it is kept there, rendered again only
// when version changes (kept.get): the slot names the part (block,
// tournament, language when it has words), the version everything it
// shows.
func (s *Server) fragment(lang Lang, page, block, slot, version string, data any) (template.HTML, error) {
	render := func() (template.HTML, error) {
		var b strings.Builder
		if err := s.templates[lang][page].ExecuteTemplate(&b, block, data); err != nil {
			return "", fmt.Errorf("render %s of %s: %w", block, page, err)
		}
		return template.HTML(b.String()), nil
	}
	if slot == "" {
		return render()
	}
	return s.fragments.get(slot, version, maxFragments, render)
}

func (s *Server) renderFragment(w http.ResponseWriter, r *http.Request, status int, page, block string, data any) {
	tpl, ok := s.templates[langOf(r)][page]
	if !ok {
		s.log.Error("no template", "name", page)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	var buf bytes.Buffer
	if err := tpl.ExecuteTemplate(&buf, block, data); err != nil {
		s.log.Error("render", "template", page, "block", block, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// seeOther redirects after a successful form post (Post/Redirect/Get).
func seeOther(w http.ResponseWriter, r *http.Request, to string) {
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// seatIDs is the entrant ids at line "ns" or "eo" of a table (two players
// in an individual tournament).
func seatIDs(tb domain.TableAssignment, line string) []string {
	if line == "eo" {
		return tb.Line(domain.EO)
	}
	return tb.Line(domain.NS)
}

// who is line "ns" or "eo" of a table as people read it: "3 Rossi – 11
// Bianchi" with the players' names (names: entrant id → name, nil for
// none), "3 – 11" without.
func who(tb domain.TableAssignment, line string, names map[string]string) string {
	ids := seatIDs(tb, line)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id
		if n := names[id]; n != "" {
			out[i] += " " + n
		}
	}
	return strings.Join(out, " – ")
}
