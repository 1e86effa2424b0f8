-- ?1 id
SELECT id, origin, data_revision, body FROM cards WHERE id = ?1
