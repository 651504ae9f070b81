package wasm

import "testing"

// engineGzipBudget is the most the phones' engine may weigh gzipped before
// a change to domain, engine or their imports is looked at: the engine
// was 1,402,310 bytes when this was set, over the aim of 1.2 MB
// for the reasons in docs/performance.md. A package-level regexp in
// domain once added 100 KB gzip (400 KB plain) without anybody noticing.
const engineGzipBudget = 1_450_000

func TestEngineWithinItsSizeBudget(t *testing.T) {
	if n := len(Gzip()); n > engineGzipBudget {
		t.Errorf("the engine is %d bytes gzip, over its budget of %d: look for a new import in domain, engine, importers/sheetjson or exporters/reportjson (go version -m, or build with -ldflags=-dumpdep)", n, engineGzipBudget)
	}
}
