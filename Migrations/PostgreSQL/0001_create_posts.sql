-- Posts of one store (the store is a schema; the migrator sets search_path to it).
-- Title and body are kept as their UTF-8 bytes: PostgreSQL text cannot hold NUL characters, which the contract
-- returns exactly as stored, and bytea compares byte by byte, which for UTF-8 is code-point order (the order every
-- engine sorts titles in). search_text is the Swift-lowercased title and body, NUL removed, for pg_trgm candidates
-- only: every candidate is checked exactly in Swift.
CREATE TABLE posts (
    id bigint PRIMARY KEY,
    user_id bigint NOT NULL,
    title bytea NOT NULL,
    body bytea NOT NULL,
    search_text text NOT NULL
);

CREATE INDEX posts_user_id ON posts (user_id, id);
