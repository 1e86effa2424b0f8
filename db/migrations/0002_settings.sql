-- Schema version 2: app settings as key/value text, and an index to find the forces that use
-- a card (for "this card changed: which forces are affected?").

CREATE TABLE settings (
    key   TEXT NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE INDEX force_units_by_card ON force_units (card_name COLLATE NOCASE);
