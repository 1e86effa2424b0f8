-- ?1 campaign id: its genesis (NULL for a campaign begun before campaigns had one)
SELECT genesis FROM campaigns WHERE id = ?1
