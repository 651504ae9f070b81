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
			return newProblem(ptr, off, "sheet.unknown_case", key, f.key)
		}
	}
	return newProblem(ptr, off, "sheet.unknown_field", key, s.label, s.names())
}

func duplicateField(ptr, key string, off int) *problem {
	return newProblem(ptr, off, "sheet.duplicate", key)
}

func unknownBurraco(ptr, key string, off int) *problem {
	return newProblem(ptr, off, "sheet.unknown_burraco", key, burracoNames())
}

func burracoCountRange(ptr, got string, off int) *problem {
	return newProblem(ptr, off, "sheet.burraco_range", MaxBurrachiPerType, got)
}

func nullElement(s *shape, ptr string, off int) *problem {
	return newProblem(ptr, off, "sheet.null", s.label, expected(s))
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
