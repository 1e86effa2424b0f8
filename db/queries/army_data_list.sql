-- every stored file, newest revision of each first; columns as read by store::army_data::row_to_file
SELECT id, ruleset, kind, source_id, name, revision, digest, file_name, cards, force_orgs, notes,
       imported_at
FROM army_data
ORDER BY kind DESC, name COLLATE NOCASE, source_id, revision DESC
