package sheetjson

import (
	"strings"

	"segnapunti/domain"
)

// The messages of decoding errors, one function each, so the library's
// errors and the range checks of convert.go speak alike.

func burracoIndex(key string) int {
	for i, t := range domain.BurracoTypes {
		if string(t) == key {
			return i
		}
	}
	return -1
}

func unknownField(s *shape, ptr, key string, off int) *problem {
	for _, f := range s.fields {
		if strings.EqualFold(f.key, key) {
			return newProblem(ptr, off, "unknown field %q: field names are lower case, did you mean %q?", key, f.key)
		}
	}
	return newProblem(ptr, off, "unknown field %q: %s has only %s", key, s.label, s.names())
}

func duplicateField(ptr, key string, off int) *problem {
	return newProblem(ptr, off, "field %q appears twice; give each field once so the sheet has one reading", key)
}

func unknownBurraco(ptr, key string, off int) *problem {
	return newProblem(ptr, off, "unknown burraco type %q (want %s)", key, burracoNames())
}

func burracoCountRange(ptr, got string, off int) *problem {
	return newProblem(ptr, off, "a burraco count must be between 0 and %d, not %s", MaxBurrachiPerType, got)
}

func nullElement(s *shape, ptr string, off int) *problem {
	return newProblem(ptr, off, "%s must be %s, not null", s.label, expected(s))
}

func burracoNames() string {
	n := make([]string, len(domain.BurracoTypes))
	for i, t := range domain.BurracoTypes {
		n[i] = string(t)
	}
	return strings.Join(n[:len(n)-1], ", ") + " or " + n[len(n)-1]
}

// expected says what a value of the shape is, for "must be ..., not ...".
func expected(s *shape) string {
	switch s.kind {
	case kindObject:
		return "an object"
	case kindArray:
		return "an array"
	case kindBurrachi:
		return "an object of burraco counts"
	case kindString:
		return "a string"
	case kindInt:
		return "a whole number"
	default:
		return "true or false"
	}
}
