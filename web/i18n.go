package web

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"golang.org/x/text/language"

	"segnapunti/domain"
)

// Lang is a page language. Italian first (UI.md): the federations, the
// codes and the sheets are Italian.
type Lang = domain.Lang

// Languages are the page languages, the default first.
var Languages = []Lang{domain.Italian, domain.English}

// msg is one message in both languages; fmt verbs take the t arguments.
//
// The catalogue is plain Go maps, one per area (messages_*.go), rather than
// go-i18n: two languages known at compile time, no plural rules beyond what
// a sentence can avoid, and a test checks every id has both texts and that
// no id is defined twice.
type msg struct{ it, en string }

// catalogues lists every area's messages. An area adds its map in its own
// messages_AREA.go file; the map variables already exist (empty) so that no
// two engineers edit this line.
var catalogues = []map[string]msg{
	messagesCommon, messagesAuth, messagesAdmin,
	messagesSecretary, messagesTable, messagesReferee, messagesPublic,
	messagesPairing, messagesAdjust, messagesDetails,
}

// catalogue is every message by id, merged once.
var catalogue = func() map[string]msg {
	out := map[string]msg{}
	for _, c := range catalogues {
		for id, m := range c {
			if _, dup := out[id]; dup {
				panic("web: message " + id + " defined twice")
			}
			out[id] = m
		}
	}
	return out
}()

// translate returns message id in lang with args; an unknown id is shown
// as itself (and caught by TestEveryTemplateMessageExists).
func translate(lang Lang, id string, args ...any) string {
	m, ok := catalogue[id]
	if !ok {
		return id
	}
	text := m.it
	if lang == domain.English {
		text = m.en
	}
	if len(args) > 0 {
		return fmt.Sprintf(text, args...)
	}
	return text
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
