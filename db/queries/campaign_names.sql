-- Every campaign's id and name, for comparing names the way people read them (rules::names::fold)
SELECT id, name FROM campaigns
