-- ?1 campaign id (after its battles)
DELETE FROM campaigns WHERE id = ?1
