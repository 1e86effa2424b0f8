-- ?1 force_id, ?2 position, ?3 card_name, ?4 inline_card, ?5 pinned_card, ?6 data_revision,
-- ?7 count, ?8 group_name, ?9 points, ?10 stands
INSERT INTO force_units (force_id, position, card_name, inline_card, pinned_card, data_revision,
                         count, group_name, points, stands)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
