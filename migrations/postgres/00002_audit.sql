-- Tables for the later issues (imports, corrections, adjustments), created
-- now so the schema they need is settled; no repository uses them yet.

-- +goose Up
-- API §4 imports: the same workbook twice is recognised by its hash and not stored twice.
CREATE TABLE imports (
    id             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tournament_id  text        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    content_sha256 text        NOT NULL,
    filename       text        NOT NULL,
    report_json    json        NOT NULL,
    created_at     timestamptz NOT NULL,
    created_by     text        NOT NULL,
    UNIQUE (tournament_id, content_sha256),
    CONSTRAINT imports_content_sha256_check CHECK (length(content_sha256) = 64)
);

-- RULES §9: every correction request is recorded with its ruling, who and
-- when, before and after. The trail is append-only: rows are never updated
-- or deleted (triggers below), and a tournament with corrections cannot be
-- deleted (RESTRICT).
CREATE TABLE corrections (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tournament_id text        NOT NULL REFERENCES tournaments (id) ON DELETE RESTRICT,
    round_no      integer     NOT NULL,
    table_no      integer     NOT NULL,
    kind          text        NOT NULL,
    ruling        text        NOT NULL,
    rules         json        NOT NULL,
    reason        text        NOT NULL,
    before_json   json,
    after_json    json,
    author        text        NOT NULL,
    created_at    timestamptz NOT NULL,
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE RESTRICT,
    CONSTRAINT corrections_kind_check CHECK (kind IN ('sum', 'inversion', 'transcription', 'other')),
    CONSTRAINT corrections_ruling_check CHECK (ruling IN ('apply', 'apply_keep_pairing', 'reject')),
    CONSTRAINT corrections_author_check CHECK (author <> '')
);
CREATE INDEX corrections_tournament_id_idx ON corrections (tournament_id, id);

-- +goose StatementBegin
CREATE FUNCTION corrections_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'corrections are append-only (RULES §9)' USING ERRCODE = 'restrict_violation';
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER corrections_append_only BEFORE UPDATE OR DELETE ON corrections
    FOR EACH ROW EXECUTE FUNCTION corrections_append_only();
CREATE TRIGGER corrections_append_only_truncate BEFORE TRUNCATE ON corrections
    FOR EACH STATEMENT EXECUTE FUNCTION corrections_append_only();

-- RULES §7: referee adjustments, never edits of the hand scores; each records
-- who made it, when and why. round_no is NULL for a tournament-wide adjustment.
-- Entrant and round references are checked at commit, as in round_tables.
CREATE TABLE adjustments (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tournament_id text        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    entrant_id    text        NOT NULL,
    round_no      integer,
    reason        text        NOT NULL,
    vp            integer,
    mp            integer,
    note          text        NOT NULL,
    author        text        NOT NULL,
    created_at    timestamptz NOT NULL,
    FOREIGN KEY (tournament_id, entrant_id) REFERENCES entrants (tournament_id, id) DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (tournament_id, round_no) REFERENCES rounds (tournament_id, number) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT adjustments_reason_check CHECK (reason IN ('warning', 'late_up_to_5', 'late_5_to_10', 'late_over_10', 'bye',
        'abandon_temporary', 'abandon_justified', 'abandon_unjustified', 'forced_removal', 'late_start', 'referee_score')),
    -- RULES §7 referee_score: "with a mandatory free-text reason".
    CONSTRAINT adjustments_note_check CHECK (reason <> 'referee_score' OR note <> ''),
    CONSTRAINT adjustments_author_check CHECK (author <> '')
);
CREATE INDEX adjustments_tournament_id_idx ON adjustments (tournament_id, id);

-- +goose Down
DROP TABLE adjustments;
DROP TABLE corrections;
DROP FUNCTION corrections_append_only();
DROP TABLE imports;
