package domain

import "fmt"

// Line is one of the two sides at a table (RULES §1).
type Line int

const (
	NS Line = iota // Nord-Sud
	EO             // Est-Ovest
)

// Lines lists both lines, NS first.
var Lines = [2]Line{NS, EO}

// String is the line's id, "ns" or "eo".
func (l Line) String() string {
	if l == EO {
		return "eo"
	}
	return "ns"
}

// Label is the line as a referee writes it, "NS" or "EO".
func (l Line) Label() string {
	if l == EO {
		return "EO"
	}
	return "NS"
}

// Other is the opposing line.
func (l Line) Other() Line { return 1 - l }

// HandEnd is how a hand ended (RULES §5).
type HandEnd string

const (
	EndUnknown        HandEnd = ""
	EndClosed         HandEnd = "closed"
	EndStockExhausted HandEnd = "stock_exhausted"
	EndTimeOut        HandEnd = "time_out"
	EndStall          HandEnd = "stall"
	EndInterrupted    HandEnd = "interrupted"
)

// HandEnds lists the known ends.
var HandEnds = []HandEnd{EndClosed, EndStockExhausted, EndTimeOut, EndStall, EndInterrupted}

// ParseHandEnd returns the end with the given id; "" is unknown.
func ParseHandEnd(id string) (HandEnd, error) {
	if id == "" {
		return EndUnknown, nil
	}
	for _, e := range HandEnds {
		if string(e) == id {
			return e, nil
		}
	}
	return "", fmt.Errorf("%w: unknown hand end %q (want closed, stock_exhausted, time_out, stall or interrupted)", ErrInvalid, id)
}

// Pozzetto is what a line did with its pozzetto (kitty).
type Pozzetto string

const (
	PozzettoUnknown     Pozzetto = ""
	PozzettoTaken       Pozzetto = "taken"
	PozzettoNotTaken    Pozzetto = "not_taken"
	PozzettoTakenUnplay Pozzetto = "taken_not_played"
)

// ParsePozzetto returns the pozzetto state with the given id; "" is unknown.
func ParsePozzetto(id string) (Pozzetto, error) {
	switch p := Pozzetto(id); p {
	case PozzettoUnknown, PozzettoTaken, PozzettoNotTaken, PozzettoTakenUnplay:
		return p, nil
	}
	return "", fmt.Errorf("%w: unknown pozzetto state %q (want taken, not_taken or taken_not_played)", ErrInvalid, id)
}

// Taken reports whether the line took its pozzetto (played or not).
func (p Pozzetto) Taken() bool { return p == PozzettoTaken || p == PozzettoTakenUnplay }

// Sheet is one match's score sheet as entered: what the players wrote, not
// what it should have been (API §1). Optional numbers are pointers: nil
// means the sheet does not say.
type Sheet struct {
	Ruleset      Ruleset
	HandsPlanned int
	Kind         Kind
	VPTable      VPTable // pinned table, zero when not pinned
	Tournament   string
	Round        int // 0 when not given
	Table        int // 0 when not given
	Sides        [2]Side
	FirstDealer  string // n, e, s, o or ""
	LatePoints   [2]int // referee's lateness credits (RULES §7), added to final totals
	Hands        []Hand
	Written      [2]WrittenResult
	// Cells maps a field's JSON pointer (e.g. "/hands/1/ns/total",
	// "/written/eo/vp") to the spreadsheet cell it came from
	// ("Smazzate!K12"); nil for sheets that did not come from a spreadsheet.
	Cells map[string]string
}

// Side is one line's entrant: ID for a pair or a team; IDs, the two
// players' entrant ids, for a line of an individual tournament (API §4.2
// "ids").
type Side struct {
	ID      string
	IDs     []string
	Players []string
}

// Entrants is the entrant ids the side names: IDs, or ID alone.
func (s Side) Entrants() []string {
	if len(s.IDs) > 0 {
		return s.IDs
	}
	if s.ID == "" {
		return nil
	}
	return []string{s.ID}
}

// Hand is one deal as written on the sheet.
type Hand struct {
	End       HandEnd
	LostCount bool // scored by the referee under FITAB art. 33
	Lines     [2]LineScore
}

// LineScore is one line's row of one hand.
type LineScore struct {
	Base         int
	Points       int
	Total        *int // as written
	RunningTotal *int // as written
	// Burrachi is the breakdown by type; nil when the sheet does not give it.
	Burrachi map[BurracoType]int
	Closed   *bool
	Pozzetto Pozzetto
	// The split of Points (RULES §5); nil when not given.
	TablePoints            *int
	HandPoints             *int
	PozzettoUnplayedPoints *int
	PenaltyPoints          *int
}

// WrittenResult is the bottom of the sheet for one line, as written.
type WrittenResult struct {
	Total *int
	MP    *int
	VP    *int
}

// Int returns a pointer to v, for building optional sheet fields.
func Int(v int) *int { return &v }

// Bool returns a pointer to v, for building optional sheet fields.
func Bool(v bool) *bool { return &v }

// HandPointer is the JSON pointer of a hand field (h is 1-based).
func HandPointer(h int, l Line, field string) string {
	return fmt.Sprintf("/hands/%d/%s/%s", h-1, l, field)
}

// WrittenPointer is the JSON pointer of a written result field.
func WrittenPointer(l Line, field string) string {
	return "/written/" + l.String() + "/" + field
}

// LatePointsPointer is the JSON pointer of a line's lateness credit
// (API §1 late_points).
func LatePointsPointer(l Line) string { return "/late_points/" + l.String() }
