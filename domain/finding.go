package domain

import (
	"fmt"
	"strconv"
)

// Code names what a finding says is wrong (RULES §5.1, §6.3).
type Code string

// Hand findings, RULES §5.1.
const (
	HandTotalMismatch       Code = "HAND_TOTAL_MISMATCH"
	HandAfterTimeOut        Code = "HAND_AFTER_TIME_OUT"
	ClosureImpossible       Code = "CLOSURE_IMPOSSIBLE"
	NotMultipleOf5          Code = "NOT_MULTIPLE_OF_5"
	BaseNotRepresentable    Code = "BASE_NOT_REPRESENTABLE"
	BurracoTypeNotAllowed   Code = "BURRACO_TYPE_NOT_ALLOWED"
	BonusBreakdownMismatch  Code = "BONUS_BREAKDOWN_MISMATCH"
	PointsBreakdownMismatch Code = "POINTS_BREAKDOWN_MISMATCH"
	MultipleClosures        Code = "MULTIPLE_CLOSURES"
	ClosureWithoutBurraco   Code = "CLOSURE_WITHOUT_BURRACO"
	ClosureWithoutPozzetto  Code = "CLOSURE_WITHOUT_POZZETTO"
	ClosureBonusNotDue      Code = "CLOSURE_BONUS_NOT_DUE"
	PozzettoPenaltyInvalid  Code = "POZZETTO_PENALTY_INVALID"
	PozzettoInBase          Code = "POZZETTO_IN_BASE"
	// PozzettoUnplayedInvalid: a pozzetto taken but not played is written
	// below its 11 cards' least value, or not in fives (FITAB art. 18
	// "secondo il valore delle carte"; RULES §5.1).
	PozzettoUnplayedInvalid Code = "POZZETTO_UNPLAYED_INVALID"
	CardPointsImpossible    Code = "CARD_POINTS_IMPOSSIBLE"
	TooManyBurrachi         Code = "TOO_MANY_BURRACHI"
	CardPointsImplausible   Code = "CARD_POINTS_IMPLAUSIBLE"
	UnverifiableBreakdown   Code = "UNVERIFIABLE_BREAKDOWN"
)

// Match findings, RULES §6.3.
const (
	RunningTotalMismatch  Code = "RUNNING_TOTAL_MISMATCH"
	FinalTotalMismatch    Code = "FINAL_TOTAL_MISMATCH"
	MPMismatch            Code = "MP_MISMATCH"
	VPMismatch            Code = "VP_MISMATCH"
	VPSumNot20            Code = "VP_SUM_NOT_20"
	TotalsInverted        Code = "TOTALS_INVERTED"
	ResultInverted        Code = "RESULT_INVERTED"
	HandsExceedPlanned    Code = "HANDS_EXCEED_PLANNED"
	HandsFewerThanPlanned Code = "HANDS_FEWER_THAN_PLANNED"
	// LatePointsInvalid: a line's late_points is not one of the lateness
	// credits 0, 100, 150 (RULES §7; FITAB art. 38, FIBur-INT art. 34).
	LatePointsInvalid Code = "LATE_POINTS_INVALID"
)

// Severity says whether a finding makes the sheet wrong.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// Lang is the language of a finding's message.
type Lang string

const (
	English Lang = "en"
	Italian Lang = "it"
)

// Finding is one problem found on a sheet.
type Finding struct {
	Code     Code
	Severity Severity
	Hand     int   // 1-based; 0 for a match-level finding
	Line     *Line // nil when the finding is about no single line
	Field    string
	Written  *int
	Expected *int
	Rule     string // the article, e.g. "FITAB art. 18"
	// Pointer is the JSON pointer of the offending field; Cell is the
	// spreadsheet cell it came from, when the sheet came from one.
	Pointer string
	Cell    string
	// MessageEN and MessageIT, when set, are the message; otherwise the
	// validator's text is formatted on demand, in the one language asked
	// for (formatting both for every finding was most of Validate's time).
	MessageEN string
	MessageIT string
	text      lazyText
}

// lazyText is a message kept as its format strings and integer arguments,
// with the "hand h, NS: " prefix when hand > 0. Held by value and with no
// interface boxing, a finding costs the validator no allocation for its
// message.
type lazyText struct {
	en, it string
	hand   int
	line   Line
	ints   [3]int
	n      int // how many of ints are arguments
}

// Message returns the message in the given language (English by default).
func (f Finding) Message(l Lang) string {
	if l == Italian && f.MessageIT != "" {
		return f.MessageIT
	}
	if f.MessageEN != "" && (l != Italian || f.text.en == "") {
		return f.MessageEN
	}
	t := &f.text
	format, prefix := t.en, "hand %d, %s: "
	if l == Italian {
		format, prefix = t.it, "smazzata %d, %s: "
	}
	args := make([]any, 0, 5)
	if t.hand > 0 {
		format = prefix + format
		args = append(args, t.hand, t.line.Label())
	}
	for _, v := range t.ints[:t.n] {
		args = append(args, v)
	}
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// AppendMessage appends Message(l) to b. The validator's own texts (a
// format of %d verbs and integers) are written without fmt: no argument
// boxing and no string per finding (the CLI writes 100,000 reports in one
// run). Any other format goes through fmt, so the bytes are always
// Message's (TestAppendMessageIsMessage, FuzzAppendMessage).
func (f Finding) AppendMessage(b []byte, l Lang) []byte {
	if l == Italian && f.MessageIT != "" {
		return append(b, f.MessageIT...)
	}
	if f.MessageEN != "" && (l != Italian || f.text.en == "") {
		return append(b, f.MessageEN...)
	}
	t := &f.text
	format := t.en
	if l == Italian {
		format = t.it
	}
	ints := t.ints[:t.n]
	if len(ints) == 0 && t.hand <= 0 {
		return append(b, format...) // Message returns such a format as it is
	}
	if !onlyIntVerbs(format, len(ints)) {
		return append(b, f.Message(l)...)
	}
	if t.hand > 0 {
		if l == Italian {
			b = append(b, "smazzata "...)
		} else {
			b = append(b, "hand "...)
		}
		b = strconv.AppendInt(b, int64(t.hand), 10)
		b = append(b, ", "...)
		b = append(b, t.line.Label()...)
		b = append(b, ": "...)
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b = append(b, c)
			continue
		}
		i++
		if format[i] == '%' {
			b = append(b, '%')
			continue
		}
		b = strconv.AppendInt(b, int64(ints[0]), 10)
		ints = ints[1:]
	}
	return b
}

// onlyIntVerbs reports whether every verb of format is a bare %d or %%
// and there are exactly n %d: the formats AppendMessage writes itself.
func onlyIntVerbs(format string, n int) bool {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		if i+1 == len(format) {
			return false
		}
		i++
		switch format[i] {
		case '%':
		case 'd':
			n--
		default:
			return false
		}
	}
	return n == 0
}

// Report is the outcome of validating one sheet (API §2).
type Report struct {
	Ruleset  Ruleset
	VPTable  VPTable
	Computed Computed
	Findings []Finding
}

// OK reports whether no finding has severity error.
func (r Report) OK() bool { return r.Count(SeverityError) == 0 }

// Count is the number of findings of the severity.
func (r Report) Count(s Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// Computed holds what the sheet should say, computed from the entered
// hands whatever the findings.
type Computed struct {
	Hands []ComputedHand
	Lines [2]LineResult
}

// ComputedHand is one hand's totals per line.
type ComputedHand struct {
	Total        [2]int // base + points
	RunningTotal [2]int // sum so far, without late points
}

// LineResult is a line's match result.
type LineResult struct {
	Total int // Σ(base+points) + late points
	MP    int
	VP    int
}
