package store_test

import (
	"context"
	"errors"
	"testing"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// A real SQLITE_FULL from the driver is a full disk: the database file
// may not grow (max_page_count clamps to its size) and a write that needs
// another page fails with the driver's own error, which StorageFull knows.
func TestSQLiteFullIsStorageFull(t *testing.T) {
	ctx := context.Background()
	path := dbtest.SQLitePath(t)
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(ctx, path+"?_pragma=max_page_count(1)", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	err = store.Exec(ctx, db, "CREATE TABLE filler AS SELECT randomblob(1000000) AS b")
	if !store.StorageFull(err) {
		t.Fatalf("error %v is not a full disk", err)
	}
	// By its code, not only by its words.
	var driverErr *sqlite.Error
	if !errors.As(err, &driverErr) || driverErr.Code()&0xff != sqlite3.SQLITE_FULL {
		t.Errorf("error %v does not carry the driver's SQLITE_FULL", err)
	}
}
