-- ?1 origin ('book' or 'custom'): how many cards there are
SELECT COUNT(*) FROM cards WHERE origin = ?1
