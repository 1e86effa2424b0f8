-- ?1 campaign id: its battle rows in order
SELECT id, number FROM battles WHERE campaign_id = ?1 ORDER BY number
