-- ?1 campaign id (marked deleting): its admissions and the list of its signers
DELETE FROM campaign_admissions WHERE campaign_id = ?1
