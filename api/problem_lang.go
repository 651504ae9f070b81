package api

import (
	"github.com/gin-gonic/gin"
	"golang.org/x/text/language"

	"segnapunti/domain"
)

// The language of answers: problem details in Italian or English (API
// §4). Handlers and operations give details as catalogue messages
// (package messages) with their arguments; writeProblem words them once,
// here, in the request's language. The type URIs, pointers, parameters,
// headers and cells never change. A detail given as plain English text
// (not yet in the catalogue) stays in English.

// ctxLang is the gin context key of the request's language.
const ctxLang = "segnapunti.lang"

// problemLanguages are the languages of answers, English first (the
// default when nothing matches).
var problemLanguages = language.NewMatcher([]language.Tag{language.English, language.Italian})

// headerLang is the language an Accept-Language header prefers: Italian
// when it prefers Italian to English, otherwise (no header, an unreadable
// one, neither language) English. The one place the header is read.
func headerLang(h string) domain.Lang {
	if h == "" {
		return domain.English // no preference; nothing to parse
	}
	tags, _, err := language.ParseAcceptLanguage(h)
	if err != nil || len(tags) == 0 {
		return domain.English // an unreadable header is no preference
	}
	if _, i, conf := problemLanguages.Match(tags...); conf != language.No && i == 1 {
		return domain.Italian
	}
	return domain.English
}

// negotiateLang stores the request's language in the context: ?lang= (en
// or it) on a route that documents it, otherwise Accept-Language. A
// ?lang= the route does not know or with another value is refused later
// (checkRequest, the handler) — in the language of the header.
func (s *server) negotiateLang(c *gin.Context) {
	header := c.GetHeader("Accept-Language")
	lang := headerLang(header)
	if c.Request.URL.RawQuery != "" { // no query: nothing to parse
		if q := c.Request.URL.Query(); len(q["lang"]) == 1 && routeDocumentsLang(c) {
			switch q.Get("lang") {
			case "it":
				lang = domain.Italian
			case "en":
				lang = domain.English
			}
		}
	}
	// With no header and English, langOf's own answer is the same: nothing
	// is stored (gin makes its Keys map on the first Set, per request).
	if header != "" || lang != domain.English {
		c.Set(ctxLang, lang)
	}
	// Answers (problems, reports, rulings) depend on the header. The
	// shared value is never written through (Add appends past its length
	// into a new array).
	if h := c.Writer.Header(); len(h["Vary"]) == 0 {
		h["Vary"] = varyAcceptLanguage
	} else {
		h.Add("Vary", "Accept-Language")
	}
	c.Next()
}

var varyAcceptLanguage = []string{"Accept-Language"}

func routeDocumentsLang(c *gin.Context) bool {
	table, err := queryParams()
	if err != nil {
		return false
	}
	for _, p := range table[c.Request.Method+" "+c.FullPath()] {
		if p == "lang" {
			return true
		}
	}
	return false
}

// langOf is the language negotiateLang chose (English outside it).
func langOf(c *gin.Context) domain.Lang {
	if v, ok := c.Get(ctxLang); ok {
		if l, ok := v.(domain.Lang); ok {
			return l
		}
	}
	return headerLang(c.GetHeader("Accept-Language"))
}

// localize returns p in lang: the title, and the detail and the field
// errors' details that come from the catalogue; type, status and what the
// errors point at are unchanged.
func localize(p problem, lang domain.Lang) problem {
	p.Title = titleIn(lang, p.Status)
	if p.msg.Key != "" {
		p.Detail = p.msg.In(lang)
	}
	if len(p.Errors) > 0 {
		errs := make([]fieldError, len(p.Errors))
		for i, e := range p.Errors {
			if e.msg.Key != "" {
				e.Detail = e.msg.In(lang)
			}
			errs[i] = e
		}
		p.Errors = errs
	}
	return p
}
