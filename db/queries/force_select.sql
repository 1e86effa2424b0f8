-- ?1 id; columns as read by store::forces::row_to_force
SELECT id, ruleset, name, budget_kind, budget_amount, budget_id, notes, budget_org
FROM forces
WHERE id = ?1
