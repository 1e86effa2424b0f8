-- Schema version 6: army data the player imports (issue 38).
--
-- Each BattleScribe game system or catalogue a player imports is one row per revision: its
-- name, revision and digest, the cards and force organisations the app read from it, and the
-- notes on what it could not use. Older revisions are kept: forces and campaigns priced with
-- one keep it until their player re-prices them. A game system keeps its XML (`source`) so a
-- later catalogue can be read against it without the player giving it again.

CREATE TABLE army_data (
    id          INTEGER PRIMARY KEY,
    ruleset     TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('game_system', 'catalogue')),
    -- BattleScribe's id of the system or catalogue: the same in every revision.
    source_id   TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    revision    INTEGER NOT NULL CHECK (revision >= 0),
    -- SHA-256 of the file as read (unzipped), hex.
    digest      TEXT    NOT NULL CHECK (length(digest) = 64),
    file_name   TEXT    NOT NULL,
    -- A catalogue's game system id.
    game_system TEXT,
    source      TEXT,
    cards       TEXT    NOT NULL CHECK (json_valid(cards)),
    force_orgs  TEXT    NOT NULL CHECK (json_valid(force_orgs)),
    notes       TEXT    NOT NULL CHECK (json_valid(notes)),
    imported_at TEXT    NOT NULL,
    UNIQUE (source_id, revision)
);

-- A force built against a force organisation from army data (Bolt Action's Reinforced
-- Platoon): its points limit stays in `budget_amount` with kind 'points', and the organisation
-- (its categories and limits, and the revision they came from) is kept here whole, so the
-- force checks the same however the data changes later.
ALTER TABLE forces ADD COLUMN budget_org TEXT CHECK (budget_org IS NULL OR json_valid(budget_org));
