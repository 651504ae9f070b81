package domain

import (
	"fmt"
	"slices"
)

// Who sits at the lines of a sheet (API §1, §4.2). A line of a pairs or
// team sheet names one entrant ("id"); a line of an individual sheet names
// its two players ("ids": RULES §11, FITAB art. 2.3 — every table seats
// four players as two lines of two).

// Line findings (API §4.2).
const (
	// LineIDsInvalid: a line names its entrant in the wrong shape for the
	// sheet's kind — "ids" on a pairs or team sheet, "ids" that are not
	// two players, "id" and "ids" together.
	LineIDsInvalid Code = "LINE_IDS_INVALID"
	// PlayerSeatedTwice: the same entrant id is named twice on the sheet
	// (twice in a line, or at both lines): a player plays once a round.
	PlayerSeatedTwice Code = "PLAYER_SEATED_TWICE"
)

// PlayersPerIndividualLine is how many players a line of an individual
// tournament seats (RULES §11).
const PlayersPerIndividualLine = 2

// lineIDs checks the shape of the lines' entrant ids and that nobody is
// named twice. A sheet that names nobody (the validator's own input, often)
// has nothing to check. [INTERP] An individual sheet naming a line by one
// "id" is a warning, not an error: the rounds of individual tournaments
// stored before the service seated two players a line named one player a
// line, and their sheets stay valid.
func (v *validator) lineIDs() {
	individual := v.s.Kind == KindIndividual
	var room [2 * PlayersPerIndividualLine]string // a sheet's ids: no allocation
	seen := room[:0]
	for _, l := range Lines {
		sd := &v.s.Sides[l]
		base := "/ns" // "/" + l.String(), without a concatenation per line
		if l == EO {
			base = "/eo"
		}
		switch {
		case len(sd.IDs) > 0 && sd.ID != "":
			v.add(Finding{Code: LineIDsInvalid, Severity: SeverityError, Line: lineRef(l), Field: "ids", Pointer: base + "/ids"},
				fmt.Sprintf("%s: the line gives both id and ids; a pairs or team line has an id, an individual line ids", l.Label()),
				fmt.Sprintf("%s: la linea indica sia id sia ids; una linea a coppie o a squadre ha id, una linea dell'individuale ids", l.Label()))
		case len(sd.IDs) > 0 && !individual:
			v.add(Finding{Code: LineIDsInvalid, Severity: SeverityError, Line: lineRef(l), Field: "ids", Pointer: base + "/ids"},
				fmt.Sprintf("%s: ids names the two players of a line of an individual tournament; this %s sheet names its entrant with id", l.Label(), kindLabel(v.s.Kind)),
				fmt.Sprintf("%s: ids indica i due giocatori di una linea di un individuale; questo score (%s) indica la linea con id", l.Label(), kindLabel(v.s.Kind)))
		case len(sd.IDs) > 0 && len(sd.IDs) != PlayersPerIndividualLine:
			v.add(Finding{Code: LineIDsInvalid, Severity: SeverityError, Line: lineRef(l), Field: "ids", Written: Int(len(sd.IDs)), Expected: Int(PlayersPerIndividualLine), Pointer: base + "/ids"},
				fmt.Sprintf("%s: an individual line is two players, not %d", l.Label(), len(sd.IDs)),
				fmt.Sprintf("%s: una linea dell'individuale è di due giocatori, non %d", l.Label(), len(sd.IDs)))
		case individual && sd.ID != "":
			v.add(Finding{Code: LineIDsInvalid, Severity: SeverityWarning, Line: lineRef(l), Field: "id", Pointer: base + "/id"},
				fmt.Sprintf("%s: an individual line is two players: name them with ids, not one id", l.Label()),
				fmt.Sprintf("%s: una linea dell'individuale è di due giocatori: indicali con ids, non con un solo id", l.Label()))
		}
		for i, id := range sd.IDs {
			if id == "" {
				v.add(Finding{Code: LineIDsInvalid, Severity: SeverityError, Line: lineRef(l), Field: "ids", Pointer: fmt.Sprintf("%s/ids/%d", base, i)},
					fmt.Sprintf("%s: player %d of the line has an empty id", l.Label(), i+1),
					fmt.Sprintf("%s: il giocatore %d della linea ha un numero vuoto", l.Label(), i+1))
				continue
			}
			if slices.Contains(seen, id) {
				v.add(Finding{Code: PlayerSeatedTwice, Severity: SeverityError, Line: lineRef(l), Field: "ids", Pointer: fmt.Sprintf("%s/ids/%d", base, i)},
					fmt.Sprintf("%s: player %s is named twice on the sheet; a player sits at one line of one table", l.Label(), id),
					fmt.Sprintf("%s: il giocatore %s compare due volte nello score; un giocatore siede a una sola linea di un tavolo", l.Label(), id))
			}
			seen = append(seen, id)
		}
		if sd.ID != "" && len(sd.IDs) == 0 {
			if l == EO && slices.Contains(seen, sd.ID) {
				v.add(Finding{Code: PlayerSeatedTwice, Severity: SeverityError, Line: lineRef(l), Field: "id", Pointer: base + "/id"},
					fmt.Sprintf("%s: entrant %s is named at both lines", l.Label(), sd.ID),
					fmt.Sprintf("%s: il concorrente %s compare in entrambe le linee", l.Label(), sd.ID))
			}
			seen = append(seen, sd.ID)
		}
	}
}

func kindLabel(k Kind) string {
	if k == "" {
		return string(KindPairs)
	}
	return string(k)
}
