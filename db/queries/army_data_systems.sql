-- every stored game system's file name and XML, newest revision first
SELECT file_name, source FROM army_data
WHERE kind = 'game_system' AND source IS NOT NULL
ORDER BY revision DESC
