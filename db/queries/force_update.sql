-- ?1 id, ?2 ruleset, ?3 name, ?4 budget_kind, ?5 budget_amount, ?6 budget_id, ?7 notes,
-- ?8 budget_org
UPDATE forces
SET ruleset = ?2, name = ?3, budget_kind = ?4, budget_amount = ?5, budget_id = ?6,
    notes = ?7, budget_org = ?8, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE id = ?1
