-- ?1 campaign id, ?2 row id: its admissions stored after that row, in the order stored
SELECT id, body FROM campaign_admissions WHERE campaign_id = ?1 AND id > ?2 ORDER BY id
