-- The text-search index. Contentless FTS5 with the trigram tokenizer, case-sensitive: PostStore writes the
-- Unicode-lowercased title and body itself (Swift's lowercased()), so a trigram phrase match here is exactly
-- "the lowercased text contains the lowercased term" for terms of three or more characters.
-- The rowid is the post's id. Rows are kept by SQLitePostStore inside the same transaction as the posts.
CREATE VIRTUAL TABLE posts_search USING fts5 (
    title,
    body,
    content = '',
    columnsize = 0,
    tokenize = 'trigram case_sensitive 1'
);
