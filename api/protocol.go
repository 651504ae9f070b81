package api

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gin-gonic/gin"

	"segnapunti/messages"
)

// HTTP protocol rules that hold on every route, checked once here rather
// than in each handler: path values are UTF-8, the query names only
// parameters the route knows, OPTIONS says which methods a route has.

// queryParams is, per route ("GET /v1/tournaments/:tid/standings"), the
// query parameters it knows. It is read from openapi.yaml, the contract
// (API.md), so the document and the check cannot disagree.
var queryParams = sync.OnceValues(func() (map[string][]string, error) {
	doc, err := openapi3.NewLoader().LoadFromData(openAPIDocument)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	param := regexp.MustCompile(`\{([A-Za-z]+)\}`)
	out := map[string][]string{}
	for path, item := range doc.Paths.Map() {
		route := param.ReplaceAllString(path, ":$1")
		for method, op := range item.Operations() {
			var known []string
			for _, ps := range [][]*openapi3.ParameterRef{item.Parameters, op.Parameters} {
				for _, p := range ps {
					if p.Value != nil && p.Value.In == openapi3.ParameterInQuery {
						known = append(known, p.Value.Name)
					}
				}
			}
			sort.Strings(known)
			out[method+" "+route] = known
		}
	}
	return out, nil
})

// checkRequest refuses, before any handler runs, a path value that is not
// UTF-8 (a 400 naming the path parameter) and a query parameter the route
// does not know (a 400 naming it): a typo ("tabel=") is an error rather
// than silently ignored, on every route alike.
func (s *server) checkRequest(c *gin.Context) {
	for _, p := range c.Params {
		if !utf8.ValidString(p.Value) {
			s.fail(c, errParam(p.Key, messages.New("api.path_utf8", p.Key)))
			return
		}
	}
	if c.Request.URL.RawQuery != "" {
		table, err := queryParams()
		if err != nil {
			s.fail(c, err)
			return
		}
		known := table[c.Request.Method+" "+c.FullPath()]
		keys := make([]string, 0)
		for k := range c.Request.URL.Query() {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !slices.Contains(known, k) {
				s.fail(c, errParam(k, messages.New("api.query_unknown", k)))
				return
			}
		}
	}
	c.Next()
}

// noMethod answers a method a path does not have: OPTIONS is a 204 with
// Allow listing the path's methods (RFC 9110 §9.3.7); anything else a 405
// with the same Allow.
func (s *server) noMethod(c *gin.Context) {
	allow := c.Writer.Header().Get("Allow")
	if c.Request.Method == http.MethodOptions {
		if !strings.Contains(allow, http.MethodOptions) {
			allow += ", " + http.MethodOptions
		}
		c.Header("Allow", allow)
		c.Status(http.StatusNoContent)
		c.Abort()
		return
	}
	s.fail(c, &apiError{status: http.StatusMethodNotAllowed, typ: typeMethod,
		msg: messages.New("api.method", c.Request.Method, allow)})
}
