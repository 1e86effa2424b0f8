-- ?1 campaign id, ?2 a row id of its events known before (0: none): the row id of its newest event, 0 when none.
-- Events are only appended, so while row ?2 is still the campaign's, every newer event of it has
-- a larger row id: only the rows after ?2 are read (a range of the primary key, led by CROSS
-- JOIN), not the campaign's whole history.
SELECT CASE
    WHEN EXISTS (SELECT 1 FROM battle_events e JOIN battles b ON b.id = e.battle_id
                 WHERE e.id = ?2 AND b.campaign_id = ?1)
    THEN (SELECT COALESCE(MAX(e.id), ?2)
          FROM battle_events e CROSS JOIN battles b ON b.id = e.battle_id
          WHERE e.id > ?2 AND b.campaign_id = ?1)
    ELSE (SELECT COALESCE(MAX(e.id), 0)
          FROM battle_events e JOIN battles b ON b.id = e.battle_id
          WHERE b.campaign_id = ?1)
END
