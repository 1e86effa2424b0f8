-- ?1 uid: the event with this id, if stored (as events_select.sql reads a row)
SELECT id, battle_id, seq, kind, payload, created_at, uid, follows, player, machine,
       revision, signer, signature
FROM battle_events
WHERE uid = ?1
