-- ?1 force id; columns as read by store::forces::row_to_unit
SELECT force_id, position, card_name, inline_card, pinned_card, data_revision, count,
       group_name, points, stands
FROM force_units
WHERE force_id = ?1
ORDER BY position
