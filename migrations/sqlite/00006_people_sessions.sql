-- People who sign in to the web pages, and their sessions (UI.md §2).
-- The SQLite twin of migrations/postgres/00006_people_sessions.sql.

-- +goose Up
CREATE TABLE people (
    id            TEXT    NOT NULL PRIMARY KEY,
    name          TEXT    NOT NULL UNIQUE,
    role          TEXT    NOT NULL,
    club_id       TEXT    REFERENCES clubs (id) ON DELETE RESTRICT,
    password_hash TEXT    NOT NULL,
    disabled      INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT    NOT NULL,
    CONSTRAINT people_id_check CHECK (id <> ''),
    CONSTRAINT people_name_check CHECK (name <> ''),
    CONSTRAINT people_role_check CHECK (role IN ('club', 'referee', 'federation', 'admin')),
    CONSTRAINT people_club_check CHECK (role <> 'club' OR club_id IS NOT NULL),
    CONSTRAINT people_password_hash_check CHECK (password_hash <> ''),
    CONSTRAINT people_disabled_type_check CHECK (disabled IN (0, 1))
) STRICT;

CREATE TABLE sessions (
    id         TEXT NOT NULL PRIMARY KEY,
    hash       TEXT NOT NULL UNIQUE,
    person_id  TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    user_agent TEXT NOT NULL DEFAULT '',
    address    TEXT NOT NULL DEFAULT '',
    CONSTRAINT sessions_hash_check CHECK (length(hash) = 64)
) STRICT;
CREATE INDEX sessions_person_id_idx ON sessions (person_id);

CREATE TABLE setup_codes (
    hash       TEXT NOT NULL PRIMARY KEY,
    created_at TEXT NOT NULL,
    CONSTRAINT setup_codes_hash_check CHECK (length(hash) = 64)
) STRICT;

-- +goose Down
DROP TABLE setup_codes;
DROP TABLE sessions;
DROP TABLE people;
