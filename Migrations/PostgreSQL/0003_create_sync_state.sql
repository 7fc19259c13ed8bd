-- One sync state per source; source and ETag kept as bytes, compared byte for byte as every engine compares them.
CREATE TABLE sync_state (
    source bytea PRIMARY KEY,
    synced_at_ms bigint NOT NULL,
    etag bytea,
    fetched bigint NOT NULL,
    inserted bigint NOT NULL,
    updated bigint NOT NULL,
    unchanged bigint NOT NULL,
    deleted bigint NOT NULL
);
