-- every force; columns as read by store::forces::row_to_force
SELECT id, ruleset, name, budget_kind, budget_amount, budget_id, notes, budget_org
FROM forces
ORDER BY name COLLATE NOCASE, id
