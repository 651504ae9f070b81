// Package workbook writes the federation exports of API §6: the tournament
// workbook (sheets Torneo, Classifica, Turni, Smazzate, Rettifiche,
// Correzioni, Premi), the season workbook (Partecipazioni, Totali), the same tables
// as CSV, and a machine-readable JSON document with its JSON Schema.
//
// # Streaming
//
// Every table arrives as an iterator (iter.Seq2[Row, error]) and is written
// row by row with excelize's StreamWriter, which spills each sheet to a
// temporary file past 16 MB; the zip archive is written straight to the
// caller's io.Writer instead of being assembled in memory first (excelize's
// File.Write buffers the whole archive). Memory therefore stays flat however
// many rows there are. An error from an iterator aborts the export and is
// returned: a truncated CSV would otherwise look complete. Over HTTP the
// status line is gone by then; abort the response (panic with
// http.ErrAbortHandler) so the client sees a failed download.
//
// # For a person reading in Italian
//
// Headers and the values a person reads are Italian (labels.go: livello
// "circolo", tipo "coppie", fine "tallone esaurito", motivo "errore di
// somma"...; the JSON export keeps the API ids); entrant ids that are
// numbers are numeric cells. Every sheet has one font (Calibri 11) and
// prints on A4, one page wide, landscape when wide, its header row
// repeated on every page (_xlnm.Print_Titles). CSV comes RFC 4180 by
// default, or with ';' and a UTF-8 BOM for Italian Excel (CSVItalian).
//
// A sheet holds at most 1,048,576 rows (the xlsx limit); a longer table
// continues on "<name> (2)", "<name> (3)", ... each with its own header.
// A text cell holds at most 32,767 characters; excelize cuts longer text.
//
// # Formula injection
//
// API §6: a text value that starts with =, +, -, @ (or a tab, CR, LF, or
// their full-width forms) must never run as a formula.
//
//   - Workbook: every Go string is written as an inline string cell
//     (t="inlineStr"), never as a formula (a formula needs excelize.Cell
//     {Formula}, which this package never sets). Such "risky" cells also get
//     a cell style with quotePrefix="1" — the file-format form of a typed
//     leading apostrophe — so Excel keeps them as text even when a user
//     edits the cell and presses Enter. No literal "'" is added: the value
//     read back is exactly the original text.
//   - CSV has no cell types, so a risky text value is prefixed with "'"
//     (the OWASP recommendation) and the apostrophe stays in the data: it
//     is the only protection CSV has. Numbers are never prefixed, so -120
//     stays a number.
package workbook
