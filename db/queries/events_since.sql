-- ?1 campaign id, ?2 row id: the campaign's events stored after that row, with their battle's number, in the order stored
SELECT e.id, b.number, e.seq, e.kind, e.payload, e.created_at, e.uid, e.follows, e.player,
       e.machine, e.revision, e.signer, e.signature
FROM battle_events e JOIN battles b ON b.id = e.battle_id
WHERE b.campaign_id = ?1 AND e.id > ?2
ORDER BY e.id
