-- ?1 battle id: its events, in the order they were stored
SELECT id, battle_id, seq, kind, payload, created_at, uid, follows, player, machine,
       revision, signer, signature
FROM battle_events
WHERE battle_id = ?1
ORDER BY id
