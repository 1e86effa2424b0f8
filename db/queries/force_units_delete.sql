-- ?1 force id
DELETE FROM force_units WHERE force_id = ?1
