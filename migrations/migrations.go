// Package migrations holds the versioned database schema: goose SQL files,
// one folder per database with the same version numbers in each (one SQL
// file cannot serve both: identity columns, STRICT tables and types differ).
// They are embedded so the binary and the tests apply exactly these files.
package migrations

import (
	"embed"
	"fmt"
	"io/fs"
)

// FS holds postgres/*.sql and sqlite/*.sql.
//
//go:embed postgres/*.sql sqlite/*.sql
var FS embed.FS

// Dialects lists the folders of FS, one per supported database.
var Dialects = []string{"postgres", "sqlite"}

// Dir returns the migrations of one database, "postgres" or "sqlite", as a
// file system rooted at its folder (what goose.NewProvider expects).
func Dir(dialect string) (fs.FS, error) {
	switch dialect {
	case "postgres", "sqlite":
		return fs.Sub(FS, dialect)
	}
	return nil, fmt.Errorf("migrations: unknown dialect %q (want postgres or sqlite)", dialect)
}
