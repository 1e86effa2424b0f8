-- ?1 campaign id, ?2 row id: the campaign's events stored after that row, with their battle's number, in the order stored.
-- CROSS JOIN keeps the rows after ?2 the outer loop (a range of the primary key), so the cost is
-- the rows stored since, not the campaign's whole history.
SELECT e.id, b.number, e.seq, e.kind, e.payload, e.created_at, e.uid, e.follows, e.player,
       e.machine, e.revision, e.signer, e.signature
FROM battle_events e CROSS JOIN battles b ON b.id = e.battle_id
WHERE e.id > ?2 AND b.campaign_id = ?1
ORDER BY e.id
