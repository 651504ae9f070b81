-- Tables for the later issues (imports, corrections, adjustments), created
-- now so the schema they need is settled; no repository uses them yet.
-- The SQLite twin of migrations/postgres/00002_audit.sql.

-- +goose Up
-- API §4 imports: the same workbook twice is recognised by its hash and not stored twice.
CREATE TABLE imports (
    id             INTEGER NOT NULL PRIMARY KEY,
    tournament_id  TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    content_sha256 TEXT    NOT NULL,
    filename       TEXT    NOT NULL,
    report_json    TEXT    NOT NULL,
    created_at     TEXT    NOT NULL,
    created_by     TEXT    NOT NULL,
    UNIQUE (tournament_id, content_sha256),
    CONSTRAINT imports_content_sha256_check CHECK (length(content_sha256) = 64),
    CONSTRAINT imports_json_type_check CHECK (json_valid(report_json))
) STRICT;

-- RULES §9: every correction request is recorded with its ruling, who and
-- when, before and after. The trail is append-only: rows are never updated
-- or deleted (triggers below), and a tournament with corrections cannot be
-- deleted (RESTRICT).
CREATE TABLE corrections (
    id            INTEGER NOT NULL PRIMARY KEY,
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE RESTRICT,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    kind          TEXT    NOT NULL,
    ruling        TEXT    NOT NULL,
    rules         TEXT    NOT NULL,
    reason        TEXT    NOT NULL,
    before_json   TEXT,
    after_json    TEXT,
    author        TEXT    NOT NULL,
    created_at    TEXT    NOT NULL,
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE RESTRICT,
    CONSTRAINT corrections_kind_check CHECK (kind IN ('sum', 'inversion', 'transcription', 'other')),
    CONSTRAINT corrections_ruling_check CHECK (ruling IN ('apply', 'apply_keep_pairing', 'reject')),
    CONSTRAINT corrections_author_check CHECK (author <> ''),
    CONSTRAINT corrections_json_type_check CHECK (json_valid(rules) AND json_valid(before_json) IS NOT 0 AND json_valid(after_json) IS NOT 0)
) STRICT;
CREATE INDEX corrections_tournament_id_idx ON corrections (tournament_id, id);

-- +goose StatementBegin
CREATE TRIGGER corrections_append_only BEFORE UPDATE ON corrections
BEGIN
    SELECT RAISE(ABORT, 'corrections are append-only (RULES §9)');
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER corrections_append_only_delete BEFORE DELETE ON corrections
BEGIN
    SELECT RAISE(ABORT, 'corrections are append-only (RULES §9)');
END;
-- +goose StatementEnd

-- RULES §7: referee adjustments, never edits of the hand scores; each records
-- who made it, when and why. round_no is NULL for a tournament-wide adjustment.
-- Entrant and round references are checked at commit, as in round_tables.
CREATE TABLE adjustments (
    id            INTEGER NOT NULL PRIMARY KEY,
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    entrant_id    TEXT    NOT NULL,
    round_no      INTEGER,
    reason        TEXT    NOT NULL,
    vp            INTEGER,
    mp            INTEGER,
    note          TEXT    NOT NULL,
    author        TEXT    NOT NULL,
    created_at    TEXT    NOT NULL,
    FOREIGN KEY (tournament_id, entrant_id) REFERENCES entrants (tournament_id, id) DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (tournament_id, round_no) REFERENCES rounds (tournament_id, number) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT adjustments_reason_check CHECK (reason IN ('warning', 'late_up_to_5', 'late_5_to_10', 'late_over_10', 'bye',
        'abandon_temporary', 'abandon_justified', 'abandon_unjustified', 'forced_removal', 'late_start', 'referee_score')),
    -- RULES §7 referee_score: "with a mandatory free-text reason".
    CONSTRAINT adjustments_note_check CHECK (reason <> 'referee_score' OR note <> ''),
    CONSTRAINT adjustments_author_check CHECK (author <> '')
) STRICT;
CREATE INDEX adjustments_tournament_id_idx ON adjustments (tournament_id, id);

-- +goose Down
DROP TABLE adjustments;
DROP TABLE corrections;
DROP TABLE imports;
