import Testing

@testable import PostStore

/// Paths cut by hand (Foundation's `deletingLastPathComponent` crashes on a one-character relative path on Linux).
@Suite struct ParentFolderTests {
    @Test(arguments: [
        ("x", ""), ("posts.sqlite", ""), ("é", ""), ("a/b", "a"), ("a/b/", "a"), ("a/b/c.json", "a/b"),
        ("/x", "/"), ("/", "/"), ("//", "/"), ("./x", "."), ("../x", ".."), ("a//b", "a/"), (".", ""), ("..", ""),
        ("x/", ""), ("a b/c d", "a b"),
    ])
    func theFolderIsWhatComesBeforeTheLastSlash(path: String, folder: String) {
        #expect(path.parentFolderPath == folder)
    }

    @Test(arguments: [("link", "t"), ("d/link", "d/t"), ("/link", "/t"), ("/d/link", "/d/t")])
    func aSiblingIsInTheSameFolder(path: String, sibling: String) {
        #expect(path.siblingPath("t") == sibling)
    }
}
