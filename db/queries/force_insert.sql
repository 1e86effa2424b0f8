-- ?1 ruleset, ?2 name, ?3 budget_kind, ?4 budget_amount, ?5 budget_id, ?6 notes, ?7 budget_org
INSERT INTO forces (ruleset, name, budget_kind, budget_amount, budget_id, notes, budget_org,
                    created_at, updated_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
