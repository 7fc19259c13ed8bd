-- The trigram index on the lowercased text (pg_trgm, from postgresql-contrib, created in the public schema).
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE INDEX posts_search_text ON posts USING gin (search_text public.gin_trgm_ops);
