// Runs the engine under Node for the parity test (parity_test.go):
//   node check_lines.js WASM_EXEC_JS ENGINE_WASM IN OUT LANG
// IN holds one sheet (API §1 JSON) per line; OUT gets one answer of
// segnapuntiCheck per line, in the same order. One Node process checks
// the whole corpus: starting the engine costs more than checking a sheet.
"use strict";
const fs = require("fs");
const [wasmExec, engine, input, output, lang] = process.argv.slice(2);
require(wasmExec);
const go = new Go();
WebAssembly.instantiate(fs.readFileSync(engine), go.importObject).then((result) => {
  go.run(result.instance); // returns when main waits: segnapuntiCheck is set
  const lines = fs.readFileSync(input, "utf8").split("\n").filter((l) => l !== "");
  const out = lines.map((l) => segnapuntiCheck(l, lang).replace(/\n/g, " "));
  fs.writeFileSync(output, out.join("\n") + "\n");
  process.exit(0);
}).catch((err) => { console.error(err); process.exit(1); });
