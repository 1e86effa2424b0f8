-- ?1 battle id, ?2 follows (NULL: the start): who signed each event other than branch choices that follows it (signer NULL: unsigned)
SELECT signer, player, machine FROM battle_events
WHERE battle_id = ?1 AND follows IS ?2 AND kind <> 'branch_chosen'
