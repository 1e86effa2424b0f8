-- ?1 campaign id (marked deleting): the list of its signers
DELETE FROM campaign_signers WHERE campaign_id = ?1
