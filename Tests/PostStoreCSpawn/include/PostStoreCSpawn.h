// The calls ChildProcess (Tests/PostStoreTestSupport) needs that Swift cannot see on Linux: glibc declares pipe2,
// posix_spawn_file_actions_addchdir_np and posix_spawn_file_actions_addclosefrom_np only under _GNU_SOURCE, which
// Swift's Glibc module is built without. PostStoreCSpawn.c defines _GNU_SOURCE and forwards to them.
#ifndef POSTSTORE_C_SPAWN_H
#define POSTSTORE_C_SPAWN_H

#include <spawn.h>

/// Makes a pipe whose two ends are closed on exec, so no child spawned by another thread inherits them.
///
/// Linux: `pipe2(O_CLOEXEC)`, atomic. Darwin: `pipe`, then `FD_CLOEXEC` on each end (not atomic; a spawn there
/// also sets `POSIX_SPAWN_CLOEXEC_DEFAULT`, which covers the gap).
///
/// - Parameter descriptors: Receives the read end (0) and the write end (1).
/// - Returns: 0, or -1 with `errno` set.
int poststore_pipe_cloexec(int descriptors[2]);

/// Adds "change to `path`" to a spawn's file actions: `posix_spawn_file_actions_addchdir_np`.
///
/// - Parameters:
///   - actions: Initialised file actions.
///   - path: The child's working directory.
/// - Returns: 0, or an error number.
int poststore_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// Adds "close every descriptor from `lowest` up" to a spawn's file actions:
/// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), so the child keeps only what the earlier
/// actions set up, whatever the test runner left open without close-on-exec.
///
/// Elsewhere it adds nothing and returns 0 (on Darwin the spawn sets `POSIX_SPAWN_CLOEXEC_DEFAULT` instead).
///
/// - Parameters:
///   - actions: Initialised file actions.
///   - lowest: The first descriptor to close.
/// - Returns: 0, or an error number.
int poststore_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

#endif
