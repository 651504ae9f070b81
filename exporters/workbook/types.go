package workbook

import (
	"iter"
	"time"

	"segnapunti/domain"
)

// TournamentExport is everything the tournament exports hold (API §6). The
// tables are iterators so that a caller can stream them from the database;
// a nil iterator is an empty table. Each iterator is ranged over once per
// export call that needs it.
type TournamentExport struct {
	Tournament domain.Tournament
	Club       domain.Club // the organising club; its name is shown, its ID when it has none
	ExportedAt time.Time
	// Location is the wall clock for timestamps in the workbook and CSV
	// (ExportedAt, adjustment and correction times); nil is UTC. JSON
	// timestamps carry their own offset.
	Location *time.Location

	Entrants  iter.Seq2[domain.Entrant, error] // JSON only; the workbook names entrants through Standings
	Rounds    iter.Seq2[domain.Round, error]   // JSON only; pairings and byes
	Standings iter.Seq2[StandingRow, error]    // sheet Classifica, in rank order
	// Matches and Hands: sheets Turni and Smazzate. WriteJSON nests each
	// match's hands under it, so Hands must come grouped by match, in the
	// order of Matches (natural order: round, table, hand).
	Matches     iter.Seq2[MatchRow, error]
	Hands       iter.Seq2[HandRow, error]
	Adjustments iter.Seq2[AdjustmentRow, error] // sheet Rettifiche
	Corrections iter.Seq2[CorrectionRow, error] // sheet Correzioni
	Prizes      iter.Seq2[PrizeRow, error]      // sheet Premi, category by category
}

// PrizeRow is one prize won: the Place-th award of a category.
type PrizeRow struct {
	Category string // the category's id (data-prize on the pages)
	Label    string // the category's label, as the organiser wrote it
	Place    int
	Rank     int // the entrant's rank in the final standings
	Entrant  domain.Entrant
	VP       int
	MP       int
}

// StandingRow is one line of the standings (RULES §8).
type StandingRow struct {
	Rank    int // shared by tied entrants (RULES §8 step 4)
	Entrant domain.Entrant
	VP      int
	MP      int
	Wins    int
	// TieBreak says which step of RULES §8 placed the entrant against the
	// ones level with it on VP and MP, as notes (domain.Standing.Tiebreak)
	// worded in the workbook's language (Italian) or, in the JSON export,
	// in English; nil when it was not tied.
	TieBreak []domain.Note
	// Differs names the entrant's counted matches whose official (written)
	// result is not the computed one (RULES §8), e.g. "T2 tav. 5"; "" when
	// none.
	Differs string
}

// MatchRow is one table of one round: its result as it counts in the
// standings. Arrays are indexed by domain.NS and domain.EO.
type MatchRow struct {
	Round    int
	Table    int
	Entrants [2]string // entrant ids of the NS and EO lines ("3 / 11": an individual line's players)
	// Players are the entrant ids of the two players of each line of an
	// individual tournament; nil for pairs and teams.
	Players [2][]string
	Total   [2]int
	MP      [2]int
	VP      [2]int
	// Differs: the official (written) result above is not the one
	// computed from the hands (RULES §8); Computed is that one.
	Differs  bool
	Computed MatchResult
	// Confirmed: when each line signed the sheet at the table (FITAB art.
	// 19, FIBur-INT art. 18); nil when it did not.
	Confirmed [2]*time.Time
	// EndedByConfirmation: the line did not sign; the other line's
	// confirmation alone ended and delivered the sheet (UI.md §6).
	EndedByConfirmation [2]bool
	// Match is the team match the table belongs to (RULES §12.5), 0 in
	// other tournaments; Seated the names of the players who sat at each
	// line that round (RULES §12.4: substitutes named; teams: the line-up),
	// "" when not known.
	Match  int
	Seated [2]string
}

// HandRow is one hand of one match (RULES §5). Arrays are indexed by
// domain.NS and domain.EO.
type HandRow struct {
	Round    int
	Table    int
	Hand     int // 1-based, in play order
	Entrants [2]string
	End      domain.HandEnd // EndUnknown when the sheet does not say
	Base     [2]int
	Points   [2]int
	Total    [2]int
}

// AdjustmentRow is one referee adjustment (RULES §7).
type AdjustmentRow struct {
	Entrant string
	Round   int // 0 when not tied to a round
	Reason  domain.AdjustmentReason
	VP      *int // nil when the adjustment sets no VP
	MP      *int // nil when the adjustment sets no MP
	Note    string
	Author  string
	At      time.Time
}

// CorrectionRow is one correction request and its ruling (RULES §9).
type CorrectionRow struct {
	Round  int
	Table  int
	Kind   domain.CorrectionKind
	Ruling domain.Ruling
	Rules  []string // e.g. "FITAB art. 20"
	Reason string   // the ruling's reason, in English (the JSON export)
	// ReasonIT is the ruling's reason in Italian (the workbook and CSV);
	// "" shows Reason.
	ReasonIT string
	Request  string // what the requester wrote
	Author   string
	At       time.Time
	// Before and After are the match result before and after the
	// correction; After is nil when the correction was rejected.
	Before *MatchResult
	After  *MatchResult
}

// MatchResult is a match's result per line, indexed by domain.NS and
// domain.EO.
type MatchResult struct {
	Total [2]int
	MP    [2]int
	VP    [2]int
}

// SeasonRow is one player's result in one tournament of the season.
type SeasonRow struct {
	Player     string
	Membership string
	Club       string
	Tournament string
	Date       time.Time // the tournament's day
	Level      domain.Level
	Rank       int
	VP         int
	MP         int
}

// SeasonTotal is one player's season total.
type SeasonTotal struct {
	Player      string
	Membership  string
	Club        string
	Tournaments int // tournaments played
	VP          int
	MP          int
	BestRank    int // best placing in the season; 0 when none
}

// Slice adapts a slice to the iterators this package reads.
func Slice[T any](s []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for _, v := range s {
			if !yield(v, nil) {
				return
			}
		}
	}
}
