-- ?1 campaign id: its name and uid, without its definition (a long campaign's is megabytes)
SELECT name, uid FROM campaigns WHERE id = ?1
