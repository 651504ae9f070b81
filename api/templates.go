package api

import (
	"fmt"
	"net/http"
	"segnapunti/exporters/download"

	"github.com/gin-gonic/gin"

	"segnapunti/domain"
	"segnapunti/importers/xlsx"
	"segnapunti/messages"
)

// defaultTemplateHands: API §4 GET /v1/templates/scoresheet.xlsx?hands=3.
const defaultTemplateHands = 3

// scoresheetTemplate: GET /v1/templates/scoresheet.xlsx?hands=N answers a
// blank workbook in the tidy import layout (API §5 A) for rounds of N
// planned hands (2, 3 or 4; 3 when not given), with one example match that
// imports cleanly. It needs no token: it holds no tournament's data, and a
// club fills it in before it has anything to upload.
func (s *server) scoresheetTemplate(c *gin.Context) {
	q := c.Request.URL.Query()
	if err := onlyParams(q, "hands", "kind"); err != nil {
		s.fail(c, err)
		return
	}
	hands, err := intParam(q, "hands", minPlannedHands, maxHands, false)
	if err != nil {
		s.fail(c, err)
		return
	}
	if hands == 0 {
		hands = defaultTemplateHands
	}
	// kind: the tournament's kind; individual lines name two players
	// (API §4.2, importers/xlsx SplitPlayerIDs).
	kind := domain.KindPairs
	if v, ok := q["kind"]; ok {
		k, err := domain.ParseKind(v[0])
		if len(v) != 1 || err != nil {
			s.fail(c, errParam("kind", messages.New("api.template_kind")))
			return
		}
		kind = k
	}
	data, err := xlsx.TemplateFor(hands, kind)
	if err != nil {
		s.fail(c, fmt.Errorf("build the template: %w", err))
		return
	}
	c.Header("Content-Disposition", download.Disposition(fmt.Sprintf("segnapunti-scoresheet-%d.xlsx", hands)))
	c.Header("X-Content-Type-Options", "nosniff")
	// The same for everyone until the service is upgraded.
	c.Header("Cache-Control", "public, max-age=3600")
	c.Data(http.StatusOK, xlsxContentType, data) // exports.go
}
