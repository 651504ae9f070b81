package web

import (
	"segnapunti/app"
	"segnapunti/domain"
)

// refusalDetail is an operation's refusal as a page shows it in lang:
// worded from the catalogue when the refusal carries a code (app.Error.Msg);
// otherwise its English words on an English page only — an Italian page
// says its own message and no English sentence (UI.md: Italian first).
func refusalDetail(lang Lang, e *app.Error) string {
	if e.Msg.Key != "" || lang == domain.English {
		return e.DetailIn(lang)
	}
	return ""
}

// fieldRefusalDetail is refusalDetail for one field of a refusal.
func fieldRefusalDetail(lang Lang, f app.FieldError) string {
	if f.Msg.Key != "" || lang == domain.English {
		return f.DetailIn(lang)
	}
	return ""
}
