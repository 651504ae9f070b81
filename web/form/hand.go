package form

import (
	"errors"
	"strconv"

	"segnapunti/domain"
)

// The parts of a hand that every hand form reads the same way: the table
// page's hand (ParseTableHand) and the secretary's sheet (web's sheet form).

// HandEnd reads a hand's end as typed (UI.md §5 hands.{i}.end). Empty is
// an unknown end, as an absent "end" is in the JSON sheet (API §1) and in
// the phones' own engine: a form never guesses that a hand was closed.
// ok is false for a value that is no end.
func HandEnd(s string) (end domain.HandEnd, ok bool) {
	end, err := domain.ParseHandEnd(s)
	return end, err == nil
}

// MaxScore bounds every typed score (base, points, totals): no Burraco
// score comes near it, and the API refuses the same (sheetjson.MaxScore).
const MaxScore = 100000

// ErrScoreRange: a whole number, but no score.
var ErrScoreRange = errors.New("out of range")

// Score reads a typed score: a whole number within ±MaxScore.
func Score(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if errors.Is(err, strconv.ErrRange) {
		return 0, ErrScoreRange // digits, but beyond any integer
	}
	if err != nil {
		return 0, err
	}
	if n < -MaxScore || n > MaxScore {
		return 0, ErrScoreRange
	}
	return n, nil
}
