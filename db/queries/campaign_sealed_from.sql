-- ?1 uid: the campaign a sealed import of that campaign became, if any
SELECT id FROM campaigns WHERE json_extract(genesis, '$.sealed_from') = ?1
