package store

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The JSON documents of the PostgreSQL write statements, as the former
// encoding/json of maps wrote them: the reference of TestPGArgsAgree.
func refSheetRowJSON(r *sheetRow) []byte {
	m := make(map[string]any, len(pgSheetWriteColumns))
	m["tournament_id"], m["round_no"], m["table_no"] = r.TournamentID, r.RoundNo, r.TableNo
	for _, c := range sheetColumns {
		m[c] = sheetColumnValue(r, c)
	}
	m["created_at"], m["updated_at"] = r.Created.time(), r.Updated.time()
	m["ns_players"], m["eo_players"], m["report_json"], m["cells"] = r.NSPlayers, r.EOPlayers, r.ReportJSON, r.Cells
	b, _ := json.Marshal(m)
	return b
}

func refLineJSON(m map[string]any, prefix string, l *lineColumns) {
	m[prefix+"base"], m[prefix+"points"], m[prefix+"total"], m[prefix+"running_total"] = l.Base, l.Points, l.Total, l.RunningTotal
	m[prefix+"burrachi"], m[prefix+"closed"], m[prefix+"pozzetto"] = l.Burrachi, l.Closed, l.Pozzetto
	m[prefix+"table_points"], m[prefix+"hand_points"] = l.TablePoints, l.HandPoints
	m[prefix+"pozzetto_unplayed_points"], m[prefix+"penalty_points"] = l.PozzettoUnplayedPoints, l.PenaltyPoints
}

func refHandRowsJSON(hands []handRow) []byte {
	out := make([]map[string]any, len(hands))
	for i := range hands {
		h := &hands[i]
		m := map[string]any{}
		m["position"], m["hand_end"], m["lost_count"] = h.Position, h.End, h.LostCount
		refLineJSON(m, "ns_", &h.NS)
		refLineJSON(m, "eo_", &h.EO)
		out[i] = m
	}
	b, _ := json.Marshal(out)
	return b
}

func refResultRowJSON(r *matchResultRow) []byte {
	b, _ := json.Marshal(map[string]any{
		"tournament_id": r.TournamentID, "round_no": r.RoundNo, "table_no": r.TableNo,
		"ns_total": r.NSTotal, "ns_mp": r.NSMP, "ns_vp": r.NSVP, "eo_total": r.EOTotal, "eo_mp": r.EOMP, "eo_vp": r.EOVP,
		"computed_ns_total": r.ComputedNSTotal, "computed_ns_mp": r.ComputedNSMP, "computed_ns_vp": r.ComputedNSVP,
		"computed_eo_total": r.ComputedEOTotal, "computed_eo_mp": r.ComputedEOMP, "computed_eo_vp": r.ComputedEOVP,
		"differs": r.Differs, "kind": r.Kind,
	})
	return b
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s differs:\n got %s\nwant %s", what, got, want)
	}
}

// TestPGArgsAgree: the appended documents read as the maps' documents,
// whatever the strings hold (quotes, control characters, non-ASCII,
// invalid UTF-8) and with every optional absent or present.
func TestPGArgsAgree(t *testing.T) {
	at := instant(time.Date(2026, 11, 25, 21, 4, 5, 123456000, time.UTC))
	for _, str := range []string{"", "Rossi \"Anna\" \\ Bianchi", "tab\there\nnew\r\x01\x1f", "Niccolò Žák 日本 😀", "bad \xff\xfe utf8", "<&>\u2028"} {
		n := 7
		b := true
		cells := `{"A1":"` + "x" + `"}`
		vp := "fitab-2025-3"
		rows := []sheetRow{
			{TournamentID: str, RoundNo: 2, TableNo: 7, Ruleset: "fitab-2025", HandsPlanned: 3, Kind: "pairs",
				HeaderTournament: str, NSID: str, NSPlayers: `["` + "a" + `"]`, EOID: "5", EOPlayers: "null",
				ReportJSON: `{"ok":true}`, Created: at, Updated: at},
			{TournamentID: "t", RoundNo: 1, TableNo: 1, VPTable: &vp, WrittenNSTotal: &n, WrittenEOVP: &n, Cells: &cells,
				FirstDealer: str, LateNS: -35, LateEO: 20, ReportJSON: `{}`, Created: at, Updated: at},
		}
		for _, r := range rows {
			sameJSON(t, "sheet row", appendSheetRow(nil, &r), refSheetRowJSON(&r))
		}
		bur := "pulito:1,sporco:2"
		hands := []handRow{
			{Position: 1, End: "closed", NS: lineColumns{Base: 300, Points: 235, Total: &n, Burrachi: &bur, Closed: &b, Pozzetto: str}},
			{Position: 2, LostCount: true, EO: lineColumns{Base: -5, TablePoints: &n, HandPoints: &n, PozzettoUnplayedPoints: &n, PenaltyPoints: &n, RunningTotal: &n}},
		}
		sameJSON(t, "hands", appendHandRows(nil, hands), refHandRowsJSON(hands))
		sameJSON(t, "no hands", appendHandRows(nil, nil), []byte(`[]`))
		res := matchResultRow{TournamentID: str, RoundNo: 3, TableNo: 4, NSTotal: 950, NSMP: 125, NSVP: 11, EOTotal: 825, EOMP: -125, EOVP: 9,
			ComputedNSTotal: 1, ComputedNSMP: 2, ComputedNSVP: 3, ComputedEOTotal: 4, ComputedEOMP: 5, ComputedEOVP: 6, Differs: true, Kind: str}
		sameJSON(t, "result", appendResultRow(nil, &res), refResultRowJSON(&res))
	}
}

// pgbenchScript is the script of docs/pgbench_sheet_write.sql.
func pgbenchScript() string {
	write := func(variant string) string {
		w := pgWriteSheet[[2]bool{true, false}]
		w = strings.Replace(w, "$1::json", "(:sheet"+variant+"::jsonb || jsonb_build_object('table_no', :table::int))::json", 1)
		w = strings.Replace(w, "$2::int", ":nhands::int", 1)
		w = strings.Replace(w, "$3::json", ":hands"+variant+"::json", 1)
		w = strings.Replace(w, "$4::json", "(:result"+variant+"::jsonb || jsonb_build_object('table_no', :table::int))::json", 1)
		// The history note of a replaced version (sheet_versions): as a
		// PUT by the benchmark.
		w = strings.Replace(w, "$5::text", "'put'::text", 1)
		w = strings.Replace(w, "$6::text", "'pgbench'::text", 1)
		w = strings.Replace(w, "$7::timestamptz", "now()", 1)
		return strings.Join(strings.Fields(w), " ")
	}
	lock := strings.Join(strings.Fields(strings.NewReplacer("$1", ":tid", "$2", "1", "$3", ":table").Replace(pgLockSheetSQL)), " ")
	return `-- The sheet write of PUT .../sheet on PostgreSQL (store.pgPutSheet, a
-- round being played, no If-Match) as pgbench replays it: the locks and the
-- write statement in one pipeline (one implicit transaction), as the
-- service sends them. Generated from the store's SQL by TestPGBenchScript
-- (which fails when this file is stale); run by BenchmarkPutOpenSheet32
-- in the same run as the service's load:
--   pgbench -n -M prepared -c 32 -j 2 -T 5 -f pgbench_sheet_write.sql \
--     -D tid=... -D nhands=3 -D k=0 -D sheeta=... -D handsa=... \
--     -D resulta=... -D sheetb=... -D handsb=... -D resultb=...
-- Each client writes its own table, alternating sheet a and sheet b (k,
-- kept by the client from one transaction to the next), which differ in
-- one hand, as the service benchmark alternates them: every replacement
-- changes a hand and the result. The only difference from the service:
-- the sheet and result documents take the client's table number with
-- jsonb || (pgbench cannot build a string per call).
\set table 1 + :client_id
\set k 1 - :k
\if :k
\startpipeline
` + lock + `;
` + write("b") + `;
\endpipeline
\else
\startpipeline
` + lock + `;
` + write("a") + `;
\endpipeline
\endif
`
}

// TestPGBenchScript: docs/pgbench_sheet_write.sql is the store's SQL.
func TestPGBenchScript(t *testing.T) {
	want := pgbenchScript()
	got, err := os.ReadFile("../docs/pgbench_sheet_write.sql")
	if os.Getenv("UPDATE_PGBENCH_SCRIPT") != "" {
		err = os.WriteFile("../docs/pgbench_sheet_write.sql", []byte(want), 0o644)
		got = []byte(want)
	}
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("docs/pgbench_sheet_write.sql is stale: run UPDATE_PGBENCH_SCRIPT=1 go test ./store -run TestPGBenchScript")
	}
}
