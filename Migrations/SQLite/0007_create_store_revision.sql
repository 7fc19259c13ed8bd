-- The store's metadata in one row, as the PostgreSQL engine keeps it: 'store_id' names this store among all others,
-- 'revision' counts the writes that changed posts, 'change_floor' is where the changes feed's history begins and
-- 'change_history_limit' how many writes back it reaches at least. They move here from poststore_settings, which
-- keeps only the search index's state.
CREATE TABLE store_revision (
    store_id             TEXT NOT NULL,
    revision             INTEGER NOT NULL,
    change_floor         INTEGER NOT NULL,
    change_history_limit INTEGER NOT NULL
) STRICT;

INSERT INTO store_revision (store_id, revision, change_floor, change_history_limit)
    SELECT
        (SELECT value FROM poststore_settings WHERE key = 'store_id'),
        (SELECT CAST(value AS INTEGER) FROM poststore_settings WHERE key = 'revision'),
        (SELECT CAST(value AS INTEGER) FROM poststore_settings WHERE key = 'change_floor'),
        (SELECT CAST(value AS INTEGER) FROM poststore_settings WHERE key = 'change_history_limit');

DELETE FROM poststore_settings WHERE key IN ('store_id', 'revision', 'change_floor', 'change_history_limit');
