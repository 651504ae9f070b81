package app

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"segnapunti/domain"
	"segnapunti/messages"
)

// Limits of what the operations take. The doors may check a body's shape
// before, but these are the limits that hold.
const (
	MaxIDLength         = 64
	MaxNameLength       = 200
	MaxMembershipLength = 40
	// MaxRoundsPlanned bounds a tournament: RULES §10 kinds play 3 to 7
	// rounds; 30 leaves room for multi-session events.
	MaxRoundsPlanned = 30
	// MaxTables bounds one round: 2,500 tables seat 10,000 players (a
	// national championship of 4,000 pairs needs 2,000).
	MaxTables = 2500
	// MinPlannedHands, MaxHands: API §1 hands_planned is 2, 3 or 4; a
	// sheet holds 1 to 4 hands.
	MinPlannedHands = 2
	MaxHands        = 4
	// MaxEntrants bounds one tournament's bulk entry.
	MaxEntrants = 2000
	// maxTeamPlayers: a team of four may bring reserves.
	maxTeamPlayers = 8
)

// checkText checks a free-text field: trimmed non-empty when required, at
// most maxLen characters, no control characters. Unicode letters, quotes
// and anything SQL-looking are fine: the store binds every value.
func checkText(ptr, s string, maxLen int, required bool) *FieldError {
	t := strings.TrimSpace(s)
	var f FieldError
	switch {
	case !utf8.ValidString(s):
		f = field(ptr, "api.utf8")
	case required && t == "":
		f = field(ptr, "api.required")
	case utf8.RuneCountInString(s) > maxLen:
		f = field(ptr, "api.at_most", maxLen)
	case strings.ContainsFunc(s, unicode.IsControl):
		f = field(ptr, "api.control")
	default:
		return nil
	}
	return &f
}

// checkIDSyntax checks an id chosen by a caller (club ids, entrant
// numbers): 1..MaxIDLength of letters, digits, "-", "_" and ".".
func checkIDSyntax(ptr, id string) *FieldError {
	if id == "" || len(id) > MaxIDLength {
		f := field(ptr, "api.id_length", MaxIDLength)
		return &f
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			f := field(ptr, "api.id_chars")
			return &f
		}
	}
	return nil
}

func appendErr(errs []FieldError, e *FieldError) []FieldError {
	if e != nil {
		errs = append(errs, *e)
	}
	return errs
}

// domainDetail is the message of a domain parse error without the
// sentinel's "invalid: " prefix.
func domainDetail(err error) string {
	var ref *domain.Refusal
	if errors.As(err, &ref) {
		if ref.Field == "" {
			return messages.Text(domain.English, ref.Code, ref.Args...)
		}
		return ref.Field + ": " + messages.Text(domain.English, ref.Code, ref.Args...)
	}
	return strings.TrimPrefix(err.Error(), domain.ErrInvalid.Error()+": ")
}

// CheckText is the free-text check of the operations (required, at most
// maxLen characters, no control characters), for a door that checks a
// field of its own before calling one.
func CheckText(ptr, s string, maxLen int, required bool) *FieldError {
	return checkText(ptr, s, maxLen, required)
}

// DomainError is the field refusal at ptr of a domain parse error, for a
// door that parses a field of its own: worded from the catalogue when the
// rule refused by code.
func DomainError(ptr string, err error) FieldError { return domainError(ptr, err) }

// DomainDetail is the message of a domain parse error without the
// sentinel's "invalid: " prefix.
func DomainDetail(err error) string { return domainDetail(err) }

// ValidMembership reports whether m (trimmed) is a federation membership
// number as people write it, or empty (a player without one): letters and
// digits, maybe one "-", "/" or "." between them, at least one digit
// (FT123456, 123456, RM-004512). UI.md §3 refuses malformed ones, and the
// API refuses them alike.
func ValidMembership(m string) bool {
	m = strings.TrimSpace(m)
	if m == "" {
		return true
	}
	digit, prevSep := false, true // a separator may not lead
	for i := 0; i < len(m); i++ {
		c := m[i]
		switch {
		case c >= '0' && c <= '9':
			digit, prevSep = true, false
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			prevSep = false
		case c == '-' || c == '/' || c == '.':
			if prevSep {
				return false
			}
			prevSep = true
		default:
			return false
		}
	}
	return digit && !prevSep
}

// checkMembership checks a membership number's length and shape.
func checkMembership(ptr, m string) *FieldError {
	if fe := checkText(ptr, m, MaxMembershipLength, false); fe != nil {
		return fe
	}
	if !ValidMembership(m) {
		fe := field(ptr, "api.membership_shape", m)
		return &fe
	}
	return nil
}

// domainField is the field refusal of a domain error at ptr: worded from
// the catalogue when the rule refused by code (domain.Refusal).
func domainField(ptr string, err error) FieldError {
	var ref *domain.Refusal
	if errors.As(err, &ref) {
		return field(ptr, ref.Code, ref.Args...)
	}
	return uncoded(ptr, domainDetail(err))
}

// domainError is the field refusal at ptr of a domain error as
// domainDetail words it: the rule's field first ("round: …") when the
// refusal names one.
func domainError(ptr string, err error) FieldError {
	var ref *domain.Refusal
	if errors.As(err, &ref) && ref.Field != "" {
		return field(ptr, "api.field", ref.Field, messages.New(ref.Code, ref.Args...))
	}
	return domainField(ptr, err)
}
