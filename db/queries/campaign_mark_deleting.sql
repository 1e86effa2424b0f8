-- ?1 campaign id: lets its events be removed inside this transaction only
UPDATE campaigns SET deleting = 1 WHERE id = ?1
