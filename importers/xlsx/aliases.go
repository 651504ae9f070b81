package xlsx

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"segnapunti/domain"
)

// Every word the importer recognises — sheet names, column headers, labels,
// keys and enumerated cell values, in Italian and English — is in this file,
// so that adding a synonym is a one-line change (API §5: headers are matched
// case-, accent- and punctuation-insensitively, in Italian or English).
//
// Aliases are written here in any form; they are normalised (see fold) when
// the tables are built, so "N-S Punti", "ns_points" and "NS punti" are one.

// Canonical field names. Line fields are "ns_" or "eo_" + the field.
const (
	fRound        = "round"
	fTable        = "table"
	fHand         = "hand"
	fEnd          = "end"
	fTournament   = "tournament"
	fBase         = "base"
	fPoints       = "points"
	fTotal        = "total"
	fRunningTotal = "running_total"
	fClosed       = "closed"
	fPozzetto     = "pozzetto"
	fBurrachi     = "burrachi"
	fMP           = "mp"
	fVP           = "vp"
	fLatePoints   = "late_points"
	fID           = "id" // the line's pair/player/team id
	fPlayers      = "players"
)

// lineWords are how a header names a line: NS / N-S / Nord-Sud, EO / E-O /
// Est-Ovest (and the English East-West).
var lineWords = [2][]string{
	domain.NS: {"ns", "nord sud", "north south"},
	domain.EO: {"eo", "est ovest", "ew", "east west", "oe"},
}

// lineFieldWords are the words for each per-line field; a header is a line
// word and a field word in either order ("NS Punti", "Punti NS").
var lineFieldWords = map[string][]string{
	fBase:         {"base", "basi", "bonus"},
	fPoints:       {"points", "punti", "pts", "punti carte"},
	fTotal:        {"total", "totale", "tot"},
	fRunningTotal: {"running total", "progressivo", "totale progressivo", "progressive", "cumulative", "cumulativo"},
	fClosed:       {"closed", "chiusura", "chiuso", "chiude", "ha chiuso"},
	fPozzetto:     {"pozzetto", "kitty"},
	fBurrachi:     {"burrachi", "burraco", "burracos", "burraci"},
	fMP:           {"mp", "match points", "punti match", "differenza", "diff"},
	fVP:           {"vp", "pv", "victory points", "punti vittoria"},
	fLatePoints:   {"late points", "late", "ritardo", "punti ritardo", "bonus ritardo"},
	fID:           {"", "pair", "coppia", "id", "team", "squadra", "player", "giocatore", "linea", "line"},
	fPlayers:      {"players", "giocatori", "names", "nomi"},
}

// plainWords are the fields that belong to no line.
var plainWords = map[string][]string{
	fRound:      {"round", "turno", "rnd"},
	fTable:      {"table", "tavolo", "tav", "tbl"},
	fHand:       {"hand", "smazzata", "mano", "deal", "hand no", "smazzata n", "smazzata nr"},
	fEnd:        {"end", "fine", "hand end", "fine smazzata", "esito", "conclusione"},
	fTournament: {"tournament", "torneo", "evento", "event", "manifestazione"},
}

// Contexts: which fields a header row or label block may name.
var (
	// handColumns: the tidy Hands/Smazzate sheet and the paper hand header
	// row (API §5 A and B).
	handColumns = buildAliases(
		[]string{fRound, fTable, fHand, fEnd},
		[]string{fID, fBase, fPoints, fTotal, fRunningTotal, fClosed, fPozzetto, fBurrachi})
	// resultColumns: the tidy Results/Risultati sheet.
	resultColumns = buildAliases(
		[]string{fRound, fTable},
		[]string{fID, fTotal, fMP, fVP, fLatePoints})
	// paperLabels: the label/value block above a paper sheet's hand rows.
	paperLabels = buildAliases(
		[]string{fTournament, fRound, fTable},
		[]string{fID, fPlayers})
)

// footerLabels label the rows under a paper sheet's hands (API §5 B).
var footerLabels = foldTable(map[string][]string{
	fTotal:      {"total", "totale", "totali", "totals", "totale finale", "final total"},
	fMP:         {"mp", "differenza", "mp differenza", "match points", "punti match", "diff"},
	fVP:         {"vp", "pv", "victory points", "punti vittoria"},
	fLatePoints: {"late points", "ritardo", "punti ritardo", "bonus ritardo"},
})

// Tournament/Torneo sheet keys (API §5 A).
const (
	kRuleset      = "ruleset"
	kHandsPlanned = "hands_planned"
	kName         = "name"
	kLevel        = "level"
	kKind         = "kind"
	kVPTable      = "vp_table"
)

var tournamentKeys = foldTable(map[string][]string{
	kRuleset:      {"ruleset", "regolamento", "codice", "codice di gara", "rules"},
	kHandsPlanned: {"hands planned", "smazzate", "smazzate previste", "hands per round", "smazzate per turno", "hands", "mani"},
	kName:         {"name", "nome", "torneo", "tournament", "nome torneo"},
	kLevel:        {"level", "livello"},
	kKind:         {"kind", "tipo", "tipo torneo"},
	kVPTable:      {"vp table", "tabella vp", "tabella"},
})

// Sheet names.
const (
	sheetHands      = "hands"
	sheetResults    = "results"
	sheetTournament = "tournament"
	// sheetInstructions: the template's instructions and example match,
	// never read (an unchanged template must import nothing).
	sheetInstructions = "instructions"
)

var sheetNames = foldTable(map[string][]string{
	sheetHands:        {"hands", "smazzate"},
	sheetResults:      {"results", "risultati"},
	sheetTournament:   {"tournament", "torneo"},
	sheetInstructions: {"instructions", "istruzioni", "example", "esempio"},
})

// Enumerated cell values. The ids of API §1 are always accepted.

var handEndValues = foldTable(map[string][]string{
	string(domain.EndClosed):         {"closed", "chiusura", "chiusa", "chiuso"},
	string(domain.EndStockExhausted): {"stock exhausted", "tallone esaurito", "mazzo esaurito", "fine tallone", "fine mazzo"},
	string(domain.EndTimeOut):        {"time out", "tempo scaduto", "fine tempo"},
	string(domain.EndStall):          {"stall", "stallo"},
	string(domain.EndInterrupted):    {"interrupted", "interrotta", "interrotto", "sospesa"},
})

var pozzettoValues = foldTable(map[string][]string{
	string(domain.PozzettoTaken):       {"taken", "preso", "presa", "si", "yes"},
	string(domain.PozzettoNotTaken):    {"not taken", "non preso", "no"},
	string(domain.PozzettoTakenUnplay): {"taken not played", "preso non giocato", "preso ma non giocato", "non giocato"},
})

var boolValues = foldTable(map[string][]string{
	"true":  {"true", "yes", "y", "si", "s", "vero", "x", "1", "✓", "✔"},
	"false": {"false", "no", "n", "falso", "0"},
})

var levelValues = foldTable(map[string][]string{
	string(domain.LevelClub):       {"club", "circolo", "di circolo"},
	string(domain.LevelProvincial): {"provincial", "provinciale"},
	string(domain.LevelRegional):   {"regional", "regionale"},
	string(domain.LevelNational):   {"national", "nazionale"},
	string(domain.LevelEvent):      {"event", "evento"},
})

var kindValues = foldTable(map[string][]string{
	string(domain.KindPairs):         {"pairs", "coppie", "a coppie"},
	string(domain.KindIndividual):    {"individual", "individuale"},
	string(domain.KindTeams):         {"teams", "squadre", "a squadre"},
	string(domain.KindInternational): {"international", "internazionale"},
})

// burracoWords names burraco types in a breakdown cell ("pulito 1, sporco 2"
// or "2P 1S"), singular, plural and the one- or two-letter abbreviations.
var burracoWords = foldTable(map[string][]string{
	string(domain.Reale):       {"reale", "reali", "r"},
	string(domain.RealeSporco): {"reale sporco", "reali sporchi", "rs"},
	string(domain.Super):       {"super", "su"},
	string(domain.SuperSporco): {"super sporco", "super sporchi", "sus"},
	string(domain.Pulito):      {"pulito", "puliti", "clean", "p"},
	string(domain.Semipulito):  {"semipulito", "semipuliti", "semi pulito", "semi puliti", "semiclean", "sp"},
	string(domain.Sporco):      {"sporco", "sporchi", "dirty", "s"},
})

// noBurrachi says "none" in a breakdown cell.
var noBurrachi = foldTable(map[string][]string{
	"none": {"none", "nessuno", "0", "-"},
})

// Template words: what the blank workbook writes (Italian, FITAB's
// language), each of which the tables above read back.
var (
	templateEnds      = []string{"chiusura", "tallone esaurito", "tempo scaduto", "stallo", "interrotta"}
	templateBools     = []string{"sì", "no"}
	templatePozzetti  = []string{"preso", "non preso", "preso non giocato"}
	templateRulesets  = []string{string(domain.FITAB2025), string(domain.FITABInt), string(domain.FIBurIta), string(domain.FIBurInt)}
	templateLevels    = []string{"club", "provincial", "regional", "national", "event"}
	templateHandHeads = []string{"Turno", "Tavolo", "Smazzata", "NS", "EO",
		"NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale",
		"Fine", "NS Chiusura", "EO Chiusura", "NS Pozzetto", "EO Pozzetto", "NS Burrachi", "EO Burrachi"}
	templateResultHeads = []string{"Turno", "Tavolo", "NS Totale", "EO Totale", "NS MP", "EO MP", "NS VP", "EO VP"}
)

// lineField is the canonical name of a per-line field, e.g. "ns_points".
func lineField(l domain.Line, field string) string { return l.String() + "_" + field }

// buildAliases builds a header table for the plain fields and, for each
// line, the line fields.
func buildAliases(plain, perLine []string) map[string]string {
	t := map[string]string{}
	for _, f := range plain {
		for _, w := range plainWords[f] {
			addAlias(t, w, f)
		}
	}
	for _, l := range domain.Lines {
		for _, f := range perLine {
			for _, lw := range lineWords[l] {
				for _, fw := range lineFieldWords[f] {
					addAlias(t, lw+" "+fw, lineField(l, f))
					addAlias(t, fw+" "+lw, lineField(l, f))
				}
			}
		}
	}
	return t
}

// foldTable maps every folded alias to its canonical value.
func foldTable(m map[string][]string) map[string]string {
	t := map[string]string{}
	for canon, aliases := range m {
		addAlias(t, canon, canon)
		for _, a := range aliases {
			addAlias(t, a, canon)
		}
	}
	return t
}

// aliasConflicts lists aliases that fold to one key with two meanings; a
// test keeps it empty (the tables are constant data).
var aliasConflicts []string

func addAlias(t map[string]string, alias, canon string) {
	k := fold(alias)
	if old, ok := t[k]; ok && old != canon {
		aliasConflicts = append(aliasConflicts, alias+": "+old+" / "+canon)
	}
	t[k] = canon
}

// fold reduces a header or value to its comparable form: accents removed,
// lower case, only letters and digits ("N-S Punti" → "nspunti", "Città" →
// "citta"). Symbols that are a whole value (✓) are kept.
func fold(s string) string {
	if !isASCII(s) {
		s = norm.NFD.String(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	if b.Len() == 0 {
		// A value made only of a symbol ("✓", "-") is that symbol.
		return strings.TrimSpace(s)
	}
	return b.String()
}

// lookup finds s in a folded table; a parenthesised note is ignored
// ("MP (Differenza)" is "MP", "NS Punti (carte)" is "NS Punti").
func lookup(table map[string]string, s string) (string, bool) {
	if v, ok := table[fold(s)]; ok {
		return v, true
	}
	if i := strings.IndexByte(s, '('); i > 0 {
		if v, ok := table[fold(s[:i])]; ok {
			return v, true
		}
	}
	return "", false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
