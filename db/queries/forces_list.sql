-- one summary row per force: id, name, ruleset, units (counts summed), updated_at
SELECT f.id, f.name, f.ruleset, COALESCE(SUM(u.count), 0), f.updated_at
FROM forces AS f
LEFT JOIN force_units AS u ON u.force_id = f.id
GROUP BY f.id
ORDER BY f.name COLLATE NOCASE, f.id
