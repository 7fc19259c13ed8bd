-- Store-wide settings. 'search_index' = 'stale' marks posts_search as behind the posts table: a connection opened
-- without the search index wrote posts; the next connection that keeps the index rebuilds it before using it.
CREATE TABLE poststore_settings (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) STRICT;
