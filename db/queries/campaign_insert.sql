-- ?1 ruleset, ?2 name, ?3 scenario
INSERT INTO campaigns (ruleset, name, scenario, created_at) VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
