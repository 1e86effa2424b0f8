-- ?1 campaign id, ?2 uid, ?3 body JSON: an admission as it came (INSERT OR IGNORE: two syncs of one library at once store it once)
INSERT OR IGNORE INTO campaign_admissions (campaign_id, uid, body) VALUES (?1, ?2, ?3)
