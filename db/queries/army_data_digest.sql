-- ?1 source_id, ?2 revision: the digest stored for that revision, if any
SELECT digest FROM army_data WHERE source_id = ?1 AND revision = ?2
