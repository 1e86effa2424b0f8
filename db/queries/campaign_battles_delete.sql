-- ?1 campaign id: its battles (after their events)
DELETE FROM battles WHERE campaign_id = ?1
