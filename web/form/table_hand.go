package form

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"segnapunti/domain"
)

// TableHand is one hand typed at the table (UI.md §5 names:
// hands.{i}.ns.base, …, hands.{i}.end) and the key that makes a resent
// form add it once.
type TableHand struct {
	Index int
	Hand  domain.Hand
	Key   string
}

// ParseTableHand reads the table page's hand form; i is the hand's index.
func ParseTableHand(w http.ResponseWriter, r *http.Request) (TableHand, Errors, error) {
	if err := parse(w, r); err != nil {
		return TableHand{}, nil, err
	}
	errs := Errors{}
	i, err := strconv.Atoi(value(r, "index"))
	if err != nil || i < 0 || i > 3 {
		errs["index"] = "form.required"
		return TableHand{}, errs, nil
	}
	f := TableHand{Index: i, Key: value(r, "idem")}
	name := func(rest string) string { return fmt.Sprintf("hands.%d.%s", i, rest) }
	end, ok := HandEnd(value(r, name("end")))
	if !ok {
		errs[name("end")] = "table.end_invalid"
	}
	f.Hand.End = end
	for _, l := range domain.Lines {
		for _, part := range []string{"base", "points"} {
			field := name(l.String() + "." + part)
			n, err := Score(value(r, field))
			if err != nil {
				errs[field] = scoreError(err, "table.number_required")
				continue
			}
			if part == "base" {
				f.Hand.Lines[l].Base = n
			} else {
				f.Hand.Lines[l].Points = n
			}
		}
		field := name(l.String() + ".total")
		if s := value(r, field); s != "" {
			n, err := Score(s)
			if err != nil {
				errs[field] = scoreError(err, "table.number_required")
				continue
			}
			f.Hand.Lines[l].Total = &n
		}
	}
	return f, errs, nil
}

// scoreError is the message id of a refused score: out of range, or
// notNumber (the form's own wording) when it is no whole number.
func scoreError(err error, notNumber string) string {
	if errors.Is(err, ErrScoreRange) {
		return "form.score_range"
	}
	return notNumber
}

// TableConfirm is a line's signature: line and entrant number.
type TableConfirm struct {
	Line    string
	Entrant string
}

// ParseTableConfirm reads the signature form.
func ParseTableConfirm(w http.ResponseWriter, r *http.Request) (TableConfirm, Errors, error) {
	if err := parse(w, r); err != nil {
		return TableConfirm{}, nil, err
	}
	f := TableConfirm{Line: value(r, "line"), Entrant: value(r, "entrant")}
	errs := Errors{}
	if f.Entrant == "" {
		errs["entrant"] = "form.required"
	}
	return f, errs, nil
}

// TableEnd is the scorer's line's signature that ends the sheet (UI.md
// §6, optional): its line and entrant number, named apart from the
// confirmation's `entrant` that shares the page.
type TableEnd struct {
	Line    string
	Entrant string
}

// ParseTableEnd reads the optional "end the sheet" form.
func ParseTableEnd(w http.ResponseWriter, r *http.Request) (TableEnd, Errors, error) {
	if err := parse(w, r); err != nil {
		return TableEnd{}, nil, err
	}
	f := TableEnd{Line: value(r, "line"), Entrant: value(r, "scorer_entrant")}
	errs := Errors{}
	if f.Line != "ns" && f.Line != "eo" {
		errs["line"] = "form.required"
	}
	if f.Entrant == "" {
		errs["scorer_entrant"] = "form.required"
	}
	return f, errs, nil
}
