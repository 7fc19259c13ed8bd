-- The revision of the store's posts, one row: store_id names this store among all others (random), revision counts
-- the writes that changed posts. Together they let a server answer a conditional request without reading a post.
CREATE TABLE store_revision (
    store_id text NOT NULL,
    revision bigint NOT NULL
);

INSERT INTO store_revision (store_id, revision) VALUES (substr(md5(random()::text || clock_timestamp()::text), 1, 16), 0);
