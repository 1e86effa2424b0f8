-- Schema version 1: cards, forces with their unit lines, campaigns, battles and the
-- append-only battle event log. Applied by src/store/migrate.rs inside one transaction,
-- which also sets PRAGMA user_version and application_id.

-- Every card the app knows: the books' (origin 'book', refreshed from the app's embedded data
-- whenever its data revision is newer) and the player's own (origin 'custom').
-- `body` is the card as JSON, tagged with its ruleset (rules::Card).
CREATE TABLE cards (
    id            INTEGER PRIMARY KEY,
    ruleset       TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    origin        TEXT    NOT NULL CHECK (origin IN ('book', 'custom')),
    -- The book data revision the card came from (a custom card duplicated from a book card
    -- keeps the revision it was copied at; a card written from scratch has none).
    data_revision INTEGER,
    body          TEXT    NOT NULL CHECK (json_valid(body)),
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL
);
CREATE UNIQUE INDEX cards_book_name ON cards (ruleset, name) WHERE origin = 'book';
CREATE INDEX cards_by_origin ON cards (origin, ruleset, name COLLATE NOCASE);

-- A force: ruleset, unique name (ASCII case-insensitive), budget and notes.
-- The budget is one of points / tier_points (an amount) or battle_group / scenario (an id).
CREATE TABLE forces (
    id            INTEGER PRIMARY KEY,
    ruleset       TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    budget_kind   TEXT    NOT NULL
                  CHECK (budget_kind IN ('points', 'tier_points', 'battle_group', 'scenario')),
    budget_amount INTEGER CHECK (budget_amount BETWEEN 0 AND 4294967295),
    budget_id     TEXT,
    notes         TEXT    NOT NULL DEFAULT '',
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    CHECK ((budget_kind IN ('points', 'tier_points'))
           = (budget_amount IS NOT NULL AND budget_id IS NULL))
);
CREATE UNIQUE INDEX forces_by_name ON forces (name COLLATE NOCASE);

-- The unit lines of a force, in order. A line names a library card (`inline_card` NULL) or
-- carries its own card (`inline_card`, tagged JSON). `pinned_card` is the library card as it
-- was when the force was saved, with the book `data_revision` it came from, so a later change
-- to the book data is reported instead of silently changing (or dropping) the unit.
CREATE TABLE force_units (
    force_id      INTEGER NOT NULL REFERENCES forces (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL CHECK (position >= 0),
    card_name     TEXT    NOT NULL,
    inline_card   TEXT    CHECK (inline_card IS NULL OR json_valid(inline_card)),
    pinned_card   TEXT    CHECK (pinned_card IS NULL OR json_valid(pinned_card)),
    data_revision INTEGER,
    count         INTEGER NOT NULL CHECK (count >= 1),
    group_name    TEXT,
    points        INTEGER CHECK (points BETWEEN 0 AND 4294967295),
    stands        INTEGER CHECK (stands BETWEEN 0 AND 4294967295),
    PRIMARY KEY (force_id, position)
) WITHOUT ROWID;

-- Campaigns and their battles (filled by the campaign engine).
CREATE TABLE campaigns (
    id         INTEGER PRIMARY KEY,
    ruleset    TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    scenario   TEXT    NOT NULL DEFAULT '',
    notes      TEXT    NOT NULL DEFAULT '',
    created_at TEXT    NOT NULL
);

CREATE TABLE battles (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    number      INTEGER NOT NULL CHECK (number >= 1),
    title       TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (campaign_id, number)
);

-- What happened in a battle, in order. Append-only: a correction or an undo is a new event.
CREATE TABLE battle_events (
    id         INTEGER PRIMARY KEY,
    battle_id  INTEGER NOT NULL REFERENCES battles (id),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    kind       TEXT    NOT NULL,
    payload    TEXT    NOT NULL CHECK (json_valid(payload)),
    created_at TEXT    NOT NULL,
    UNIQUE (battle_id, seq)
);

CREATE TRIGGER battle_events_no_update BEFORE UPDATE ON battle_events
BEGIN
    SELECT RAISE(ABORT, 'battle events are append-only: record a new event instead');
END;

CREATE TRIGGER battle_events_no_delete BEFORE DELETE ON battle_events
BEGIN
    SELECT RAISE(ABORT, 'battle events are append-only: record a new event instead');
END;
