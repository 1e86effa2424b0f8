-- ?1 campaign id, ?2 genesis JSON: set once, when a campaign is stored with its genesis
UPDATE campaigns SET genesis = ?2 WHERE id = ?1 AND genesis IS NULL
