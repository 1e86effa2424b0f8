-- ?1 ruleset, ?2 name, ?3 scenario, ?4 uid
INSERT INTO campaigns (ruleset, name, scenario, created_at, uid) VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?4)
