package domain

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// CorrectionKind is the kind of error a correction request claims was made
// on a delivered score sheet (RULES §9).
type CorrectionKind string

const (
	// CorrectionSum is an addition or subtraction error on the sheet ("errore
	// di somma o sottrazione", FITAB art. 20; "errore di somma", FIBur-INT
	// art. 19). [INTERP] (RULES §9.1): it covers every arithmetic step on the
	// sheet — hand, running and final totals, the MP difference and the VP
	// read from the table — not only the additions.
	CorrectionSum CorrectionKind = "sum"
	// CorrectionInversion is the two lines' results swapped ("inversione dei
	// punteggi").
	CorrectionInversion CorrectionKind = "inversion"
	// CorrectionTranscription is a result keyed into the tournament that
	// differs from the sheet ("errata trascrizione del risultato").
	CorrectionTranscription CorrectionKind = "transcription"
	// CorrectionOther is any substantive change: a recount, a new burraco...
	CorrectionOther CorrectionKind = "other"
)

// CorrectionKinds lists every correction kind.
var CorrectionKinds = []CorrectionKind{CorrectionSum, CorrectionInversion, CorrectionTranscription, CorrectionOther}

// ParseCorrectionKind returns the correction kind with the given id.
func ParseCorrectionKind(id string) (CorrectionKind, error) {
	if k := CorrectionKind(id); slices.Contains(CorrectionKinds, k) {
		return k, nil
	}
	return "", fmt.Errorf("%w: unknown correction kind %q (want sum, inversion, transcription or other)", ErrInvalid, id)
}

// Ruling is the referee's answer to a correction request (RULES §9).
type Ruling string

const (
	// RulingApply: correct the sheet and recompute the standings.
	RulingApply Ruling = "apply"
	// RulingApplyKeepPairing: correct the sheet, but the pairs sit as already
	// published; the corrected scores count from the next round (FITAB art.
	// 20 B, FIBur-INT art. 19 b).
	RulingApplyKeepPairing Ruling = "apply_keep_pairing"
	// RulingReject: the sheet stays as delivered.
	RulingReject Ruling = "reject"
)

// Rulings lists every ruling.
var Rulings = []Ruling{RulingApply, RulingApplyKeepPairing, RulingReject}

// ParseRuling returns the ruling with the given id.
func ParseRuling(id string) (Ruling, error) {
	if r := Ruling(id); slices.Contains(Rulings, r) {
		return r, nil
	}
	return "", fmt.Errorf("%w: unknown ruling %q (want apply, apply_keep_pairing or reject)", ErrInvalid, id)
}

// Applies reports whether the correction is to be made (with or without
// keeping the published pairing).
func (r Ruling) Applies() bool { return r == RulingApply || r == RulingApplyKeepPairing }

// CorrectionSituation is everything the correction articles look at: the
// body of POST /v1/rulings (API §4). Field by field:
//
//   - Phase is the phase of the round being played or paired when the error
//     is found ("se l'errore … è rilevato in una fase di gioco …").
//   - ErrorRound is the round of the erroneous sheet; CurrentRound the round
//     being played or paired when the error is found, and
//     CurrentRoundStarted whether its play has begun.
//   - TournamentClosed: the last round's sheet has been delivered.
//   - StandingsPublished, StandingsContested: the erroneous round's standings
//     (in the gironi phase, the paper standings of FITAB art. 20 C).
//   - PositionsPublished: the next round's table or group positions.
//   - BothLinesAcknowledge: both lines of the table acknowledge an inversion
//     (FIBur-INT art. 19).
//   - RefereeCountersigned: the referee was called before delivery to
//     countersign the sheet (FIBur-INT art. 19 c).
type CorrectionSituation struct {
	Ruleset              Ruleset
	Kind                 CorrectionKind
	Level                Level
	Phase                Phase
	ErrorRound           int
	CurrentRound         int
	CurrentRoundStarted  bool
	TournamentClosed     bool
	StandingsPublished   bool
	StandingsContested   bool
	PositionsPublished   bool
	BothLinesAcknowledge bool
	RefereeCountersigned bool
}

// Validate reports every field of the situation that cannot be right: an
// unknown ruleset, kind, level or phase, a round below 1 (facts that
// contradict each other are Contradictions'). Each problem wraps ErrInvalid and names the field
// as API §4 spells it.
func (s CorrectionSituation) Validate() error {
	var errs []error
	if !slices.Contains(Rulesets, s.Ruleset) {
		errs = append(errs, fmt.Errorf("%w: ruleset: unknown ruleset %q (want fitab-2025, fitab-int, fibur-ita or fibur-int)", ErrInvalid, s.Ruleset))
	}
	if !slices.Contains(CorrectionKinds, s.Kind) {
		errs = append(errs, fmt.Errorf("%w: kind: unknown correction kind %q (want sum, inversion, transcription or other)", ErrInvalid, s.Kind))
	}
	if !slices.Contains(Levels, s.Level) {
		errs = append(errs, fmt.Errorf("%w: level: unknown level %q (want club, provincial, regional, national or event)", ErrInvalid, s.Level))
	}
	if !slices.Contains(Phases, s.Phase) {
		errs = append(errs, fmt.Errorf("%w: phase: unknown phase %q (want mitchell, danese, danese_modificato, italiana or gironi)", ErrInvalid, s.Phase))
	}
	if s.ErrorRound < 1 {
		errs = append(errs, fmt.Errorf("%w: error_round: %d is not a round number (rounds start at 1)", ErrInvalid, s.ErrorRound))
	}
	if s.CurrentRound < 1 {
		errs = append(errs, fmt.Errorf("%w: current_round: %d is not a round number (rounds start at 1)", ErrInvalid, s.CurrentRound))
	}
	return errors.Join(errs...)
}

// Contradiction is one pair (or more) of facts of a correction situation
// that cannot both hold. Field is the field to correct, as API §4 spells
// it; With lists the fields it contradicts.
type Contradiction struct {
	Field  string
	With   []string
	Detail string
}

// ContradictionError lists the contradictions of a situation (RULES §9:
// "The facts of a request must agree"). It wraps ErrInvalid.
type ContradictionError struct {
	Contradictions []Contradiction
}

func (e *ContradictionError) Error() string {
	parts := make([]string, len(e.Contradictions))
	for i, c := range e.Contradictions {
		parts[i] = c.Field + ": " + c.Detail
	}
	return "contradictory correction facts: " + strings.Join(parts, "; ")
}

func (e *ContradictionError) Unwrap() error { return ErrInvalid }

// laterRoundStarted: a round after the erroneous one has started — the
// current round is later and started, or later than the next one (RULES §9).
func (s CorrectionSituation) laterRoundStarted() bool {
	return (s.CurrentRound > s.ErrorRound && s.CurrentRoundStarted) || s.CurrentRound > s.ErrorRound+1
}

// Contradictions reports the facts of the situation that contradict each
// other (RULES §9), as a *ContradictionError, or nil:
//
//   - current_round before error_round: the erroneous round has not been
//     played;
//   - a round after the erroneous one has started, so the positions of the
//     round after the erroneous one were published (every round starts
//     from its published positions), but positions_published is false;
//   - the same, in a score-dependent phase (danese, danese_modificato,
//     gironi), whose pairing is made from the erroneous round's standings,
//     but standings_published is false.
//
// Call it on a situation that passed Validate.
func (s CorrectionSituation) Contradictions() error {
	var cs []Contradiction
	if s.ErrorRound > s.CurrentRound {
		cs = append(cs, Contradiction{Field: "error_round", With: []string{"current_round"},
			Detail: fmt.Sprintf("round %d has not been played yet: current_round is %d", s.ErrorRound, s.CurrentRound)})
		return &ContradictionError{Contradictions: cs}
	}
	if !s.laterRoundStarted() {
		return nil
	}
	started := fmt.Sprintf("current_round %d", s.CurrentRound)
	with := []string{"current_round", "error_round"}
	if s.CurrentRound == s.ErrorRound+1 {
		started += " has started (current_round_started)"
		with = append(with, "current_round_started")
	} else {
		started += fmt.Sprintf(" is after round %d", s.ErrorRound+1)
	}
	if !s.PositionsPublished {
		cs = append(cs, Contradiction{Field: "positions_published", With: with,
			Detail: fmt.Sprintf("false, but %s, so the positions of round %d, the one after the erroneous round %d, were published", started, s.ErrorRound+1, s.ErrorRound)})
	}
	if !s.Phase.ScoreIndependent() && !s.StandingsPublished {
		cs = append(cs, Contradiction{Field: "standings_published", With: append(with, "phase"),
			Detail: fmt.Sprintf("false, but %s in a phase that pairs by the standings (%s), so the standings of round %d were published", started, s.Phase, s.ErrorRound)})
	}
	if len(cs) == 0 {
		return nil
	}
	return &ContradictionError{Contradictions: cs}
}

// Decision is the ruling on a correction request, the articles it rests on
// and a one-sentence reason in English and Italian (the answer of POST
// /v1/rulings).
type Decision struct {
	Ruling Ruling
	// Rules holds the articles of the codes the ruling rests on ("FITAB
	// art. 20", "FIBur-INT art. 19").
	Rules []string
	// Row is the row of RULES.md that decided ("RULES §9.1 rule 2"), for
	// tests and logs; users never see RULES.md, so the reasons cite the
	// federation article instead.
	Row string
	// Reason (English) and ReasonIT (Italian) say why, ending with the
	// article and paragraph of the code that decided ("(FITAB art. 20,
	// point B)").
	Reason   string
	ReasonIT string
}

// ReasonIn is the reason in the given language (English by default).
func (d Decision) ReasonIn(l Lang) string {
	if l == Italian && d.ReasonIT != "" {
		return d.ReasonIT
	}
	return d.Reason
}

// Decide rules on a correction request (RULES §9): the FITAB art. 20 table
// for fitab-2025 and fitab-int, the FIBur-INT art. 19 table for fibur-ita and
// fibur-int, each evaluated in order, the first deciding rule winning.
//
// Decide expects a situation that passed Validate; on one that did not, or
// whose error round is after its current round, it rejects, with the error
// as the reason, rather than guess. The other contradictions of
// Contradictions are the stateless endpoint's to refuse: the service's own
// corrections read the facts from its records.
func Decide(s CorrectionSituation) Decision {
	err := s.Validate()
	if err == nil && s.ErrorRound > s.CurrentRound {
		err = s.Contradictions()
	}
	if err != nil {
		return Decision{Ruling: RulingReject, Reason: "invalid correction situation: " + err.Error(),
			ReasonIT: "situazione di correzione non valida: " + err.Error()}
	}
	if s.Ruleset.Federation() == FITAB {
		return decideFITAB(s)
	}
	return decideFIBur(s)
}

// reason is one row's reason: the same sentence in both languages, and the
// article (with its paragraph) it cites.
type reason struct{ en, it, cite string }

func decision(r Ruling, article, row string, why reason) Decision {
	return Decision{Ruling: r, Rules: []string{article}, Row: row,
		Reason: why.en + " (" + why.cite + ")", ReasonIT: why.it + " (" + why.cite + ")"}
}

// decideFITAB is RULES §9.1, FITAB art. 20.
func decideFITAB(s CorrectionSituation) Decision {
	const article = "FITAB art. 20"
	d := func(r Ruling, row int, why reason) Decision {
		return decision(r, article, fmt.Sprintf("RULES §9.1 rule %d", row), why)
	}
	switch {
	case s.Kind == CorrectionOther:
		return d(RulingReject, 1, reason{
			"a delivered sheet is valid and final, except for an addition or subtraction error",
			"consegnato all'arbitro, lo score è valido e definitivo, salvo l'eventuale errore di somma o sottrazione",
			article})
	case stopsCorrectingAfterThirdRound(s.Level) && errorOnSheet(s.Kind) && thirdFollowingRoundStarted(s):
		return d(RulingReject, 2, reason{
			fmt.Sprintf("in %s tournaments an error on the sheet found after the start of the third round following the erroneous one (round %d) can no longer be corrected", s.Level, s.ErrorRound+3),
			fmt.Sprintf("nei tornei regionali e nazionali gli errori sullo score evidenziati dopo l'inizio del terzo turno successivo all'errore (turno %d) non sono più correggibili", s.ErrorRound+3),
			article})
	case s.Kind == CorrectionInversion && s.TournamentClosed:
		return d(RulingReject, 3, reason{
			"an inversion of the scores found after the last round's sheet was delivered cannot be corrected",
			"alla fine dell'ultimo turno, consegnato lo score all'arbitro, gli errori di inversione punteggio non sono correggibili",
			article})
	case s.Phase == PhaseGironi && s.StandingsPublished && !s.StandingsContested && s.PositionsPublished:
		return d(RulingReject, 4, reason{
			"group-forming phase: the paper standings were published and not contested, and the group positions are published; no correction can be made any more",
			"fase di creazione dei gironi: la classifica cartacea è stata pubblicata senza contestazioni e la posizione ai tavoli con i gironi è pubblicata; nessuna correzione può più essere effettuata",
			article + ", point C"})
	case s.Phase.ScoreIndependent():
		return d(RulingApply, 5, reason{
			fmt.Sprintf("the error was found in a phase that does not depend on the scores (%s): the sheet is corrected", s.Phase),
			fmt.Sprintf("l'errore è rilevato in una fase di gioco indipendente dai punteggi acquisiti (%s): si procede alla correzione", s.Phase),
			article})
	case !s.PositionsPublished:
		return d(RulingApply, 6, reason{
			"the next round's table positions are not yet published: the sheet is corrected",
			"la posizione ai tavoli del turno successivo non è ancora stata resa nota: l'arbitro attua la correzione",
			article + ", point A"})
	default:
		return d(RulingApplyKeepPairing, 6, reason{
			"the next round's table positions are published: the pairs sit as published and the corrected scores count from the next round",
			"la posizione ai tavoli è stata pubblicata: le coppie siedono nella posizione già indicata e i punteggi corretti valgono per il turno successivo",
			article + ", point B"})
	}
}

// decideFIBur is RULES §9.2, FIBur-INT art. 19.
func decideFIBur(s CorrectionSituation) Decision {
	const article = "FIBur-INT art. 19"
	d := func(r Ruling, row int, why reason) Decision {
		return decision(r, article, fmt.Sprintf("RULES §9.2 rule %d", row), why)
	}
	switch {
	case s.Kind == CorrectionOther:
		return d(RulingReject, 1, reason{
			"a delivered sheet is valid and final; the only error that can be corrected is an addition error",
			"consegnato all'arbitro, lo score è valido e definitivo; il solo errore correggibile è l'errore di somma",
			article})
	case s.Kind == CorrectionInversion && !s.BothLinesAcknowledge:
		return d(RulingReject, 2, reason{
			"an inversion of the scores is corrected only when the table jointly acknowledges it",
			"un'inversione dei punteggi si rettifica solo se il tavolo, congiuntamente, riconosce l'errore commesso",
			article})
	case s.Kind == CorrectionTranscription && s.PositionsPublished:
		return d(RulingApplyKeepPairing, 3, reason{
			"a transcription error is corrected even after the standings and the next pairing were made; the pairs sit as published",
			"l'errata trascrizione del risultato si corregge anche se è già stata stilata la classifica e l'accoppiamento per il turno successivo; le coppie siedono come pubblicato",
			article})
	case s.Kind == CorrectionTranscription:
		return d(RulingApply, 3, reason{
			"a transcription error is corrected",
			"l'errata trascrizione del risultato si corregge",
			article})
	case s.TournamentClosed && !s.RefereeCountersigned:
		return d(RulingReject, 4, reason{
			"no correction after the last round unless the referee was called before delivery to countersign the sheet",
			"dopo l'ultimo turno di gara non sono ammesse correzioni se non si è chiamato preventivamente l'arbitro a controfirmare lo score",
			article + ", point c"})
	case s.Kind == CorrectionSum && fiburSumTooLate(s):
		return d(RulingReject, 5, reason{
			"an addition error is corrected only if it is pointed out before the referee made the round's standings and the next pairing",
			"l'errore di somma si corregge solo se evidenziato prima che l'arbitro abbia effettuato la classifica del turno e l'accoppiamento del successivo",
			article})
	case s.Phase.ScoreIndependent():
		return d(RulingApply, 6, reason{
			fmt.Sprintf("the error was found in a phase that does not depend on the scores (%s): the sheet is corrected", s.Phase),
			fmt.Sprintf("l'errore è rilevato in una fase di gioco indipendente dai punteggi acquisiti (%s): si procede alla correzione", s.Phase),
			article})
	case !s.PositionsPublished:
		return d(RulingApply, 7, reason{
			"the next round's table positions are not yet published: the sheet is corrected",
			"la posizione ai tavoli non è ancora stata resa nota: l'arbitro attua la correzione",
			article + ", point a"})
	default:
		return d(RulingApplyKeepPairing, 7, reason{
			"the next round's table positions are published: play starts with the pairing as it was, and the result is corrected",
			"la posizione ai tavoli è stata redatta e pubblicata: si inizia il gioco correggendo il risultato, ma lasciando l'accoppiamento com'era",
			article + ", point b"})
	}
}

// stopsCorrectingAfterThirdRound: FITAB art. 20, "Nei tornei Regionali e
// Nazionali eventuali errori sullo score, evidenziati dopo l'inizio del terzo
// turno successivo all'errore, non saranno più correggibili". Club,
// provincial and event tournaments have no such limit.
func stopsCorrectingAfterThirdRound(l Level) bool {
	return l == LevelRegional || l == LevelNational
}

// thirdFollowingRoundStarted reports whether the error was found after the
// start of the third round following the erroneous one: the current round is
// error round + 3 and has started, or is later (FITAB art. 20).
func thirdFollowingRoundStarted(s CorrectionSituation) bool {
	third := s.ErrorRound + 3
	return s.CurrentRound > third || (s.CurrentRound == third && s.CurrentRoundStarted)
}

// errorOnSheet says whether the FITAB art. 20 three-round limit ("errori
// sullo score") covers the kind. [INTERP] (RULES §9.1 rule 2): a
// transcription error is not an error on the sheet — the sheet is right, the
// tournament's copy is wrong — so only sum and inversion errors expire.
func errorOnSheet(k CorrectionKind) bool {
	return k == CorrectionSum || k == CorrectionInversion
}

// fiburSumTooLate reports whether an addition error was found after the
// referee made the erroneous round's standings and the next pairing
// (FIBur-INT art. 19: "purché venga evidenziato prima che l'arbitro abbia
// effettuato la classifica del turno e l'accoppiamento del successivo").
// [INTERP] (RULES §9.2 rule 5): this limit holds in every phase, Mitchell and
// Italian round robin included — the phase paragraphs of the article say how
// an admissible correction is applied, not which corrections are admissible.
func fiburSumTooLate(s CorrectionSituation) bool {
	return s.StandingsPublished && s.PositionsPublished
}
