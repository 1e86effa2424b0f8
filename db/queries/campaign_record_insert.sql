-- ?1 ruleset, ?2 name, ?3 scenario, ?4 body (the campaign definition as JSON), ?5 uid
INSERT INTO campaigns (ruleset, name, scenario, body, created_at, uid)
VALUES (?1, ?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?5)
