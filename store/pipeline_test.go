package store_test

import (
	"context"
	"testing"

	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// TestPipelineIsOneTransaction: the statements of the sheet write's
// pipeline run in one transaction (the same transaction id), the
// transaction-scoped advisory lock of the first is still held by the
// second, and it is released when the pipeline ends.
func TestPipelineIsOneTransaction(t *testing.T) {
	db := dbtest.Postgres(t)
	ctx := context.Background()
	got, err := store.PipelineScan(ctx, db,
		`SELECT txid_current()`,
		`SELECT txid_current() FROM pg_advisory_xact_lock(hashtext('pipeline-test'), 1)`,
		`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND objid = 1 AND granted`)
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != got[1] {
		t.Errorf("two transactions in one pipeline: %d, %d", got[0], got[1])
	}
	if got[2] != 1 {
		t.Errorf("the lock of the first statement is not held by the last: %d", got[2])
	}
	after, err := store.PipelineScan(ctx, db, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND objid = 1`)
	if err != nil {
		t.Fatal(err)
	}
	if after[0] != 0 {
		t.Errorf("the lock outlives the pipeline")
	}
}
