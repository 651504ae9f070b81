package sheetjson

import "segnapunti/domain"

// Defaults are values for fields a sheet may leave out when the reader
// knows them (a sheet stored at a table: API §4.1 lets a client leave out
// ruleset, hands_planned, the lines' ids, and what the service knows
// anyway). A field with a default that is absent or null in the sheet
// takes the default; a field that is given is decoded as given (and the
// caller checks it agrees). A nil field has no default.
type Defaults struct {
	Ruleset      *string
	HandsPlanned *int
	Kind         *string
	VPTable      *string
	Round, Table *int
	// IDs are the entrants' ids by line (NS, EO): a line absent or null
	// becomes {"id": ...}; a line object without id (or with a null id)
	// takes it.
	IDs [2]*string
	// LineIDs are, at a table of an individual tournament, the two
	// players of each line (API §4.2): a line absent or null becomes
	// {"ids": [...]}; a line object naming itself neither by id nor by
	// ids takes them. A line with LineIDs takes no IDs default.
	LineIDs [2][]string
}

// DecodeSheet reads a document that must be one sheet, filling in def
// before the checks: one parse of the body, instead of
// building the document again with the defaults and decoding that. A
// batch is an *Error at /sheets. Errors are those of Decode, at the
// offsets of data as given.
func DecodeSheet(data []byte, def Defaults) (domain.Sheet, error) {
	if s, ok := decodeWhole(data, &def); ok {
		return s, nil
	}
	d := newDecoder(nil, data)
	d.fast.def = &def
	d.triedWhole = true
	return d.sheetOnly()
}

// sheetOnly reads a whole document that must be one sheet.
func (d *Decoder) sheetOnly() (domain.Sheet, error) {
	if s, ok := d.wholeFast(); ok {
		return s, nil
	}
	if d.Batch() {
		p := newProblem("/sheets", -1, "api.one_sheet")
		return domain.Sheet{}, &Error{Pointer: p.ptr, Detail: p.detail, Code: p.code}
	}
	return d.Next()
}

// apply fills w's absent fields from def (a nil def fills nothing).
func (def *Defaults) apply(w *wireSheet) {
	if def == nil {
		return
	}
	if w.Ruleset == nil {
		w.Ruleset = def.Ruleset
	}
	if w.HandsPlanned == nil {
		w.HandsPlanned = def.HandsPlanned
	}
	if w.Kind == nil {
		w.Kind = def.Kind
	}
	if w.VPTable == nil {
		w.VPTable = def.VPTable
	}
	if w.Round == nil {
		w.Round = def.Round
	}
	if w.Table == nil {
		w.Table = def.Table
	}
	for l, side := range [2]**wireSide{&w.NS, &w.EO} {
		id, ids := def.IDs[l], def.LineIDs[l]
		if ids != nil {
			if *side == nil {
				*side = &wireSide{}
			}
			if (*side).ID == nil && (*side).IDs == nil {
				for _, x := range ids {
					(*side).IDs = append((*side).IDs, &x)
				}
			}
			continue
		}
		switch {
		case id == nil:
		case *side == nil:
			*side = &wireSide{ID: id}
		case (*side).ID == nil:
			(*side).ID = id
		}
	}
}
