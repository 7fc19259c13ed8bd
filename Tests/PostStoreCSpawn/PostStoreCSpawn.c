// See include/PostStoreCSpawn.h.
#define _GNU_SOURCE
#include "PostStoreCSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int poststore_pipe_cloexec(int descriptors[2]) {
#if defined(__linux__)
    return pipe2(descriptors, O_CLOEXEC);
#else
    if (pipe(descriptors) != 0) {
        return -1;
    }
    for (int end = 0; end < 2; end++) {
        if (fcntl(descriptors[end], F_SETFD, FD_CLOEXEC) != 0) {
            int saved = errno;
            close(descriptors[0]);
            close(descriptors[1]);
            errno = saved;
            return -1;
        }
    }
    return 0;
#endif
}

int poststore_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int poststore_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return 0;
#endif
}
