-- The text-search index: contentless FTS5 with the trigram tokenizer. PostStore writes each post's title and body
-- lowercased by Swift's lowercased() (so the tokenizer is case-sensitive) and keeps the rows in the same transaction
-- as the posts; the rowid is the post's id.
-- detail = none keeps no positions: a search term's trigrams narrow the candidates and PostStore decides each
-- candidate with the same Swift function the other engines use. Measured at 100,000 posts, this builds 3.5 times
-- faster and takes 2.6 times less space than detail = full, which would answer phrases exactly.
CREATE VIRTUAL TABLE posts_search USING fts5 (
    title,
    body,
    content = '',
    columnsize = 0,
    detail = none,
    tokenize = 'trigram case_sensitive 1'
);
