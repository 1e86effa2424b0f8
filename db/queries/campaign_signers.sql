-- ?1 campaign id: every (key, player, machine) that signed one of its events
SELECT signer, player, machine FROM campaign_signers WHERE campaign_id = ?1
