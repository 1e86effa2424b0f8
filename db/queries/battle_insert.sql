-- ?1 campaign id, ?2 number, ?3 title
INSERT INTO battles (campaign_id, number, title, created_at) VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
