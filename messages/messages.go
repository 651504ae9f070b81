// Package messages is the one catalogue of what people read: every
// message keyed by a stable code, in Italian and English, worded when it
// is rendered with its arguments (Text). The pages (package web) and the
// API's problem details (package api) render from it; operations (package
// app) and rules (package domain) return a code and arguments, never a
// sentence in one language.
//
// The catalogue is plain Go maps, one per area (page_*.go for the pages,
// api_*.go for the API and the operations), rather than
// golang.org/x/text/message or go-i18n: two languages known at compile
// time, no plural rules beyond what a sentence can avoid, the English text
// is not the key (a code stays stable when the wording changes), and a
// test checks every code has both texts with the same arguments, no code
// is defined twice and every code is used.
//
// Adding a message: put the code with its Italian and English in the
// area's map (page_AREA.go for a page, api.go for a problem detail or an
// operation's refusal, rules.go for a note of package domain), then
//   - a page: {{t "code" args}} in the template, or translate(lang, code);
//   - an operation (package app): notFound/conflict/forbidden/paramError/
//     refusal(kind, "code", args...), or field(pointer, "code", args...)
//     (cellField for a workbook cell) for one field; Detail keeps the
//     English for logs;
//   - a handler (package api): errNotFound(messages.New("code", args...))
//     and the other constructors, or fieldAt(pointer, "code", args...);
//   - a rule (package domain): Note{Code, Args} or refuse(field, code,
//     args...); domain writes no sentence.
//
// A page that words an operation's detail its own way (a pasted list's
// row rather than a JSON pointer) says so once in pageVariants; the
// workbook reader (importers/xlsx, codes "xlsx.") carries its message in
// CellError.Msg, and the sheet decoder (importers/sheetjson, codes
// "sheet."), which runs on the phones without this catalogue, in
// Error.Code and Error.Args beside its English.
//
// An operation that still refuses with an English format compiles and
// answers in English only; TestAppRefusalsAreCoded (package app) and
// TestAPIDetailsAreCoded (package api) name it.
package messages

import (
	"fmt"
	"sort"
	"strings"

	"segnapunti/domain"
)

// Lang is a language of the catalogue.
type Lang = domain.Lang

// msg is one message in both languages; fmt verbs take Text's arguments
// (the same verbs in the same order in both).
type msg struct{ it, en string }

// catalogues lists every area's messages. An area adds its map in its own
// file; add the map here once.
var catalogues = []map[string]msg{
	messagesCommon, messagesAuth, messagesAdmin,
	messagesSecretary, messagesTable, messagesReferee, messagesPublic,
	messagesPairing, messagesAdjust, messagesDetails,
	messagesAPI, messagesFields, messagesImporters, messagesRules,
}

// catalogue is every message by code, merged once.
var catalogue = func() map[string]msg {
	out := map[string]msg{}
	for _, c := range catalogues {
		for id, m := range c {
			if _, dup := out[id]; dup {
				panic("messages: " + id + " defined twice")
			}
			out[id] = m
		}
	}
	return out
}()

// Text is message key in lang with args (Italian unless lang is English);
// an unknown key is shown as itself (and caught by the tests that list the
// keys in use).
func Text(lang Lang, key string, args ...any) string {
	m, ok := catalogue[key]
	if !ok {
		return key
	}
	text := m.it
	if lang == domain.English {
		text = m.en
	}
	if len(args) == 0 {
		return text
	}
	copied := false
	for i, a := range args {
		var worded string
		switch n := a.(type) {
		case M:
			worded = n.In(lang)
		case domain.Note:
			worded = Text(lang, n.Code, n.Args...)
		case []domain.Note:
			worded = joinNotes(lang, n, ", ")
		default:
			continue
		}
		if !copied {
			args, copied = append([]any(nil), args...), true
		}
		args[i] = worded
	}
	return fmt.Sprintf(text, args...)
}

// Has reports whether key is in the catalogue.
func Has(key string) bool {
	_, ok := catalogue[key]
	return ok
}

// Keys is every key, sorted.
func Keys() []string {
	out := make([]string, 0, len(catalogue))
	for k := range catalogue {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Both is message key's two texts, unworded: Italian, English.
func Both(key string) (it, en string, ok bool) {
	m, ok := catalogue[key]
	return m.it, m.en, ok
}

// M is a message not yet worded: a code and its arguments. An argument
// that is itself an M is worded in the same language (an action inside a
// refusal). Errors carry an M and are worded where they are shown.
type M struct {
	Key  string
	Args []any
}

// New is message key with args, worded later (M.In).
func New(key string, args ...any) M { return M{Key: key, Args: args} }

// In words m in lang; the zero M is "".
func (m M) In(lang Lang) string {
	if m.Key == "" {
		return ""
	}
	return Text(lang, m.Key, m.Args...)
}

// English words m in English, the language of logs.
func (m M) English() string { return m.In(domain.English) }

// Notes words the notes of a rule (domain.Note: a tie-break's steps) in
// lang, joined by "; ".
func Notes(lang Lang, notes []domain.Note) string { return joinNotes(lang, notes, "; ") }

func joinNotes(lang Lang, notes []domain.Note, sep string) string {
	parts := make([]string, len(notes))
	for i, n := range notes {
		parts[i] = Text(lang, n.Code, n.Args...)
	}
	return strings.Join(parts, sep)
}
