-- ?1 battle id
SELECT EXISTS (SELECT 1 FROM battles WHERE id = ?1)
