//go:build js && wasm

// Command engine-wasm is the rules engine of the table page compiled to
// WebAssembly. It defines one JavaScript function,
//
//	segnapuntiCheck(sheetJSON, lang) → reportJSON
//
// answering the report of API §2 for a sheet of API §1 (a batch gives
// {"reports": [...]}), in Italian ("it") or English; a document that is
// not a sheet answers {"error": "...", "pointer": "..."}. It is built by
// `go generate ./web/wasm` (GOOS=js GOARCH=wasm, -trimpath, -s -w) and
// served beside the table page; domain/ knows nothing of syscall/js.
package main

import (
	"errors"
	"syscall/js"

	"segnapunti/engine"
	"segnapunti/importers/sheetjson"
)

func main() {
	check := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return answerError("segnapuntiCheck(sheetJSON, lang): the sheet must be a string", "")
		}
		lang := ""
		if len(args) > 1 && args[1].Type() == js.TypeString {
			lang = args[1].String()
		}
		out, err := engine.Check([]byte(args[0].String()), lang)
		if err != nil {
			var se *sheetjson.Error
			if errors.As(err, &se) {
				return answerError(se.Detail, se.Pointer)
			}
			return answerError(err.Error(), "")
		}
		return string(out)
	})
	js.Global().Set("segnapuntiCheck", check)
	if ready := js.Global().Get("segnapuntiReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // the function lives as long as the page
}

// answerError is {"error": detail, "pointer": pointer} as JSON, built by
// hand so that encoding/json stays out of the module.
func answerError(detail, pointer string) string {
	return `{"error":` + quote(detail) + `,"pointer":` + quote(pointer) + `}`
}

func quote(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}
