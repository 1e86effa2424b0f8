-- ?1 campaign id, ?2 body: the definition after a battle was added
UPDATE campaigns SET body = ?2 WHERE id = ?1
