-- Every card's id (book and custom), for checking each one decodes
SELECT id FROM cards ORDER BY id
