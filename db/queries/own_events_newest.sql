-- ?1 campaign id, ?2 signer: the campaign's events signed with that key, newest recording time first
SELECT e.created_at, e.uid
FROM battle_events e JOIN battles b ON b.id = e.battle_id
WHERE b.campaign_id = ?1 AND e.signer = ?2
ORDER BY e.created_at DESC, e.uid DESC
