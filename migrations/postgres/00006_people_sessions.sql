-- People who sign in to the web pages, and their sessions (UI.md §2).
-- migrations/sqlite/00006_people_sessions.sql is the SQLite twin.
-- A person's name is the name the API uses for them (API §4): a referee
-- person named anna.rossi is the referee PUT .../referees/anna.rossi assigns.

-- +goose Up
CREATE TABLE people (
    id            text        NOT NULL PRIMARY KEY,
    name          text        NOT NULL UNIQUE,
    role          text        NOT NULL,
    club_id       text        REFERENCES clubs (id) ON DELETE RESTRICT,
    -- a slow salted hash (bcrypt); never the password itself
    password_hash text        NOT NULL,
    disabled      boolean     NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL,
    CONSTRAINT people_id_check CHECK (id <> ''),
    CONSTRAINT people_name_check CHECK (name <> ''),
    CONSTRAINT people_role_check CHECK (role IN ('club', 'referee', 'federation', 'admin')),
    -- API §4: a club person acts for one club, so it must name one.
    CONSTRAINT people_club_check CHECK (role <> 'club' OR club_id IS NOT NULL),
    CONSTRAINT people_password_hash_check CHECK (password_hash <> '')
);

-- Only the SHA-256 of a session token is stored.
CREATE TABLE sessions (
    id         text        NOT NULL PRIMARY KEY,
    hash       text        NOT NULL UNIQUE,
    person_id  text        NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    user_agent text        NOT NULL DEFAULT '',
    address    text        NOT NULL DEFAULT '',
    CONSTRAINT sessions_hash_check CHECK (length(hash) = 64)
);
CREATE INDEX sessions_person_id_idx ON sessions (person_id);

-- The one-time first-run code (UI.md §2): at most one row; deleted when the
-- first admin is created.
CREATE TABLE setup_codes (
    hash       text        NOT NULL PRIMARY KEY,
    created_at timestamptz NOT NULL,
    CONSTRAINT setup_codes_hash_check CHECK (length(hash) = 64)
);

-- +goose Down
DROP TABLE setup_codes;
DROP TABLE sessions;
DROP TABLE people;
