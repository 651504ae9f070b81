package store

import (
	"fmt"
	"reflect"
	"unicode/utf8"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// Every text the store writes is valid UTF-8, on both databases alike.
// PostgreSQL refuses invalid bytes itself; SQLite stores whatever it is
// given, and an export then writes the raw bytes. The operations check
// the fields they name (app.checkText); this is the net under every door:
// a gorm write (create, update, or a statement with arguments) with a
// string that is not UTF-8 is refused as domain.ErrInvalid naming the
// column or the argument, before anything is written.

// registerTextCheck installs the check on g's write callbacks.
func registerTextCheck(g *gorm.DB) error {
	cb := g.Callback()
	if err := cb.Create().Before("gorm:create").Register("segnapunti:utf8", checkStatementText); err != nil {
		return err
	}
	if err := cb.Update().Before("gorm:update").Register("segnapunti:utf8", checkStatementText); err != nil {
		return err
	}
	return cb.Raw().Before("gorm:raw").Register("segnapunti:utf8", checkStatementText)
}

func checkStatementText(tx *gorm.DB) {
	st := tx.Statement
	for i, v := range st.Vars {
		if !validText(reflect.ValueOf(v)) {
			tx.AddError(fmt.Errorf("%w: argument %d is not valid UTF-8 text", domain.ErrInvalid, i+1))
			return
		}
	}
	switch d := st.Dest.(type) {
	case map[string]any:
		for k, v := range d {
			if !validText(reflect.ValueOf(v)) {
				tx.AddError(fmt.Errorf("%w: %s is not valid UTF-8 text", domain.ErrInvalid, k))
				return
			}
		}
		return
	}
	if st.Schema == nil || !st.ReflectValue.IsValid() {
		return
	}
	check := func(rv reflect.Value) bool {
		for _, f := range st.Schema.Fields {
			if f.FieldType.Kind() != reflect.String && !(f.FieldType.Kind() == reflect.Pointer && f.FieldType.Elem().Kind() == reflect.String) {
				continue
			}
			v, zero := f.ValueOf(st.Context, rv)
			if zero {
				continue
			}
			if !validText(reflect.ValueOf(v)) {
				tx.AddError(fmt.Errorf("%w: %s is not valid UTF-8 text", domain.ErrInvalid, f.DBName))
				return false
			}
		}
		return true
	}
	rv := reflect.Indirect(st.ReflectValue)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		for i := range rv.Len() {
			if !check(reflect.Indirect(rv.Index(i))) {
				return
			}
		}
	case reflect.Struct:
		check(rv)
	}
}

// validText: strings (and pointers to, and slices of, strings) are UTF-8;
// anything else passes.
func validText(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return utf8.ValidString(v.String())
	case reflect.Pointer, reflect.Interface:
		return v.IsNil() || validText(v.Elem())
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() != reflect.String {
			return true
		}
		for i := range v.Len() {
			if !utf8.ValidString(v.Index(i).String()) {
				return false
			}
		}
	}
	return true
}
