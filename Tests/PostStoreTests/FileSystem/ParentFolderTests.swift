import PostStore
import Testing

/// Paths cut by hand (Foundation's `deletingLastPathComponent` crashes on a one-character relative path on Linux).
@Suite struct ParentFolderTests {
    @Test(arguments: [
        ("x", ""), ("posts.sqlite", ""), ("é", ""), ("a/b", "a"), ("a/b/", "a"), ("a/b/c.json", "a/b"),
        ("/x", "/"), ("/", "/"), ("//", "/"), ("./x", "."), ("../x", ".."), ("a//b", "a/"), (".", ""), ("..", ""),
        ("x/", ""), ("a b/c d", "a b"),
        // A combining mark after a slash makes one `Character` of the two; the slash is still a byte of its own.
        ("a/\u{301}b", "a"), ("/\u{301}x", "/"), ("x/\u{301}/", "x"), ("a/b/\u{301}c/", "a/b"),
    ])
    func theFolderIsWhatComesBeforeTheLastSlash(path: String, folder: String) {
        #expect(path.parentFolderPath.utf8.elementsEqual(folder.utf8), "\(path.parentFolderPath.debugDescription)")
    }

    @Test(arguments: [("link", "t"), ("d/link", "d/t"), ("/link", "/t"), ("/d/link", "/d/t")])
    func aSiblingIsInTheSameFolder(path: String, sibling: String) {
        #expect(path.siblingPath("t") == sibling)
    }
}
