package web

import (
	"context"
	"net/http"
	"time"

	"golang.org/x/text/language"

	"segnapunti/domain"
	"segnapunti/messages"
)

// Lang is a page language. Italian first (UI.md): the federations, the
// codes and the sheets are Italian.
type Lang = domain.Lang

// Languages are the page languages, the default first.
var Languages = []Lang{domain.Italian, domain.English}

// translate returns message id in lang with args (messages.Text); an
// unknown id is shown as itself (and caught by TestCatalogue).
func translate(lang Lang, id string, args ...any) string {
	return messages.Text(lang, id, args...)
}

// langCookie remembers a ?lang= choice for a year.
const (
	langCookie = "lang"
	langMaxAge = 365 * 24 * time.Hour
)

var langMatcher = language.NewMatcher([]language.Tag{language.Italian, language.English})

// pickLang chooses the page language: ?lang=, then the lang cookie, then
// Accept-Language, then Italian. It reports whether ?lang= chose it.
func pickLang(r *http.Request) (Lang, bool) {
	if l, ok := parseLang(r.URL.Query().Get("lang")); ok {
		return l, true
	}
	if c, err := r.Cookie(langCookie); err == nil {
		if l, ok := parseLang(c.Value); ok {
			return l, false
		}
	}
	if al := r.Header.Get("Accept-Language"); al != "" {
		tags, _, err := language.ParseAcceptLanguage(al)
		if err == nil && len(tags) > 0 {
			_, i, conf := langMatcher.Match(tags...)
			if conf != language.No {
				return Languages[i], false
			}
		}
	}
	return domain.Italian, false
}

func parseLang(s string) (Lang, bool) {
	switch s {
	case "it":
		return domain.Italian, true
	case "en":
		return domain.English, true
	}
	return "", false
}

type langKey struct{}

// withLang puts the page language in the request's context and remembers
// a ?lang= choice in a cookie.
func (s *Server) withLang(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l, chosen := pickLang(r)
		if chosen {
			http.SetCookie(w, &http.Cookie{Name: langCookie, Value: string(l), Path: "/", MaxAge: int(langMaxAge.Seconds()),
				HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.isTLS(r)})
		}
		w.Header().Add("Vary", "Accept-Language, Cookie")
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), langKey{}, l)))
	})
}

// langOf is the request's page language.
func langOf(r *http.Request) Lang {
	if l, ok := r.Context().Value(langKey{}).(Lang); ok {
		return l
	}
	return domain.Italian
}
