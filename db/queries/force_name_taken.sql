-- ?1 name, ?2 id being saved (NULL for a new force): another force already using the name
SELECT name FROM forces WHERE name = ?1 COLLATE NOCASE AND id IS NOT ?2
