-- ?1 campaign id: all its events, with their battle's number, in the order stored (the battles first: only this campaign's rows are read)
SELECT e.id, b.number, e.seq, e.kind, e.payload, e.created_at, e.uid, e.follows, e.player,
       e.machine, e.revision, e.signer, e.signature
FROM battle_events e JOIN battles b ON b.id = e.battle_id
WHERE b.campaign_id = ?1
ORDER BY e.id
