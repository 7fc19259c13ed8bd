-- A PostgreSQL store made by PostStore 0.1.0 (commit 62731ff): `poststore sync` of a few posts into the schema
-- poststore_release_0_1_0_nul, then pg_dump -n poststore_release_0_1_0_nul --inserts --no-owner --no-privileges, its psql commands and blank lines left out.
-- Each statement ends with a semicolon at the end of a line, as the migrator splits its files.
SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;
CREATE SCHEMA poststore_release_0_1_0_nul;
SET default_tablespace = '';
SET default_table_access_method = heap;
CREATE TABLE poststore_release_0_1_0_nul.posts (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    title bytea NOT NULL,
    body bytea NOT NULL,
    search_text text NOT NULL
);
CREATE TABLE poststore_release_0_1_0_nul.poststore_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);
CREATE TABLE poststore_release_0_1_0_nul.store_revision (
    store_id text NOT NULL,
    revision bigint NOT NULL
);
CREATE TABLE poststore_release_0_1_0_nul.sync_state (
    source bytea NOT NULL,
    synced_at_ms bigint NOT NULL,
    etag bytea,
    fetched bigint NOT NULL,
    inserted bigint NOT NULL,
    updated bigint NOT NULL,
    unchanged bigint NOT NULL,
    deleted bigint NOT NULL
);
INSERT INTO poststore_release_0_1_0_nul.posts VALUES (1, 1, '\x636c65616e', '\x78', 'clean
x');
INSERT INTO poststore_release_0_1_0_nul.posts VALUES (2, 1, '\x6e756c00696e73696465', '\x79', 'nulinside
y');
INSERT INTO poststore_release_0_1_0_nul.posts VALUES (3, 1, '\x7a', '\x00', 'z
');
INSERT INTO poststore_release_0_1_0_nul.poststore_migrations VALUES (1, '0001_create_posts.sql', 'dd046a08a6e6d5bd', '2026-11-29 03:44:55.631635+00');
INSERT INTO poststore_release_0_1_0_nul.poststore_migrations VALUES (2, '0002_add_pg_trgm.sql', 'ff1c577438188417', '2026-11-29 03:44:55.631635+00');
INSERT INTO poststore_release_0_1_0_nul.poststore_migrations VALUES (3, '0003_create_sync_state.sql', 'a7aec08c5cbd3788', '2026-11-29 03:44:55.631635+00');
INSERT INTO poststore_release_0_1_0_nul.poststore_migrations VALUES (4, '0004_create_store_revision.sql', '5a3496ccc5d21b24', '2026-11-29 03:44:55.631635+00');
INSERT INTO poststore_release_0_1_0_nul.store_revision VALUES ('66358e2971247596', 1);
INSERT INTO poststore_release_0_1_0_nul.sync_state VALUES ('\x2f746d702f666978747572652d3031302d6e756c2e6a736f6e', 1795923895680, NULL, 3, 3, 0, 0, 0);
ALTER TABLE ONLY poststore_release_0_1_0_nul.posts
    ADD CONSTRAINT posts_pkey PRIMARY KEY (id);
ALTER TABLE ONLY poststore_release_0_1_0_nul.poststore_migrations
    ADD CONSTRAINT poststore_migrations_pkey PRIMARY KEY (version);
ALTER TABLE ONLY poststore_release_0_1_0_nul.sync_state
    ADD CONSTRAINT sync_state_pkey PRIMARY KEY (source);
CREATE INDEX posts_search_text ON poststore_release_0_1_0_nul.posts USING gin (search_text public.gin_trgm_ops);
CREATE INDEX posts_user_id ON poststore_release_0_1_0_nul.posts USING btree (user_id, id);
