package store

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"segnapunti/domain"
)

// encodeBurrachi writes a burraco breakdown (RULES §4) as canonical text,
// "type:count" pairs sorted by type and joined by commas, e.g.
// "pulito:1,sporco:2". A nil map (the sheet does not give the breakdown) is
// NULL; an empty one is "". Types are stored as given, known or not: the
// validator, not the store, reports a type the ruleset does not allow.
func encodeBurrachi(m map[domain.BurracoType]int) (*string, error) {
	if m == nil {
		return nil, nil
	}
	types := make([]string, 0, len(m))
	for t := range m {
		if !validBurracoKey(string(t)) {
			return nil, fmt.Errorf("%w: burraco type %q: want lower-case letters and _", domain.ErrInvalid, t)
		}
		types = append(types, string(t))
	}
	slices.Sort(types)
	var b strings.Builder
	for i, t := range types {
		n := m[domain.BurracoType(t)]
		if n < 0 {
			return nil, fmt.Errorf("%w: burrachi %s: count %d is negative", domain.ErrInvalid, t, n)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(t)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(n))
	}
	s := b.String()
	return &s, nil
}

// decodeBurrachi reads what encodeBurrachi wrote.
func decodeBurrachi(s *string) (map[domain.BurracoType]int, error) {
	if s == nil {
		return nil, nil
	}
	m := map[domain.BurracoType]int{}
	if *s == "" {
		return m, nil
	}
	for pair := range strings.SplitSeq(*s, ",") {
		t, count, ok := strings.Cut(pair, ":")
		if !ok || !validBurracoKey(t) {
			return nil, fmt.Errorf("stored burrachi %q: bad pair %q", *s, pair)
		}
		n, err := strconv.Atoi(count)
		if err != nil || n < 0 || count != strconv.Itoa(n) {
			return nil, fmt.Errorf("stored burrachi %q: bad count in %q", *s, pair)
		}
		if _, dup := m[domain.BurracoType(t)]; dup {
			return nil, fmt.Errorf("stored burrachi %q: %s twice", *s, t)
		}
		m[domain.BurracoType(t)] = n
	}
	return m, nil
}

func validBurracoKey(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && r != '_' {
			return false
		}
	}
	return true
}
