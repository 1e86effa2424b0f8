-- ?1 battle id, ?2 uid, ?3 follows, ?4 seq, ?5 kind, ?6 payload JSON, ?7 recorded time, ?8 player, ?9 machine, ?10 revision, ?11 signer, ?12 signature: an event stored as it is (recorded here, or from a file or another machine), with its id, place, time, recorder, revision and seal
INSERT INTO battle_events (battle_id, uid, follows, seq, kind, payload, created_at, player, machine,
                           revision, signer, signature)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
