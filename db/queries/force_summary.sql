-- one force's summary row: id, name, ruleset, units (counts summed), updated_at; ?1 force id
SELECT f.id, f.name, f.ruleset, COALESCE(SUM(u.count), 0), f.updated_at
FROM forces AS f
LEFT JOIN force_units AS u ON u.force_id = f.id
WHERE f.id = ?1
GROUP BY f.id
