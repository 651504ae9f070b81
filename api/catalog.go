package api

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"

	"github.com/gin-gonic/gin"

	"segnapunti/domain"
	"segnapunti/messages"
)

// The catalogue of RULES §2, §4 and §6: what GET /v1/rulesets lists.

type rulesetsResponse struct {
	Rulesets []rulesetJSON `json:"rulesets"`
	VPTables []vpTableJSON `json:"vp_tables"`
}

type rulesetJSON struct {
	ID            string            `json:"id"`
	Federation    string            `json:"federation"`
	International bool              `json:"international"`
	BaseStep      int               `json:"base_step"`
	ClosingBonus  int               `json:"closing_bonus"`
	MinClosing    int               `json:"min_closing_base"`
	BurracoTypes  []burracoTypeJSON `json:"burraco_types"`
	VPTableBy     string            `json:"vp_table_by"`
	DefaultTables []defaultVPJSON   `json:"default_vp_tables"`
	TeamsVPTable  string            `json:"teams_vp_table"`
	Rules         map[string]string `json:"rules"`
}

type burracoTypeJSON struct {
	ID       string `json:"id"`
	Bonus    int    `json:"bonus"`
	MinCards int    `json:"min_cards"`
}

type defaultVPJSON struct {
	Hands int    `json:"hands"`
	Table string `json:"table"`
}

type vpTableJSON struct {
	ID    string       `json:"id"`
	Bands []vpBandJSON `json:"bands"`
}

// vpBandJSON is one inclusive band of MP differences; Max is null for the
// open 20-0 band.
type vpBandJSON struct {
	Winner int  `json:"winner"`
	Loser  int  `json:"loser"`
	Min    int  `json:"min"`
	Max    *int `json:"max"`
}

// catalogue builds the rulesets document from the domain, once.
var catalogue = sync.OnceValue(func() []byte {
	var out rulesetsResponse
	for _, r := range domain.Rulesets {
		rj := rulesetJSON{
			ID:            string(r),
			Federation:    string(r.Federation()),
			International: r.International(),
			BaseStep:      r.BaseStep(),
			ClosingBonus:  domain.ClosingBonus,
			MinClosing:    r.MinClosingBase(),
			VPTableBy:     "planned_hands",
			TeamsVPTable:  domain.ChooseVPTable(r, domain.KindTeams, 3, 3, domain.VPTable{}).ID(),
			Rules: map[string]string{
				"bonuses": r.BonusRule(),
				"closing": r.ClosingRule(),
				"scoring": r.ScoringRule(),
				"sheet":   r.SheetRule(),
			},
		}
		if r == domain.FIBurInt {
			// RULES §6.2: fibur-int goes one table up from the hands played.
			rj.VPTableBy = "played_hands"
		}
		for _, t := range r.BurracoTypes() {
			rj.BurracoTypes = append(rj.BurracoTypes, burracoTypeJSON{ID: string(t), Bonus: t.Bonus(), MinCards: t.MinCards()})
		}
		for hands := minHands; hands <= maxHands; hands++ {
			if r != domain.FIBurInt && hands < minPlannedHands {
				continue
			}
			rj.DefaultTables = append(rj.DefaultTables, defaultVPJSON{Hands: hands,
				Table: domain.ChooseVPTable(r, domain.KindPairs, hands, hands, domain.VPTable{}).ID()})
		}
		out.Rulesets = append(out.Rulesets, rj)
	}
	for _, t := range domain.VPTables() {
		tj := vpTableJSON{ID: t.ID()}
		bands := t.Bands()
		for i, b := range bands {
			tj.Bands = append(tj.Bands, vpBandJSON{Winner: 10 + i, Loser: domain.MaxVP - 10 - i, Min: b[0], Max: &b[1]})
		}
		tj.Bands = append(tj.Bands, vpBandJSON{Winner: domain.MaxVP, Loser: 0, Min: bands[len(bands)-1][1] + 5})
		out.VPTables = append(out.VPTables, tj)
	}
	b, err := marshalJSON(out)
	if err != nil {
		panic(err) // plain structs of ints and strings always encode
	}
	return b
})

// Hands per match (API §1: hands_planned 2, 3 or 4; a sheet holds 1..4
// hands, fewer than planned after a time-out).
const (
	minHands        = 1
	minPlannedHands = 2
	maxHands        = 4
)

func (s *server) listRulesets(c *gin.Context) {
	writeJSON(c, http.StatusOK, catalogue())
}

// maxVPDiff bounds the diff of GET /v1/vp: four hands cannot differ by more
// than a few thousand points; a million is generous and keeps the number
// far from overflow.
const maxVPDiff = 1_000_000

type vpResponse struct {
	Table  string `json:"table"`
	Winner int    `json:"winner"`
	Loser  int    `json:"loser"`
}

// lookupVP answers GET /v1/vp (RULES §6.1, §6.2): by a named table, or by
// ruleset and hands as the tournament would choose it.
func (s *server) lookupVP(c *gin.Context) {
	q := c.Request.URL.Query()
	if err := onlyParams(q, "table", "diff", "ruleset", "hands", "kind"); err != nil {
		s.fail(c, err)
		return
	}
	diff, err := intParam(q, "diff", -maxVPDiff, maxVPDiff, true)
	if err != nil {
		s.fail(c, err)
		return
	}
	var table domain.VPTable
	if q.Has("table") {
		for _, other := range []string{"ruleset", "hands", "kind"} {
			if q.Has(other) {
				s.fail(c, errParam(other, messages.New("api.vp_either", other)))
				return
			}
		}
		if table, err = domain.ParseVPTable(q.Get("table")); err != nil {
			s.fail(c, errParam("table", err.Error()))
			return
		}
	} else {
		if !q.Has("ruleset") {
			s.fail(c, errParam("ruleset", messages.New("api.vp_need")))
			return
		}
		r, err := domain.ParseRuleset(q.Get("ruleset"))
		if err != nil {
			s.fail(c, errParam("ruleset", err.Error()))
			return
		}
		hands, err := intParam(q, "hands", minHands, maxHands, true)
		if err != nil {
			s.fail(c, err)
			return
		}
		k, err := domain.ParseKind(q.Get("kind"))
		if err != nil {
			s.fail(c, errParam("kind", err.Error()))
			return
		}
		// hands is the planned count, and for fibur-int the played one: the
		// one number a caller knows (RULES §6.2).
		table = domain.ChooseVPTable(r, k, hands, hands, domain.VPTable{})
	}
	w, l := table.Lookup(diff)
	b, _ := marshalJSON(vpResponse{Table: table.ID(), Winner: w, Loser: l})
	writeJSON(c, http.StatusOK, b)
}

// onlyParams refuses query parameters a route does not know, so that a typo
// ("tabel=") is an error rather than silently ignored.
func onlyParams(q url.Values, known ...string) error {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(known, k) {
			return errParam(k, messages.New("api.query_unknown", k))
		}
		if len(q[k]) > 1 {
			return errParam(k, messages.New("api.query_twice", k))
		}
	}
	return nil
}

// intParam reads an integer query parameter within [lo, hi].
func intParam(q url.Values, name string, lo, hi int, required bool) (int, error) {
	if !q.Has(name) {
		if required {
			return 0, errParam(name, messages.New("api.query_required", name))
		}
		return 0, nil
	}
	n, err := strconv.Atoi(q.Get(name))
	if err != nil || n < lo || n > hi {
		return 0, errParam(name, messages.New("api.int_range", name, lo, hi))
	}
	return n, nil
}

// langParam reads ?lang= (API §4: en by default, it for Italian messages).
func langParam(q url.Values) (domain.Lang, error) {
	switch q.Get("lang") {
	case "", "en":
		return domain.English, nil
	case "it":
		return domain.Italian, nil
	}
	return "", errParam("lang", messages.New("api.lang"))
}
