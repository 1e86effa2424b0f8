-- ?1 battle id, ?2 uid: how many notes the line up to and including that event holds (walked up through `follows`)
WITH RECURSIVE line(uid, follows, kind) AS (
    SELECT uid, follows, kind FROM battle_events WHERE battle_id = ?1 AND uid = ?2
    UNION ALL
    SELECT e.uid, e.follows, e.kind FROM battle_events e JOIN line l ON e.uid = l.follows
    WHERE e.battle_id = ?1
)
SELECT count(*) FROM line WHERE kind = 'note'
