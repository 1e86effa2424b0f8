-- what the database holds, for `db check`
SELECT (SELECT COUNT(*) FROM forces),
       (SELECT COUNT(*) FROM cards WHERE origin = 'book'),
       (SELECT COUNT(*) FROM cards WHERE origin = 'custom'),
       (SELECT COUNT(*) FROM campaigns),
       (SELECT COUNT(*) FROM battle_events)
