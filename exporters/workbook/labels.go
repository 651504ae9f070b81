package workbook

import (
	"strconv"

	"segnapunti/domain"
)

// Italian labels: what a person reads in the workbook and CSV instead of
// the API ids. One table per enumeration, in this one file; an
// id without a label (a value added to the domain later) is shown as the
// id. The JSON export keeps the ids.
var (
	levelIT = map[domain.Level]string{
		domain.LevelClub:       "circolo",
		domain.LevelProvincial: "provinciale",
		domain.LevelRegional:   "regionale",
		domain.LevelNational:   "nazionale",
		domain.LevelEvent:      "evento",
	}
	kindIT = map[domain.Kind]string{
		domain.KindPairs:         "coppie",
		domain.KindIndividual:    "individuale",
		domain.KindTeams:         "squadre",
		domain.KindInternational: "internazionale",
	}
	// endIT are words the xlsx importer reads back (its handEndValues), so
	// an exported Smazzate sheet imports again.
	endIT = map[domain.HandEnd]string{
		domain.EndClosed:         "chiusura",
		domain.EndStockExhausted: "tallone esaurito",
		domain.EndTimeOut:        "tempo scaduto",
		domain.EndStall:          "stallo",
		domain.EndInterrupted:    "interrotta",
	}
	// The wording of the federation codes (RULES §7, FITAB art. 20-21,
	// 37-38/bis; FIBur-INT art. 19-20, 33-34).
	reasonIT = map[domain.AdjustmentReason]string{
		domain.ReasonWarning:            "ammonizione",
		domain.ReasonLateUpTo5:          "ritardo fino a 5 minuti",
		domain.ReasonLate5To10:          "ritardo da 5 a 10 minuti",
		domain.ReasonLateOver10:         "ritardo oltre 10 minuti",
		domain.ReasonBye:                "riposo",
		domain.ReasonAbandonTemporary:   "abbandono temporaneo",
		domain.ReasonAbandonJustified:   "abbandono giustificato",
		domain.ReasonAbandonUnjustified: "abbandono ingiustificato",
		domain.ReasonForcedRemoval:      "allontanamento",
		domain.ReasonLateStart:          "ingresso ritardato",
		domain.ReasonRefereeScore:       "punteggio arbitrale",
	}
	correctionIT = map[domain.CorrectionKind]string{
		domain.CorrectionSum:           "errore di somma",
		domain.CorrectionInversion:     "inversione dei punteggi",
		domain.CorrectionTranscription: "errata trascrizione",
		domain.CorrectionOther:         "altro",
	}
	rulingIT = map[domain.Ruling]string{
		domain.RulingApply:            "accolta",
		domain.RulingApplyKeepPairing: "accolta, abbinamenti invariati",
		domain.RulingReject:           "respinta",
	}
)

// italian is the label of an id, or the id itself when it has none.
func italian[K ~string](labels map[K]string, id K) string {
	if l, ok := labels[id]; ok {
		return l
	}
	return string(id)
}

// entrantCell is an entrant id as a cell: a number when the id is one
// ("12", written as a numeric cell so it sorts and filters as a number),
// the text otherwise ("A7", "007" — a leading zero would be lost).
func entrantCell(id string) any {
	if id == "" || len(id) > 9 || (id[0] == '0' && id != "0") {
		return id
	}
	n, err := strconv.Atoi(id)
	if err != nil || n < 0 || strconv.Itoa(n) != id {
		return id
	}
	return n
}

// The Italian label of each enumeration, as the workbook and CSV show it
// (for callers and tests that compare an export with stored ids).
func LevelLabel(v domain.Level) string               { return italian(levelIT, v) }
func KindLabel(v domain.Kind) string                 { return italian(kindIT, v) }
func HandEndLabel(v domain.HandEnd) string           { return italian(endIT, v) }
func ReasonLabel(v domain.AdjustmentReason) string   { return italian(reasonIT, v) }
func CorrectionLabel(v domain.CorrectionKind) string { return italian(correctionIT, v) }
func RulingLabel(v domain.Ruling) string             { return italian(rulingIT, v) }
