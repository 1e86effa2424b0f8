-- ?1 uid: the campaign with this id
SELECT id FROM campaigns WHERE uid = ?1
