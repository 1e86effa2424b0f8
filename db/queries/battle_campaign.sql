-- ?1 battle id: its campaign's id, uid and ruleset, and its number
SELECT c.id, c.uid, c.ruleset, b.number
FROM battles b JOIN campaigns c ON c.id = b.campaign_id
WHERE b.id = ?1
