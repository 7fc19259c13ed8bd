-- What the sync service remembers about each source it has pulled from.
CREATE TABLE sync_state (
    source       TEXT    PRIMARY KEY NOT NULL,
    etag         TEXT,
    synced_at_ms INTEGER NOT NULL,
    fetched      INTEGER NOT NULL DEFAULT 0,
    inserted     INTEGER NOT NULL DEFAULT 0,
    updated      INTEGER NOT NULL DEFAULT 0,
    unchanged    INTEGER NOT NULL DEFAULT 0,
    deleted      INTEGER NOT NULL DEFAULT 0
) STRICT;
