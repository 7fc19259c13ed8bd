-- The revision of the store's posts: 'store_id' names this store among all others (random), 'revision' counts the
-- writes that changed posts. Together they let a server answer a conditional request without reading a post.
INSERT INTO poststore_settings (key, value) VALUES
    ('store_id', lower(hex(randomblob(8)))),
    ('revision', '0');
