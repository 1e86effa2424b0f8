-- ?1 campaign id: its name, definition and uid
SELECT name, body, uid FROM campaigns WHERE id = ?1
