package store

import (
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// The arguments of the PostgreSQL write statements are JSON documents that
// json_populate_record(set) reads (sheetwrite_pg.go). They are written
// here by appending, field by field, without reflection or maps: the
// encoding/json of map[string]any they replace was 24% of the Go side of
// a sheet write (measured in a profile). TestPGArgsAgree checks that these
// documents read back exactly as json.Marshal of the former maps.

// jsonObj appends one JSON object's members to b.
type jsonObj struct {
	b []byte
	n int
}

func (o *jsonObj) open() { o.b = append(o.b, '{'); o.n = 0 }

func (o *jsonObj) close() { o.b = append(o.b, '}') }

func (o *jsonObj) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':')
}

func (o *jsonObj) str(k, v string) { o.key(k); o.b = appendJSONString(o.b, v) }

func (o *jsonObj) strp(k string, v *string) {
	if v == nil {
		o.null(k)
		return
	}
	o.str(k, *v)
}

func (o *jsonObj) int(k string, v int) { o.key(k); o.b = strconv.AppendInt(o.b, int64(v), 10) }

func (o *jsonObj) intp(k string, v *int) {
	if v == nil {
		o.null(k)
		return
	}
	o.int(k, *v)
}

func (o *jsonObj) bool(k string, v bool) { o.key(k); o.b = strconv.AppendBool(o.b, v) }

func (o *jsonObj) boolp(k string, v *bool) {
	if v == nil {
		o.null(k)
		return
	}
	o.bool(k, *v)
}

func (o *jsonObj) time(k string, t time.Time) {
	o.key(k)
	o.b = append(o.b, '"')
	o.b = t.AppendFormat(o.b, time.RFC3339Nano)
	o.b = append(o.b, '"')
}

func (o *jsonObj) null(k string) { o.key(k); o.b = append(o.b, "null"...) }

// appendJSONString appends s as a JSON string, escaped by the library
// (jsontext.AppendQuote: quote, backslash and control characters escaped,
// invalid UTF-8 as U+FFFD, as encoding/json does; the request bodies were
// refused before if their UTF-8 was invalid, so its error is not one here).
func appendJSONString(b []byte, s string) []byte {
	b, _ = jsontext.AppendQuote(b, s)
	return b
}

// appendSheetRow is the sheet row as json_populate_record reads it: json
// columns go in as strings holding their JSON (sheetValue).
func appendSheetRow(b []byte, r *sheetRow) []byte {
	o := jsonObj{b: b}
	o.open()
	o.str("tournament_id", r.TournamentID)
	o.int("round_no", r.RoundNo)
	o.int("table_no", r.TableNo)
	o.str("ruleset", r.Ruleset)
	o.int("hands_planned", r.HandsPlanned)
	o.str("kind", r.Kind)
	o.strp("vp_table", r.VPTable)
	o.str("header_tournament", r.HeaderTournament)
	o.int("header_round", r.HeaderRound)
	o.int("header_table", r.HeaderTable)
	o.str("ns_id", r.NSID)
	o.str("ns_players", r.NSPlayers)
	o.str("eo_id", r.EOID)
	o.str("eo_players", r.EOPlayers)
	o.str("first_dealer", r.FirstDealer)
	o.int("late_ns", r.LateNS)
	o.int("late_eo", r.LateEO)
	o.intp("written_ns_total", r.WrittenNSTotal)
	o.intp("written_ns_mp", r.WrittenNSMP)
	o.intp("written_ns_vp", r.WrittenNSVP)
	o.intp("written_eo_total", r.WrittenEOTotal)
	o.intp("written_eo_mp", r.WrittenEOMP)
	o.intp("written_eo_vp", r.WrittenEOVP)
	o.strp("cells", r.Cells)
	o.str("report_json", r.ReportJSON)
	o.time("created_at", r.Created.time())
	o.time("updated_at", r.Updated.time())
	o.strp("ns_ids", r.NSIDs) // migration 00013: text holding a JSON array
	o.strp("eo_ids", r.EOIDs)
	o.close()
	return o.b
}

// lineKeys are the hand columns of each line, in lineColumns order.
var lineKeys = func() (k [2][11]string) {
	for l, p := range [2]string{"ns_", "eo_"} {
		for i, c := range []string{"base", "points", "total", "running_total", "burrachi", "closed", "pozzetto",
			"table_points", "hand_points", "pozzetto_unplayed_points", "penalty_points"} {
			k[l][i] = p + c
		}
	}
	return k
}()

func appendLine(o *jsonObj, line int, l *lineColumns) {
	k := &lineKeys[line]
	o.int(k[0], l.Base)
	o.int(k[1], l.Points)
	o.intp(k[2], l.Total)
	o.intp(k[3], l.RunningTotal)
	o.strp(k[4], l.Burrachi)
	o.boolp(k[5], l.Closed)
	o.str(k[6], l.Pozzetto)
	o.intp(k[7], l.TablePoints)
	o.intp(k[8], l.HandPoints)
	o.intp(k[9], l.PozzettoUnplayedPoints)
	o.intp(k[10], l.PenaltyPoints)
}

// appendHandRows is the hands as json_populate_recordset reads them.
func appendHandRows(b []byte, hands []handRow) []byte {
	b = append(b, '[')
	for i := range hands {
		if i > 0 {
			b = append(b, ',')
		}
		h := &hands[i]
		o := jsonObj{b: b}
		o.open()
		o.int("position", h.Position)
		o.str("hand_end", h.End)
		o.bool("lost_count", h.LostCount)
		appendLine(&o, 0, &h.NS)
		appendLine(&o, 1, &h.EO)
		o.close()
		b = o.b
	}
	return append(b, ']')
}

// appendResultRow is the match result as json_populate_record reads it.
func appendResultRow(b []byte, r *matchResultRow) []byte {
	o := jsonObj{b: b}
	o.open()
	o.str("tournament_id", r.TournamentID)
	o.int("round_no", r.RoundNo)
	o.int("table_no", r.TableNo)
	o.int("ns_total", r.NSTotal)
	o.int("ns_mp", r.NSMP)
	o.int("ns_vp", r.NSVP)
	o.int("eo_total", r.EOTotal)
	o.int("eo_mp", r.EOMP)
	o.int("eo_vp", r.EOVP)
	o.int("computed_ns_total", r.ComputedNSTotal)
	o.int("computed_ns_mp", r.ComputedNSMP)
	o.int("computed_ns_vp", r.ComputedNSVP)
	o.int("computed_eo_total", r.ComputedEOTotal)
	o.int("computed_eo_mp", r.ComputedEOMP)
	o.int("computed_eo_vp", r.ComputedEOVP)
	o.bool("differs", r.Differs)
	o.str("kind", r.Kind)
	o.close()
	return o.b
}
