#ifndef CSPAWNING_H
#define CSPAWNING_H

#include <spawn.h>

/// Adds "close every descriptor from `from` up" to `actions`: glibc's posix_spawn_file_actions_addclosefrom_np, which
/// its headers declare only for _GNU_SOURCE and so Swift's Glibc module does not show.
int cspawning_addclosefrom(posix_spawn_file_actions_t *_Nonnull actions, int from);

/// pipe2(ends, O_CLOEXEC): both ends close-on-exec from the start, so no child spawned at the same moment inherits them.
int cspawning_pipe_cloexec(int ends[_Nonnull 2]);

#endif
