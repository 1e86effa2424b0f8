-- ?1 campaign id: its name and definition
SELECT name, body FROM campaigns WHERE id = ?1
