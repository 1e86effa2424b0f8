-- ?1 battle id, ?2 follows (NULL: the start): how many events other than branch choices follow it
SELECT COUNT(*) FROM battle_events
WHERE battle_id = ?1 AND follows IS ?2 AND kind <> 'branch_chosen'
