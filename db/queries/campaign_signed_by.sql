-- ?1 campaign id, ?2 player, ?3 machine, ?4 key: whether an event of the campaign is signed with this key under these names (stops at the first: usually the first row of these names)
SELECT EXISTS (
    SELECT 1
    FROM battle_events e JOIN battles b ON b.id = e.battle_id
    WHERE e.player = ?2 AND e.machine = ?3 AND e.signer IS NOT NULL AND e.signer = ?4
      AND b.campaign_id = ?1
)
