package xlsx

import (
	"strconv"
	"strings"
	"unicode"

	"segnapunti/domain"
)

// Readers of enumerated and structured cell values. Each takes the trimmed
// cell text and returns the domain value or an error the caller pins to
// the cell.

func parseHandEnd(s string) (domain.HandEnd, error) {
	if s == "" {
		return domain.EndUnknown, nil
	}
	if v, ok := lookup(handEndValues, s); ok {
		return domain.ParseHandEnd(v)
	}
	return "", refuse("xlsx.hand_end", s)
}

func parsePozzetto(s string) (domain.Pozzetto, error) {
	if s == "" {
		return domain.PozzettoUnknown, nil
	}
	if v, ok := lookup(pozzettoValues, s); ok {
		return domain.ParsePozzetto(v)
	}
	return "", refuse("xlsx.pozzetto", s)
}

// parseClosed reads a yes/no cell; nil when empty.
func parseClosed(s string) (*bool, error) {
	if s == "" {
		return nil, nil
	}
	if v, ok := lookup(boolValues, s); ok {
		return domain.Bool(v == "true"), nil
	}
	return nil, refuse("xlsx.yes_no", s)
}

// maxBurrachiOfType bounds a count in a breakdown: the deck holds at most 15
// burrachi of 7 cards (RULES §3, §5.1 TOO_MANY_BURRACHI); anything above
// that is a typing error, not a count to validate.
const maxBurrachiOfType = 15

// parseBurrachi reads a burraco breakdown: "pulito 1, sporco 2",
// "1 pulito + 2 sporchi", "2P 1S", "reale". A type without a count is one
// burraco; "0", "-" or "nessuno" is none (an empty, non-nil map); an empty
// cell is nil (not given). Types the ruleset lacks are kept: the validation
// reports them (RULES §5.1 BURRACO_TYPE_NOT_ALLOWED).
func parseBurrachi(s string) (map[domain.BurracoType]int, error) {
	if s == "" {
		return nil, nil
	}
	if _, ok := noBurrachi[fold(s)]; ok {
		return map[domain.BurracoType]int{}, nil
	}
	out := map[domain.BurracoType]int{}
	for _, item := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(",;+/\n", r) }) {
		if err := parseBurracoItem(item, out); err != nil {
			return nil, refuse("xlsx.burrachi", s, detailOf(err))
		}
	}
	return out, nil
}

// burracoToken is a run of digits or of words.
type burracoToken struct {
	num  int
	word string // folded; "" for a number
}

// parseBurracoItem reads one item ("pulito 1", "2 sporchi", "reale
// sporco") or, without separators, a run of them ("2P 1S", "pulito 1
// sporco 2"), into out.
func parseBurracoItem(item string, out map[domain.BurracoType]int) error {
	var toks []burracoToken
	rs := []rune(item)
	for i := 0; i < len(rs); {
		switch r := rs[i]; {
		case unicode.IsDigit(r):
			j := i
			for j < len(rs) && unicode.IsDigit(rs[j]) {
				j++
			}
			n, err := strconv.Atoi(string(rs[i:j]))
			if err != nil || n > maxBurrachiOfType {
				return refuse("xlsx.count_large", string(rs[i:j]))
			}
			toks = append(toks, burracoToken{num: n})
			i = j
		case unicode.IsLetter(r):
			// Words run on across spaces and "_"/"-" ("reale sporco").
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.Is(unicode.Mn, rs[j]) || rs[j] == ' ' || rs[j] == '_' || rs[j] == '-') {
				j++
			}
			toks = append(toks, burracoToken{word: fold(string(rs[i:j]))})
			i = j
		case unicode.IsSpace(r) || r == ':' || r == '=' || r == '×':
			i++
		default:
			return refuse("xlsx.unexpected", r)
		}
	}
	if len(toks) == 0 {
		return nil
	}
	// Pair counts and types in the order the item starts with: count first
	// ("2P 1S") or type first ("pulito 1 sporco 2"). A type without a count
	// is one.
	countFirst := toks[0].word == ""
	for i := 0; i < len(toks); {
		var n int
		var w string
		switch {
		case countFirst:
			if toks[i].word != "" {
				return refuse("xlsx.count_missing", toks[i].word)
			}
			if i+1 >= len(toks) || toks[i+1].word == "" {
				return refuse("xlsx.count_no_type", toks[i].num)
			}
			n, w, i = toks[i].num, toks[i+1].word, i+2
		default:
			if toks[i].word == "" {
				return refuse("xlsx.count_no_type", toks[i].num)
			}
			w, n, i = toks[i].word, 1, i+1
			if i < len(toks) && toks[i].word == "" {
				n, i = toks[i].num, i+1
			}
		}
		t, ok := burracoWords[w]
		if !ok {
			return refuse("xlsx.not_type", w)
		}
		bt, err := domain.ParseBurracoType(t)
		if err != nil {
			return err
		}
		if out[bt]+n > maxBurrachiOfType {
			return refuse("xlsx.too_many", bt)
		}
		if n > 0 {
			out[bt] += n
		}
	}
	return nil
}

// Tournament sheet values.

var rulesetValues = func() map[string]string {
	m := map[string][]string{}
	for _, r := range domain.Rulesets {
		m[string(r)] = nil
	}
	return foldTable(m)
}()

var vpTableValues = func() map[string]string {
	m := map[string][]string{}
	for _, t := range domain.VPTables() {
		m[t.ID()] = nil
	}
	return foldTable(m)
}()

func parseRulesetCell(s string) (domain.Ruleset, error) {
	if v, ok := lookup(rulesetValues, s); ok {
		return domain.ParseRuleset(v)
	}
	return "", refuse("xlsx.ruleset", s)
}

func parseLevelCell(s string) (domain.Level, error) {
	if v, ok := lookup(levelValues, s); ok {
		return domain.ParseLevel(v)
	}
	return "", refuse("xlsx.level", s)
}

func parseKindCell(s string) (domain.Kind, error) {
	if v, ok := lookup(kindValues, s); ok {
		return domain.ParseKind(v)
	}
	return "", refuse("xlsx.kind", s)
}

// autoVPTable are the words for "no fixed table: chosen per match by
// RULES §6.2" (the zero VPTable), as the tournament export writes it.
var autoVPTable = foldTable(map[string][]string{"auto": {"automatica", "automatic", "auto"}})

func parseVPTableCell(s string) (domain.VPTable, error) {
	if v, ok := lookup(vpTableValues, s); ok {
		return domain.ParseVPTable(v)
	}
	if _, ok := lookup(autoVPTable, s); ok {
		return domain.VPTable{}, nil
	}
	return domain.VPTable{}, refuse("xlsx.vp_table", s)
}

// splitPlayers splits "Greco / De Luca" into its names.
func splitPlayers(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune("/;&+\n", r) }) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
