package api

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"
)

// openAPIDocument is the machine-readable contract of the service (API.md:
// "the authoritative machine-readable form"). A test keeps its paths and
// methods equal to the router's.
//
//go:embed openapi.yaml
var openAPIDocument []byte

// OpenAPI returns the service's OpenAPI 3.1 document.
func OpenAPI() []byte { return append([]byte(nil), openAPIDocument...) }

func (s *server) openAPI(c *gin.Context) {
	c.Data(http.StatusOK, "application/yaml", openAPIDocument)
}
