/// An exclusive advisory lock held on a file, from ``FileSystemProtocol/tryLockExclusively(onFile:)``.
///
/// Released by ``unlock()``, or when the lock is deallocated.
@_spi(FileSystem) public protocol FileLock: AnyObject {
    /// Releases the lock; releasing it twice does nothing.
    func unlock()
}
