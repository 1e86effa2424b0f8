-- The rows whose JSON columns are not valid JSON, breaking their CHECK constraints: a read-only
-- integrity_check (what `db check` runs) does not evaluate CHECK constraints, while the first
-- write's check does, so `db check` looks for these itself.
SELECT 'cards row ' || id, 'body' FROM cards WHERE NOT json_valid(body)
UNION ALL
SELECT 'force ' || force_id || ' line ' || position, 'inline_card' FROM force_units
WHERE inline_card IS NOT NULL AND NOT json_valid(inline_card)
UNION ALL
SELECT 'force ' || force_id || ' line ' || position, 'pinned_card' FROM force_units
WHERE pinned_card IS NOT NULL AND NOT json_valid(pinned_card)
UNION ALL
SELECT 'campaigns row ' || id, 'body' FROM campaigns WHERE body IS NOT NULL AND NOT json_valid(body)
UNION ALL
SELECT 'battle_events row ' || id, 'payload' FROM battle_events WHERE NOT json_valid(payload)
LIMIT 20
