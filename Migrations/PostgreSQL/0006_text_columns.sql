-- Titles and bodies as text, so that psql, Grafana, Metabase or PostgREST pointed at the store read them, and can
-- ILIKE them. COLLATE "C" orders them by their UTF-8 bytes, which is code-point order: the order every engine sorts
-- titles in, whatever the database's collation. Text cannot hold a NUL character: a PostgreSQL store refuses a
-- post that holds one (the whole write, naming the post), and the migrator checks for such posts before this file
-- runs (PostgresMigrator+TextColumns.swift), so that a store holding one is left as it was, with one line naming them. The
-- sources and ETags of the sync states become text too. Each ALTER rewrites its table and rebuilds its indexes.
ALTER TABLE posts
    ALTER COLUMN title TYPE text COLLATE "C" USING convert_from(title, 'UTF8'),
    ALTER COLUMN body TYPE text COLLATE "C" USING convert_from(body, 'UTF8');

ALTER TABLE sync_state
    ALTER COLUMN source TYPE text COLLATE "C" USING convert_from(source, 'UTF8'),
    ALTER COLUMN etag TYPE text COLLATE "C" USING convert_from(etag, 'UTF8');
