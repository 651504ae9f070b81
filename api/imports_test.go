package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
	"segnapunti/httperr"
	"segnapunti/importers/xlsx"
)

// Workbook uploads (API §4 POST /v1/tournaments/{tid}/imports, GET
// /v1/imports/{id}, GET /v1/templates/scoresheet.xlsx; API §5).

// fixturesDir holds the LibreOffice-made workbooks and expected.json.
const fixturesDir = "../importers/xlsx/testdata/libreoffice"

// multipartBody is a form with the workbook in the field "file".
func multipartBody(t testing.TB, field, filename string, data []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, field, filename))
	h.Set("Content-Type", xlsxContentType)
	pw, err := mw.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), mw.FormDataContentType()
}

func importsPath(tid string) string { return "/v1/tournaments/" + tid + "/imports" }

// upload posts the workbook to the tournament's imports.
func (w *world) upload(token, tid, filename string, data []byte) response {
	w.t.Helper()
	body, ct := multipartBody(w.t, "file", filename, data)
	return w.do(request{method: "POST", path: importsPath(tid), token: token, body: body, header: map[string]string{"Content-Type": ct}})
}

// uploadReplace posts the workbook with ?replace=true.
func (w *world) uploadReplace(token, tid, filename string, data []byte) response {
	w.t.Helper()
	body, ct := multipartBody(w.t, "file", filename, data)
	return w.do(request{method: "POST", path: importsPath(tid) + "?replace=true", token: token, body: body, header: map[string]string{"Content-Type": ct}})
}

// importReportJSON is the import report as a client reads it.
type importReportJSON struct {
	ID         string `json:"id"`
	Tournament string `json:"tournament"`
	Filename   string `json:"filename"`
	SHA256     string `json:"sha256"`
	Layout     string `json:"layout"`
	CreatedAt  string `json:"created_at"`
	Matches    []struct {
		Round     int    `json:"round"`
		Table     int    `json:"table"`
		Worksheet string `json:"worksheet"`
		Cell      string `json:"cell"`
		Status    string `json:"status"`
		Version   int    `json:"version"`
		Error     *struct {
			Cell   string `json:"cell"`
			Detail string `json:"detail"`
		} `json:"error"`
		Report *struct {
			OK       bool `json:"ok"`
			Findings []struct {
				Code     string `json:"code"`
				Severity string `json:"severity"`
				Cell     string `json:"cell"`
				Message  string `json:"message"`
			} `json:"findings"`
		} `json:"report"`
	} `json:"matches"`
	Counts map[string]int `json:"counts"`
}

func decodeImport(t *testing.T, r response) importReportJSON {
	t.Helper()
	var rep importReportJSON
	dec := json.NewDecoder(bytes.NewReader(r.body))
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("import report: %v\n%s", err, r.body)
	}
	return rep
}

// wantCells fails unless the problem names exactly these cells.
func wantCells(t *testing.T, p problem, cells ...string) {
	t.Helper()
	var got []string
	for _, fe := range p.Errors {
		got = append(got, fe.Cell)
	}
	if !slices.Equal(got, cells) {
		t.Errorf("problem names cells %q, want %q (%s)", got, cells, p.Detail)
	}
}

// seating is one table of a round: who plays NS and EO.
type seating struct {
	round, table int
	ns, eo       string
}

// tournamentWith creates a tournament of club 1 under the ruleset, its
// entrants and rounds seating every match given.
func (w *world) tournamentWith(ruleset string, hands int, matches []seating) string {
	w.t.Helper()
	body := tournamentBody("Torneo importato", "club")
	body["ruleset"], body["hands_per_round"] = ruleset, hands
	tid := w.createTournament(w.club1, body)
	var ids []string
	rounds := map[int][]map[string]any{}
	for _, m := range matches {
		for _, id := range []string{m.ns, m.eo} {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		rounds[m.round] = append(rounds[m.round], map[string]any{"table": m.table, "ns": m.ns, "eo": m.eo})
	}
	w.enterPairs(w.club1, tid, ids...)
	numbers := make([]int, 0, len(rounds))
	for n := range rounds {
		numbers = append(numbers, n)
	}
	slices.Sort(numbers)
	for _, n := range numbers {
		r := w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/rounds", token: w.club1,
			body: map[string]any{"number": n, "phase": "mitchell", "tables": rounds[n]}})
		wantStatus(w.t, r, http.StatusCreated, fmt.Sprintf("create round %d", n))
	}
	return tid
}

// genMatch is one match of a generated workbook.
type genMatch struct {
	seating
	dupHand bool // hand 1 numbered twice: the match cannot be read as a whole
}

// tidyWorkbook writes a tidy workbook (API §5 A) of the matches, each with
// the given hands, its bottom line computed as RULES §6 says, so every
// match validates without an error finding; settings may add a Torneo
// sheet (key/value rows).
func tidyWorkbook(t testing.TB, ruleset domain.Ruleset, hands int, matches []genMatch, settings [][2]any) []byte {
	t.Helper()
	rng := rand.New(rand.NewSource(int64(len(matches)*10 + hands)))
	f := excelize.NewFile()
	defer f.Close()
	check := func(err error) {
		if err != nil {
			t.Helper()
			t.Fatal(err)
		}
	}
	check(f.SetSheetName("Sheet1", "Smazzate"))
	_, err := f.NewSheet("Risultati")
	check(err)
	hw, err := f.NewStreamWriter("Smazzate")
	check(err)
	rw, err := f.NewStreamWriter("Risultati")
	check(err)
	row := func(sw *excelize.StreamWriter, r int, values ...any) {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		check(sw.SetRow(cell, values))
	}
	row(hw, 1, "Turno", "Tavolo", "Smazzata", "NS", "EO", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale")
	row(rw, 1, "Turno", "Tavolo", "NS Totale", "EO Totale", "NS MP", "EO MP", "NS VP", "EO VP")
	table := domain.ChooseVPTable(ruleset, domain.KindPairs, hands, hands, domain.VPTable{})
	bases := []int{0, 100, 150, 200, 250, 300, 350, 400, 450, 500}
	hr := 2
	for i, m := range matches {
		var total [2]int
		for h := 1; h <= hands; h++ {
			var base, points [2]int
			for l := range 2 {
				base[l] = bases[rng.Intn(len(bases))]
				points[l] = 5 * (rng.Intn(60) - 10)
				total[l] += base[l] + points[l]
			}
			num := h
			if m.dupHand && h == 2 {
				num = 1
			}
			row(hw, hr, m.round, m.table, num, m.ns, m.eo, base[0], points[0], base[0]+points[0], base[1], points[1], base[1]+points[1])
			hr++
		}
		diff := total[0] - total[1]
		win, lose := table.Lookup(diff)
		vp := [2]int{win, lose}
		if diff < 0 {
			vp = [2]int{lose, win}
		}
		row(rw, i+2, m.round, m.table, total[0], total[1], diff, -diff, vp[0], vp[1])
	}
	check(hw.Flush())
	check(rw.Flush())
	if settings != nil {
		_, err := f.NewSheet("Torneo")
		check(err)
		for i, kv := range settings {
			check(f.SetSheetRow("Torneo", "A"+strconv.Itoa(i+1), &[]any{kv[0], kv[1]}))
		}
	}
	var buf bytes.Buffer
	check(f.Write(&buf))
	return buf.Bytes()
}

// paperWorkbook writes one paper-layout sheet (API §5 B) per match, named
// T1, T2, ...: the header block, the hand header in row 5, three hands.
func paperWorkbook(t testing.TB, matches []genMatch) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	check := func(err error) {
		if err != nil {
			t.Helper()
			t.Fatal(err)
		}
	}
	for i, m := range matches {
		name := "T" + strconv.Itoa(i+1)
		if i == 0 {
			check(f.SetSheetName("Sheet1", name))
		} else {
			_, err := f.NewSheet(name)
			check(err)
		}
		rows := [][]any{
			{"Torneo", "Generato"},
			{"Turno", m.round, "Tavolo", m.table},
			{"Coppia NS", m.ns, "Coppia EO", m.eo},
			{},
			{"Smazzata", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale"},
			{1, 300, 120, 420, 100, -40, 60},
			{2, 0, -55, -55, 400, 180, 580},
			{3, 350, 120, 470, 200, 65, 265},
		}
		for r, values := range rows {
			check(f.SetSheetRow(name, "A"+strconv.Itoa(r+1), &values))
		}
	}
	var buf bytes.Buffer
	check(f.Write(&buf))
	return buf.Bytes()
}

func genMatches(ms ...seating) []genMatch {
	out := make([]genMatch, len(ms))
	for i, m := range ms {
		out[i] = genMatch{seating: m}
	}
	return out
}

// expectedFixture is the part of expected.json these tests use.
type expectedFixture struct {
	File         string `json:"file"`
	Ruleset      string `json:"ruleset"`
	HandsPlanned int    `json:"hands_planned"`
	BadCell      string `json:"bad_cell"`
	Findings     []struct {
		Code  string   `json:"code"`
		Round int      `json:"round"`
		Table int      `json:"table"`
		Cells []string `json:"cells"`
	} `json:"findings"`
	Matches []struct {
		Round int    `json:"round"`
		Table int    `json:"table"`
		NS    string `json:"ns"`
		EO    string `json:"eo"`
	} `json:"matches"`
}

func loadFixtures(t *testing.T) (map[string]expectedFixture, func(name string) []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixturesDir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files []expectedFixture `json:"files"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]expectedFixture{}
	for _, f := range doc.Files {
		out[f.File] = f
	}
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(fixturesDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	return out, read
}

// The LibreOffice workbooks of both layouts, uploaded to tournaments seating
// their matches: every match is created, and each report has exactly the
// error findings expected.json lists, each naming one of its cells
// ("must": "report exactly the listed error findings, each naming its cell").
func TestImportLibreOfficeFixtures(t *testing.T) {
	t.Parallel()
	fixtures, read := loadFixtures(t)
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		for _, name := range []string{"tidy_fitab2025.xlsx", "paper_fitabint.xlsx"} {
			t.Run(name, func(t *testing.T) {
				ef := fixtures[name]
				var seats []seating
				for _, m := range ef.Matches {
					seats = append(seats, seating{m.Round, m.Table, m.NS, m.EO})
				}
				tid := w.tournamentWith(ef.Ruleset, ef.HandsPlanned, seats)
				data := read(name)
				r := w.upload(w.club1, tid, name, data)
				wantStatus(t, r, http.StatusCreated, "upload")
				rep := decodeImport(t, r)
				if loc := r.header.Get("Location"); loc != "/v1/imports/"+rep.ID {
					t.Errorf("Location %q, id %q", loc, rep.ID)
				}
				if rep.Tournament != tid || rep.Filename != name || len(rep.SHA256) != 64 || rep.CreatedAt == "" {
					t.Errorf("header fields %+v", rep)
				}
				if rep.Counts["matches"] != len(ef.Matches) || rep.Counts["created"] != len(ef.Matches) {
					t.Errorf("counts %v, want %d matches created", rep.Counts, len(ef.Matches))
				}
				type key struct {
					round, table int
					code         string
				}
				want := map[key][]string{}
				for _, f := range ef.Findings {
					want[key{f.Round, f.Table, f.Code}] = f.Cells
				}
				withErrors := map[[2]int]bool{}
				for _, m := range rep.Matches {
					if m.Status != "created" || m.Version != 1 || m.Report == nil {
						t.Errorf("round %d table %d: status %s version %d", m.Round, m.Table, m.Status, m.Version)
						continue
					}
					for _, f := range m.Report.Findings {
						if f.Severity != "error" {
							continue
						}
						withErrors[[2]int{m.Round, m.Table}] = true
						k := key{m.Round, m.Table, f.Code}
						cells, ok := want[k]
						if !ok {
							t.Errorf("round %d table %d: unexpected %s at %s: %s", m.Round, m.Table, f.Code, f.Cell, f.Message)
							continue
						}
						delete(want, k)
						if !slices.Contains(cells, f.Cell) {
							t.Errorf("round %d table %d %s names cell %q, want one of %v", m.Round, m.Table, f.Code, f.Cell, cells)
						}
					}
				}
				for k := range want {
					t.Errorf("missing %s in round %d table %d", k.code, k.round, k.table)
				}
				if rep.Counts["with_errors"] != len(withErrors) {
					t.Errorf("with_errors %d, want %d", rep.Counts["with_errors"], len(withErrors))
				}
				// The record answers the same report, byte for byte.
				g := w.do(request{method: "GET", path: r.header.Get("Location"), token: w.club1})
				wantStatus(t, g, http.StatusOK, "get import")
				if !bytes.Equal(g.body, r.body) {
					t.Errorf("GET answers another report:\n%s\nPOST answered:\n%s", g.body, r.body)
				}
				// The sheets are stored, with the report the import names.
				m := ef.Matches[0]
				s := w.do(request{method: "GET", path: fmt.Sprintf("/v1/tournaments/%s/rounds/%d/tables/%d/sheet", tid, m.Round, m.Table), token: w.club1})
				wantStatus(t, s, http.StatusOK, "get an imported sheet")
				if v := jsonPath(t, s.json(t), "version"); v != float64(1) {
					t.Errorf("sheet version %v", v)
				}
			})
		}
	})
}

// API §4: "a file that is not a spreadsheet, or one over the size limit is
// a 4xx with a precise detail — never a 500, never a partial write".
func TestImportUnreadableWorkbooks(t *testing.T) {
	t.Parallel()
	fixtures, read := loadFixtures(t)
	hostile := fixtures["hostile_text_in_number.xlsx"]
	good := tidyWorkbook(t, domain.FITAB2025, 3, genMatches(seating{1, 1, "1", "3"}, seating{1, 2, "2", "4"}), nil)
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		cases := []struct {
			name   string
			data   []byte
			status int
			cells  []string
			detail string
		}{
			{"API §5: a cell that is not a number names the cell (hostile_text_in_number.xlsx)",
				read(hostile.File), http.StatusUnprocessableEntity, []string{hostile.BadCell}, "12O"},
			{"a renamed text file", []byte("Turno;Tavolo;NS;EO\n1;1;1;3\n"), http.StatusUnprocessableEntity, nil, "renamed text or CSV"},
			{"a truncated workbook", good[:len(good)/2], http.StatusUnprocessableEntity, nil, "truncated or damaged"},
			{"a zip header cut short", good[:30], http.StatusUnprocessableEntity, nil, "zip"},
			{"an empty file", nil, http.StatusUnprocessableEntity, nil, "empty"},
			{"an 11 MiB file over the 10 MiB limit", bytes.Repeat([]byte("PK"), 11<<19), http.StatusRequestEntityTooLarge, nil, "limit"},
			{"an 11 MiB file sent without a declared length", bytes.Repeat([]byte("PK"), 11<<19), http.StatusRequestEntityTooLarge, nil, "limit"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				before := w.snapshot()
				var r response
				if strings.Contains(tc.name, "without a declared length") {
					body, ct := multipartBody(t, "file", "big.xlsx", tc.data)
					// An io.Reader of unknown length goes chunked: the cap
					// must hold while reading, not only on Content-Length.
					r = w.do(request{method: "POST", path: importsPath(w.tid), token: w.club1,
						body: struct{ io.Reader }{bytes.NewReader(body)}, header: map[string]string{"Content-Type": ct}})
				} else {
					r = w.upload(w.club1, w.tid, "upload.xlsx", tc.data)
				}
				p := wantProblem(t, r, tc.status, "")
				if tc.cells != nil {
					wantCells(t, p, tc.cells...)
				}
				if !strings.Contains(p.Detail, tc.detail) {
					t.Errorf("detail %q does not say %q", p.Detail, tc.detail)
				}
				w.wantUnchanged(before)
			})
		}
		t.Run("a declared length over the limit is refused unread", func(t *testing.T) {
			before := w.snapshot()
			req, err := http.NewRequest("POST", w.srv.URL+importsPath(w.tid), strings.NewReader("x"))
			if err != nil {
				t.Fatal(err)
			}
			req.ContentLength = 11 << 20
			req.Header.Set("Authorization", "Bearer "+w.club1)
			req.Header.Set("Content-Type", "multipart/form-data; boundary=xyz")
			res, err := w.srv.Client().Do(req)
			if err == nil {
				res.Body.Close()
				if res.StatusCode != http.StatusRequestEntityTooLarge {
					t.Errorf("status %d, want 413", res.StatusCode)
				}
			} // the server may also close the connection on the short body
			w.wantUnchanged(before)
		})
		t.Run("not a multipart form", func(t *testing.T) {
			r := w.do(request{method: "POST", path: importsPath(w.tid), token: w.club1, body: good,
				header: map[string]string{"Content-Type": xlsxContentType}})
			wantProblem(t, r, http.StatusUnsupportedMediaType, "Content-Type")
		})
		t.Run("no field file", func(t *testing.T) {
			body, ct := multipartBody(t, "workbook", "a.xlsx", good)
			r := w.do(request{method: "POST", path: importsPath(w.tid), token: w.club1, body: body, header: map[string]string{"Content-Type": ct}})
			wantProblem(t, r, http.StatusBadRequest, "file")
		})
		t.Run("a malformed multipart body", func(t *testing.T) {
			r := w.do(request{method: "POST", path: importsPath(w.tid), token: w.club1, body: "--xyz\r\nno headers end",
				header: map[string]string{"Content-Type": "multipart/form-data; boundary=xyz"}})
			wantProblem(t, r, http.StatusBadRequest, "")
		})
	})
}

// API §4: "the same file twice is recognised and not stored twice".
func TestImportSameFileTwice(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		data := tidyWorkbook(t, domain.FITAB2025, 3, genMatches(seating{1, 1, "1", "3"}, seating{1, 2, "2", "4"}), nil)
		first := w.upload(w.club1, w.tid, "turno1.xlsx", data)
		wantStatus(t, first, http.StatusCreated, "first upload")
		before := w.snapshot()
		// Again, under another name and by the referee: the content decides.
		again := w.upload(w.ref1, w.tid, "turno1 (1).xlsx", data)
		wantStatus(t, again, http.StatusOK, "second upload")
		if again.header.Get("Idempotent-Replayed") != "true" {
			t.Error("the repeat does not say it is one (Idempotent-Replayed)")
		}
		if !bytes.Equal(first.body, again.body) {
			t.Errorf("the repeat answers another report:\n%s\n%s", first.body, again.body)
		}
		if loc := again.header.Get("Content-Location"); loc != first.header.Get("Location") {
			t.Errorf("Content-Location %q, want %q", loc, first.header.Get("Location"))
		}
		w.wantUnchanged(before)
		if n := before.Rows["imports"]; n != 1 {
			t.Errorf("%d imports recorded", n)
		}
		// The same file in another tournament is that tournament's upload.
		other := w.tournamentWith("fitab-2025", 3, []seating{{1, 1, "1", "3"}, {1, 2, "2", "4"}})
		wantStatus(t, w.upload(w.club1, other, "turno1.xlsx", data), http.StatusCreated, "other tournament")
	})
}

// A match that does not fit the tournament is named by its cell, and the
// whole workbook is refused: nothing is stored, nothing recorded, so the
// same file imports once the tournament is put right.
func TestImportMatchesMustFitTheTournament(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b) // round 1: table 1 "1" v "3", table 2 "2" v "4"
		cases := []struct {
			name     string
			matches  []genMatch
			settings [][2]any
			cells    []string
			detail   string
		}{
			{"an unknown pair names its cell", genMatches(seating{1, 1, "1", "3"}, seating{1, 2, "99", "4"}), nil,
				[]string{"Smazzate!D5"}, `NS "99" is not an entrant`},
			{"a pair the table does not seat", genMatches(seating{1, 1, "1", "4"}), nil,
				[]string{"Smazzate!E2"}, `seats "3" at EO, not "4"`},
			{"NS and EO swapped", genMatches(seating{1, 1, "3", "1"}), nil,
				[]string{"Smazzate!D2", "Smazzate!E2"}, "swapped"},
			{"a table the round does not have", genMatches(seating{1, 9, "1", "3"}), nil,
				[]string{"Smazzate!B2"}, "round 1 has no table 9"},
			{"a round the tournament does not have", genMatches(seating{1, 1, "1", "3"}, seating{2, 1, "1", "2"}), nil,
				[]string{"Smazzate!A5"}, "has no round 2"},
			{"another ruleset (Torneo sheet)", genMatches(seating{1, 1, "1", "3"}), [][2]any{{"ruleset", "fibur-ita"}},
				[]string{"Torneo!B1"}, "played under fitab-2025, not fibur-ita"},
			{"other planned hands (Torneo sheet)", genMatches(seating{1, 1, "1", "3"}), [][2]any{{"hands_planned", 2}},
				[]string{"Torneo!B1"}, "round 1 plans 3 hands, not 2"},
			// The tidy layout gathers rows by round and table; two paper
			// sheets can name the same table.
			{"the same table on two paper sheets", genMatches(seating{1, 1, "1", "3"}, seating{1, 2, "2", "4"}, seating{1, 1, "1", "3"}), nil,
				[]string{"T3!A5"}, "round 1 table 1 appears twice in the workbook: also at T1!A5"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				before := w.snapshot()
				data := tidyWorkbook(t, domain.FITAB2025, 3, tc.matches, tc.settings)
				if strings.Contains(tc.name, "paper") {
					data = paperWorkbook(t, tc.matches)
				}
				r := w.upload(w.club1, w.tid, "x.xlsx", data)
				p := wantProblem(t, r, http.StatusUnprocessableEntity, "")
				if p.Type != httperr.ImportMismatch.Type() {
					t.Errorf("type %s", p.Type)
				}
				if tc.cells != nil {
					wantCells(t, p, tc.cells...)
				}
				if !strings.Contains(p.Detail+fmt.Sprint(p.Errors), tc.detail) {
					t.Errorf("problem does not say %q: %s", tc.detail, r.body)
				}
				w.wantUnchanged(before)
			})
		}
		// Once the tournament has round 2, the refused file imports.
		data := tidyWorkbook(t, domain.FITAB2025, 3, genMatches(seating{1, 1, "1", "3"}, seating{2, 1, "1", "2"}), nil)
		wantStatus(t, w.upload(w.club1, w.tid, "x.xlsx", data), http.StatusUnprocessableEntity, "before round 2")
		r := w.do(request{method: "POST", path: "/v1/tournaments/" + w.tid + "/rounds", token: w.club1,
			body: map[string]any{"number": 2, "phase": "danese", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}})
		wantStatus(t, r, http.StatusCreated, "round 2")
		rep := decodeImport(t, w.upload(w.club1, w.tid, "x.xlsx", data))
		if rep.Counts["created"] != 2 {
			t.Errorf("after round 2: counts %v", rep.Counts)
		}
	})
}

// RULES §10, FITAB art. 20: the sheets of a delivered round are final; an
// upload stores the other rounds' matches and lists those as rejected. A
// match that cannot be read as a whole is listed as unreadable with its
// cell; the others are stored (created or replaced).
func TestImportPartialStatuses(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		seats := []seating{{1, 1, "1", "3"}, {1, 2, "2", "4"}, {2, 1, "1", "2"}, {2, 2, "3", "4"}}
		tid := w.tournamentWith("fitab-2025", 3, seats)
		// Round 1 table 1 is entered by hand first: the upload replaces it.
		r := w.do(request{method: "PUT", path: fmt.Sprintf("/v1/tournaments/%s/rounds/1/tables/1/sheet", tid), token: w.club1, body: goodSheet()})
		wantStatus(t, r, http.StatusCreated, "PUT sheet")
		ms := genMatches(seats...)
		ms[1].dupHand = true // round 1 table 2: hand 1 twice
		data := tidyWorkbook(t, domain.FITAB2025, 3, ms, nil)
		// Without replace the upload is refused whole.
		before := w.snapshot()
		refused := w.upload(w.club1, tid, "tutto.xlsx", data)
		p := wantProblem(t, refused, http.StatusConflict, "")
		if p.Type != "/problems/would-replace" || !strings.Contains(p.Detail, "round/table 1/1") || !strings.Contains(p.Detail, "replace=true") {
			t.Errorf("detail %q", p.Detail)
		}
		w.wantUnchanged(before)
		up := w.uploadReplace(w.club1, tid, "tutto.xlsx", data)
		wantStatus(t, up, http.StatusCreated, "upload")
		rep := decodeImport(t, up)
		want := []struct {
			status  string
			version int
			cell    string
		}{
			{"replaced", 2, ""},
			{"unreadable", 0, "Smazzate!C6"}, // the second "1" in the hand column
			{"created", 1, ""},
			{"created", 1, ""},
		}
		for i, m := range rep.Matches {
			if m.Status != want[i].status || m.Version != want[i].version {
				t.Errorf("match %d: %s v%d, want %s v%d", i, m.Status, m.Version, want[i].status, want[i].version)
			}
			if want[i].cell != "" && (m.Error == nil || m.Error.Cell != want[i].cell || m.Report != nil) {
				t.Errorf("match %d: error %+v, want one naming %s and no report", i, m.Error, want[i].cell)
			}
		}
		if c := rep.Counts; c["created"] != 2 || c["replaced"] != 1 || c["unreadable"] != 1 || c["rejected"] != 0 {
			t.Errorf("counts %v", c)
		}

		// Round 1 is delivered: a new upload of both rounds stores round 2
		// (replaced) and rejects round 1.
		w.fillSheets(tid, 1)
		r = w.do(request{method: "PATCH", path: fmt.Sprintf("/v1/tournaments/%s/rounds/1", tid), token: w.club1, body: map[string]any{"state": "sheets_delivered"}})
		wantStatus(t, r, http.StatusOK, "deliver round 1")
		before = w.snapshot()
		data = tidyWorkbook(t, domain.FITAB2025, 3, genMatches(seats[0], seats[2]), nil)
		up = w.uploadReplace(w.club1, tid, "di nuovo.xlsx", data)
		wantStatus(t, up, http.StatusCreated, "upload after delivery")
		rep = decodeImport(t, up)
		if m := rep.Matches[0]; m.Status != "rejected" || m.Error == nil || m.Error.Cell != "Smazzate!A2" || !strings.Contains(m.Error.Detail, "sheets_delivered") || m.Report == nil {
			t.Errorf("round 1: %+v", m)
		}
		if m := rep.Matches[1]; m.Status != "replaced" || m.Version != 2 {
			t.Errorf("round 2: %+v", m)
		}
		after := w.snapshot()
		if after.Sheets[tid+"/1/1"] != before.Sheets[tid+"/1/1"] {
			t.Errorf("the delivered sheet changed: %s → %s", before.Sheets[tid+"/1/1"], after.Sheets[tid+"/1/1"])
		}
		// Only round 1 in the workbook: nothing to store, a 409.
		before = after
		data = tidyWorkbook(t, domain.FITAB2025, 3, genMatches(seats[0], seats[1]), nil)
		p = wantProblem(t, w.upload(w.club1, tid, "solo turno 1.xlsx", data), http.StatusConflict, "")
		wantCells(t, p, "Smazzate!A2", "Smazzate!A5")
		w.wantUnchanged(before)
	})
}

// API §4 roles: the tournament's club, its referees and an admin upload;
// the federation reads but does not upload (403); another club or an
// unassigned referee does not see the tournament (404); no token 401. An
// import is read as its tournament is.
func TestImportAuthorization(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		post := [nRoles]int{401, 201, 404, 201, 404, 403, 201}
		var id string
		for r := none; r < nRoles; r++ {
			t.Run("POST as "+roleNames[r], func(t *testing.T) {
				// Each role its own file, so that no upload is a repeat.
				data := tidyWorkbook(t, domain.FITAB2025, 3, genMatches(seating{1, int(r)%2 + 1, []string{"1", "2"}[int(r)%2], []string{"3", "4"}[int(r)%2]}), [][2]any{{"name", roleNames[r]}})
				before := w.snapshot()
				res := w.upload(w.tokenOf(r), w.tid, "a.xlsx", data)
				if res.status != post[r] {
					t.Fatalf("status %d, want %d\n%s", res.status, post[r], res.body)
				}
				if res.status == http.StatusCreated {
					id = decodeImport(t, res).ID
				} else {
					w.wantUnchanged(before)
				}
			})
		}
		get := readT
		for r := none; r < nRoles; r++ {
			t.Run("GET as "+roleNames[r], func(t *testing.T) {
				res := w.do(request{method: "GET", path: "/v1/imports/" + id, token: w.tokenOf(r)})
				if want := get[r]; (want == ok && res.status != http.StatusOK) || (want != ok && res.status != want) {
					t.Errorf("status %d, want %d\n%s", res.status, want, res.body)
				}
			})
		}
		for _, bad := range []string{"0", "-1", "007", "x", "99999", "9223372036854775808"} {
			wantStatus(t, w.do(request{method: "GET", path: "/v1/imports/" + bad, token: w.admin}), http.StatusNotFound, "GET import "+bad)
		}
	})
}

// API §4 GET /v1/templates/scoresheet.xlsx: no token; the blank workbook
// of the import layout, whose example match imports cleanly into a
// tournament seating it (round 1, table 1, pairs 1 and 2).
func TestScoresheetTemplate(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		for _, hands := range []int{2, 3, 4} {
			t.Run(fmt.Sprintf("%d hands", hands), func(t *testing.T) {
				path := "/v1/templates/scoresheet.xlsx?hands=" + strconv.Itoa(hands)
				if hands == defaultTemplateHands {
					path = "/v1/templates/scoresheet.xlsx"
				}
				r := w.do(request{method: "GET", path: path})
				wantStatus(t, r, http.StatusOK, "template")
				if ct := r.header.Get("Content-Type"); ct != xlsxContentType {
					t.Errorf("Content-Type %q", ct)
				}
				if cd, want := r.header.Get("Content-Disposition"), fmt.Sprintf(`attachment; filename=segnapunti-scoresheet-%d.xlsx`, hands); cd != want {
					t.Errorf("Content-Disposition %q, want %q", cd, want)
				}
				wb, err := xlsx.Read(bytes.NewReader(r.body), int64(len(r.body)), xlsx.Options{})
				if err != nil || wb.Layout != xlsx.LayoutTidy {
					t.Fatalf("the template does not read: %v", err)
				}
				// The unchanged template imports nothing, and the
				// sheet already stored for round 1, table 1 stays as it was.
				tid := w.tournamentWith("fitab-2025", hands, []seating{{1, 1, "1", "2"}})
				entered := tidyWorkbook(t, domain.FITAB2025, hands, genMatches(seating{1, 1, "1", "2"}), nil)
				wantStatus(t, w.upload(w.club1, tid, "turno1.xlsx", entered), http.StatusCreated, "enter round 1")
				before := w.snapshot()
				blank := w.upload(w.club1, tid, "segnapunti-scoresheet.xlsx", r.body)
				if p := wantProblem(t, blank, http.StatusUnprocessableEntity, ""); !strings.Contains(p.Detail, "nothing") {
					t.Errorf("the blank template: %s", blank.body)
				}
				w.wantUnchanged(before)

				// The example of the Istruzioni sheet, copied into Smazzate
				// and Risultati, imports and validates.
				filled := fillTemplate(t, r.body, hands)
				tid = w.tournamentWith("fitab-2025", hands, []seating{{1, 1, "1", "2"}})
				up := w.upload(w.club1, tid, "segnapunti-scoresheet.xlsx", filled)
				wantStatus(t, up, http.StatusCreated, "upload the filled template")
				rep := decodeImport(t, up)
				if len(rep.Matches) != 1 || rep.Matches[0].Status != "created" || rep.Matches[0].Report == nil {
					t.Fatalf("matches %+v", rep.Matches)
				}
				for _, f := range rep.Matches[0].Report.Findings {
					if f.Severity == "error" {
						t.Errorf("error finding %s at %s: %s", f.Code, f.Cell, f.Message)
					}
				}
				if !rep.Matches[0].Report.OK || rep.Counts["with_errors"] != 0 {
					t.Errorf("the example match does not validate: %s", up.body)
				}
			})
		}
		for _, q := range []string{"hands=1", "hands=5", "hands=x", "hands=", "hands=3&hands=3", "lang=it"} {
			r := w.do(request{method: "GET", path: "/v1/templates/scoresheet.xlsx?" + q})
			wantStatus(t, r, http.StatusBadRequest, q)
		}
	})
}

// fillTemplate copies the example match of the template's Istruzioni
// sheet into its Smazzate and Risultati sheets, as a secretary would.
func fillTemplate(t *testing.T, data []byte, hands int) []byte {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Istruzioni")
	if err != nil {
		t.Fatal(err)
	}
	const handHead = 9 // the example's Smazzate header row
	resultHead := handHead + hands + 2
	put := func(sheet string, row int, from []string) {
		values := make([]any, len(from))
		for i, v := range from {
			if n, err := strconv.Atoi(v); err == nil {
				values[i] = n
			} else {
				values[i] = v
			}
		}
		if err := f.SetSheetRow(sheet, fmt.Sprintf("A%d", row), &values); err != nil {
			t.Fatal(err)
		}
	}
	for i := range hands {
		put("Smazzate", 2+i, rows[handHead+i])
	}
	put("Risultati", 2, rows[resultHead])
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The request log and the answers never show the workbook (STYLE habit 11).
func TestImportLogsNoContent(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		data := tidyWorkbook(t, domain.FITAB2025, 3, genMatches(seating{1, 1, "1", "3"}), nil)
		wantStatus(t, w.upload(w.club1, w.tid, "segreto.xlsx", data), http.StatusCreated, "upload")
		if strings.Contains(w.logs.String(), "segreto") {
			t.Errorf("the log names the file:\n%s", w.logs.String())
		}
	})
}

// FuzzReadUpload: whatever the body and its Content-Type, reading an
// upload never panics, never keeps more than the limit, and what it keeps
// is the file with its own hash and a printable, bounded name.
func FuzzReadUpload(f *testing.F) {
	good, ct := multipartBody(f, "file", "turno 1.xlsx", []byte("PK\x03\x04 not really a workbook"))
	f.Add(good, ct)
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\x00\x7f.xlsx\"\r\n\r\nPK\r\n--b--\r\n"), "multipart/form-data; boundary=b")
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\ny\r\n--b--\r\n"), "multipart/form-data; boundary=b")
	f.Add([]byte("--b\r\n\r\n"), "multipart/form-data; boundary=b")
	f.Add([]byte("{}"), "application/json")
	f.Add(bytes.Repeat([]byte("A"), 300), "multipart/form-data; boundary=")
	const limit = 256
	s := &server{cfg: Config{MaxImportBytes: limit}.withDefaults()}
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		rec := httptest.NewRecorder()
		c, _ := gin.CreateTestContext(rec)
		c.Request = httptest.NewRequest(http.MethodPost, "/v1/tournaments/t/imports", bytes.NewReader(body))
		c.Request.Header.Set("Content-Type", contentType)
		up, err := s.readUpload(c, s.maxImportBytes())
		if err != nil {
			if p := problemFor(err); p.Status < 400 || p.Status >= 500 {
				t.Fatalf("error %v answers %d", err, p.Status)
			}
			return
		}
		if len(up.Data) > limit {
			t.Fatalf("kept %d bytes, over the limit of %d", len(up.Data), limit)
		}
		if sum := sha256.Sum256(up.Data); hex.EncodeToString(sum[:]) != up.SHA256 {
			t.Fatal("the hash is not the file's")
		}
		if len(up.Filename) > maxFilename || !utf8.ValidString(up.Filename) || strings.ContainsFunc(up.Filename, unicode.IsControl) {
			t.Fatalf("file name %q", up.Filename)
		}
	})
}
