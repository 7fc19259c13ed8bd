/// What identifies one version of a file: its device, inode, size and modification time; and its permissions.
@_spi(FileSystem) public struct FileIdentity: Sendable, Hashable {
    /// The device the file is on.
    public var device: UInt64
    /// The file's inode; a rename over the file gives a new one.
    public var inode: UInt64
    /// The file's size in bytes.
    public var size: Int64
    /// The modification time, in nanoseconds since 1970.
    public var modificationNanoseconds: Int64
    /// The permission bits, for example `0o644`.
    public var permissions: UInt16

    /// Creates an identity.
    ///
    /// - Parameters:
    ///   - device: The device the file is on.
    ///   - inode: The file's inode.
    ///   - size: The file's size in bytes.
    ///   - modificationNanoseconds: The modification time, in nanoseconds since 1970.
    ///   - permissions: The permission bits.
    public init(device: UInt64, inode: UInt64, size: Int64, modificationNanoseconds: Int64, permissions: UInt16) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.permissions = permissions
    }
}
