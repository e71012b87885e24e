#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include "cspawning.h"

int cspawning_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int cspawning_pipe_cloexec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}
