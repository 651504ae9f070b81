package workbook

import (
	"fmt"
	"iter"
	"strings"
	"time"

	"segnapunti/domain"
	"segnapunti/messages"
)

// Sheet names of API §6; WriteCSV takes the same names.
const (
	SheetTorneo         = "Torneo"
	SheetClassifica     = "Classifica"
	SheetTurni          = "Turni"
	SheetSmazzate       = "Smazzate"
	SheetRettifiche     = "Rettifiche"
	SheetCorrezioni     = "Correzioni"
	SheetPremi          = "Premi"
	SheetPartecipazioni = "Partecipazioni"
	SheetTotali         = "Totali"
)

// calDate is a calendar day: a date cell in the workbook, 2006-01-02 in CSV.
type calDate time.Time

// instant is a moment: a date-time cell in the workbook (wall clock of the
// export's location), RFC 3339 in CSV.
type instant time.Time

// column is one column of a table: its Italian header and its width in
// characters.
type column struct {
	header string
	width  float64
}

// table is one sheet's worth of rows. A row holds int, string, calDate,
// instant or nil (an empty cell); the slice is reused between rows, so a
// consumer must not keep it.
type table struct {
	name    string
	columns []column
	rows    iter.Seq2[[]any, error]
}

// mapRows turns a typed iterator into rows of width cells; fill sets the
// cells of one row, which starts empty.
func mapRows[T any](src iter.Seq2[T, error], width int, fill func(row []any, v T)) iter.Seq2[[]any, error] {
	return func(yield func([]any, error) bool) {
		if src == nil {
			return
		}
		row := make([]any, width)
		for v, err := range src {
			if err != nil {
				yield(nil, err)
				return
			}
			clear(row)
			fill(row, v)
			if !yield(row, nil) {
				return
			}
		}
	}
}

// optInt is an optional number: nil is an empty cell.
func optInt(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// nonZero leaves 0 empty, for numbers where 0 means "not given".
func nonZero(v int) any {
	if v == 0 {
		return nil
	}
	return v
}

// clubLabel is the organising club's name, else its id.
func clubLabel(t TournamentExport) string {
	switch {
	case t.Club.Name != "":
		return t.Club.Name
	case t.Club.ID != "":
		return t.Club.ID
	}
	return t.Tournament.ClubID
}

func vpTableLabel(t domain.VPTable) string {
	if t.IsZero() {
		return "automatica" // chosen per match by RULES §6.2
	}
	return t.ID()
}

// playerNames is "Rossi Anna / Bianchi Luca", the way a paper sheet writes
// a pair.
func playerNames(ps []domain.Player) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return strings.Join(names, " / ")
}

// memberships lists the membership numbers in the order of the players;
// a missing one is "n.d." so the positions still line up, and no number at
// all is an empty cell.
func memberships(ps []domain.Player) string {
	known := false
	nums := make([]string, len(ps))
	for i, p := range ps {
		nums[i] = p.Membership
		if p.Membership == "" {
			nums[i] = "n.d."
		} else {
			known = true
		}
	}
	if !known {
		return ""
	}
	return strings.Join(nums, " / ")
}

func torneoTable(t TournamentExport) table {
	tr := t.Tournament
	kv := [][2]any{
		{"ID torneo", tr.ID},
		{"Nome", tr.Name},
		{"Data", calDate(tr.Date)},
		{"Circolo", clubLabel(t)},
		{"Livello", italian(levelIT, tr.Level)},
		{"Regolamento", string(tr.Ruleset)},
		{"Tipo", italian(kindIT, tr.Kind)},
		{"Turni", tr.RoundsPlanned},
		{"Smazzate per turno", tr.HandsPerRound},
		{"Tabella VP", vpTableLabel(tr.VPTable)},
		{"Esportato il", instant(t.ExportedAt)},
	}
	if r, ok := tr.Interruption(); ok { // RULES §12.6, FITAB art. 39
		state := fmt.Sprintf("interrotto dopo il turno %d", r.AfterRound)
		if !r.Valid {
			state = fmt.Sprintf("annullato: interrotto dopo il turno %d (%s)", r.AfterRound, r.Rule)
		}
		kv = append(kv, [2]any{"Stato", state})
	}
	return table{
		name:    SheetTorneo,
		columns: []column{{"Voce", 22}, {"Valore", 40}},
		rows: mapRows(Slice(kv), 2, func(row []any, p [2]any) {
			row[0], row[1] = p[0], p[1]
		}),
	}
}

func classificaTable(t TournamentExport) table {
	return table{
		name: SheetClassifica,
		columns: []column{
			{"Posizione", 10}, {"Concorrente", 12}, {"Giocatori", 40}, {"Tessere", 24},
			{"Squadra", 20}, {"Circolo", 24}, {"VP", 8}, {"MP", 10}, {"Vittorie", 10},
			{"Spareggio", 48}, {"Ufficiale ≠ calcolato", 24}, {"Ritirato dal turno", 12},
		},
		rows: mapRows(t.Standings, 12, func(row []any, s StandingRow) {
			row[0] = s.Rank
			row[1] = entrantCell(s.Entrant.ID)
			row[2] = playerNames(s.Entrant.Players)
			row[3] = memberships(s.Entrant.Players)
			row[4] = s.Entrant.Team
			row[5] = s.Entrant.Club
			row[6] = s.VP
			row[7] = s.MP
			row[8] = s.Wins
			row[9] = messages.Notes(domain.Italian, s.TieBreak)
			row[10] = s.Differs
			if w := s.Entrant.WithdrawnFromRound; w != nil { // RULES §12.3
				row[11] = *w
			}
		}),
	}
}

func turniTable(t TournamentExport) table {
	return table{
		name: SheetTurni,
		columns: []column{
			{"Turno", 8}, {"Tavolo", 8}, {"NS", 10}, {"EO", 10},
			{"NS Totale", 11}, {"EO Totale", 11}, {"NS MP", 9}, {"EO MP", 9}, {"NS VP", 8}, {"EO VP", 8},
			{"Ufficiale ≠ calcolato", 24},
			{"Firma NS", 17}, {"Firma EO", 17},
			{"Incontro", 9}, {"Giocatori NS", 32}, {"Giocatori EO", 32},
		},
		rows: mapRows(t.Matches, 16, func(row []any, m MatchRow) {
			row[0], row[1] = m.Round, m.Table
			row[2], row[3] = entrantCell(m.Entrants[domain.NS]), entrantCell(m.Entrants[domain.EO])
			row[4], row[5] = m.Total[domain.NS], m.Total[domain.EO]
			row[6], row[7] = m.MP[domain.NS], m.MP[domain.EO]
			row[8], row[9] = m.VP[domain.NS], m.VP[domain.EO]
			if m.Differs {
				c := m.Computed
				row[10] = fmt.Sprintf("sì: calcolato %d–%d MP, %d–%d VP", c.MP[domain.NS], c.MP[domain.EO], c.VP[domain.NS], c.VP[domain.EO])
			}
			for i, at := range m.Confirmed { // FITAB art. 19: the lines' signatures
				switch {
				case at != nil:
					row[11+i] = instant(*at)
				case m.EndedByConfirmation[i]:
					row[11+i] = "con la conferma " + [2]string{"EO", "NS"}[i]
				}
			}
			if m.Match > 0 { // RULES §12.5
				row[13] = m.Match
			}
			for i, names := range m.Seated { // RULES §12.4: who sat
				if names != "" {
					row[14+i] = names
				}
			}

		}),
	}
}

// smazzateTable has the columns of the tidy import layout (API §5 A), so an
// export can be read back in.
func smazzateTable(t TournamentExport) table {
	return table{
		name: SheetSmazzate,
		columns: []column{
			{"Turno", 8}, {"Tavolo", 8}, {"Smazzata", 10}, {"NS", 10}, {"EO", 10}, {"Fine", 16},
			{"NS Base", 10}, {"NS Punti", 10}, {"NS Totale", 11},
			{"EO Base", 10}, {"EO Punti", 10}, {"EO Totale", 11},
		},
		rows: mapRows(t.Hands, 12, func(row []any, h HandRow) {
			row[0], row[1], row[2] = h.Round, h.Table, h.Hand
			row[3], row[4] = entrantCell(h.Entrants[domain.NS]), entrantCell(h.Entrants[domain.EO])
			row[5] = italian(endIT, h.End)
			for i, l := range domain.Lines {
				row[6+3*i], row[7+3*i], row[8+3*i] = h.Base[l], h.Points[l], h.Total[l]
			}
		}),
	}
}

func rettificheTable(t TournamentExport) table {
	return table{
		name: SheetRettifiche,
		columns: []column{
			{"Concorrente", 12}, {"Turno", 8}, {"Motivo", 20}, {"VP", 8}, {"MP", 10},
			{"Nota", 40}, {"Autore", 20}, {"Data e ora", 17},
		},
		rows: mapRows(t.Adjustments, 8, func(row []any, a AdjustmentRow) {
			row[0], row[1], row[2] = entrantCell(a.Entrant), nonZero(a.Round), italian(reasonIT, a.Reason)
			row[3], row[4] = optInt(a.VP), optInt(a.MP)
			row[5], row[6], row[7] = a.Note, a.Author, instant(a.At)
		}),
	}
}

func correzioniTable(t TournamentExport) table {
	cols := []column{
		{"Turno", 8}, {"Tavolo", 8}, {"Tipo", 14}, {"Decisione", 20}, {"Articoli", 24},
		{"Motivazione", 48}, {"Richiesta", 40}, {"Autore", 20}, {"Data e ora", 17},
	}
	for _, when := range []string{"Prima", "Dopo"} {
		for _, h := range []string{"NS Totale", "EO Totale", "NS MP", "EO MP", "NS VP", "EO VP"} {
			cols = append(cols, column{when + " " + h, 16})
		}
	}
	return table{
		name:    SheetCorrezioni,
		columns: cols,
		rows: mapRows(t.Corrections, len(cols), func(row []any, c CorrectionRow) {
			row[0], row[1], row[2], row[3] = c.Round, c.Table, italian(correctionIT, c.Kind), italian(rulingIT, c.Ruling)
			row[4] = strings.Join(c.Rules, "; ")
			reason := c.ReasonIT
			if reason == "" {
				reason = c.Reason
			}
			row[5], row[6], row[7], row[8] = reason, c.Request, c.Author, instant(c.At)
			for i, r := range []*MatchResult{c.Before, c.After} {
				if r == nil {
					continue
				}
				at := 9 + 6*i
				for j, l := range domain.Lines {
					row[at+j], row[at+2+j], row[at+4+j] = r.Total[l], r.MP[l], r.VP[l]
				}
			}
		}),
	}
}

// tournamentTables are the sheets of the tournament workbook, in order.
func tournamentTables(t TournamentExport) []table {
	return []table{
		torneoTable(t), classificaTable(t), turniTable(t), smazzateTable(t),
		rettificheTable(t), correzioniTable(t), premiTable(t),
	}
}

// premiTable is the prize list: one row per award, the same rows
// as the page /tournaments/{tid}/prizes.
func premiTable(t TournamentExport) table {
	return table{
		name: SheetPremi,
		columns: []column{
			{"Categoria", 28}, {"Codice categoria", 16}, {"Premio", 8}, {"Posizione", 10}, {"Concorrente", 12},
			{"Giocatori", 40}, {"Circolo", 24}, {"VP", 8}, {"MP", 10},
		},
		rows: mapRows(t.Prizes, 9, func(row []any, p PrizeRow) {
			row[0], row[1], row[2], row[3] = p.Label, p.Category, p.Place, p.Rank
			row[4] = entrantCell(p.Entrant.ID)
			row[5] = playerNames(p.Entrant.Players)
			row[6] = p.Entrant.Club
			row[7], row[8] = p.VP, p.MP
		}),
	}
}

func partecipazioniTable(rows iter.Seq2[SeasonRow, error]) table {
	return table{
		name: SheetPartecipazioni,
		columns: []column{
			{"Giocatore", 28}, {"Tessera", 14}, {"Circolo", 24}, {"Torneo", 32}, {"Data", 12},
			{"Livello", 12}, {"Posizione", 10}, {"VP", 8}, {"MP", 10},
		},
		rows: mapRows(rows, 9, func(row []any, r SeasonRow) {
			row[0], row[1], row[2], row[3] = r.Player, r.Membership, r.Club, r.Tournament
			row[4], row[5] = calDate(r.Date), italian(levelIT, r.Level)
			row[6], row[7], row[8] = nonZero(r.Rank), r.VP, r.MP
		}),
	}
}

func totaliTable(totals iter.Seq2[SeasonTotal, error]) table {
	return table{
		name: SheetTotali,
		columns: []column{
			{"Giocatore", 28}, {"Tessera", 14}, {"Circolo", 24}, {"Tornei", 8},
			{"VP", 8}, {"MP", 10}, {"Miglior posizione", 18},
		},
		rows: mapRows(totals, 7, func(row []any, s SeasonTotal) {
			row[0], row[1], row[2] = s.Player, s.Membership, s.Club
			row[3], row[4], row[5], row[6] = s.Tournaments, s.VP, s.MP, nonZero(s.BestRank)
		}),
	}
}
