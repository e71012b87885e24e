#ifndef KILN_CHIREDIS_SHIM_H
#define KILN_CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>
#include <sys/time.h>

/// The reply types of hiredis 0.14 (RESP2) as functions, so Swift sees them as Int32 like `redisReply.type`.
static inline int chiredis_reply_string(void) { return REDIS_REPLY_STRING; }
static inline int chiredis_reply_array(void) { return REDIS_REPLY_ARRAY; }
static inline int chiredis_reply_integer(void) { return REDIS_REPLY_INTEGER; }
static inline int chiredis_reply_nil(void) { return REDIS_REPLY_NIL; }
static inline int chiredis_reply_status(void) { return REDIS_REPLY_STATUS; }
static inline int chiredis_reply_error(void) { return REDIS_REPLY_ERROR; }
static inline int chiredis_ok(void) { return REDIS_OK; }

/// Connects with a timeout given in milliseconds.
static inline redisContext *_Nullable chiredis_connect(const char *_Nonnull host, int port, long timeout_ms) {
    struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
    return redisConnectWithTimeout(host, port, tv);
}

/// Sets the read/write timeout in milliseconds; 0 means block forever.
static inline int chiredis_set_timeout(redisContext *_Nonnull c, long timeout_ms) {
    struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
    return redisSetTimeout(c, tv);
}

/// `redisGetReply` with a typed out-parameter instead of `void **`.
static inline int chiredis_get_reply(redisContext *_Nonnull c, redisReply *_Nullable *_Nonnull reply) {
    return redisGetReply(c, (void **)reply);
}

static inline redisReply *_Nullable chiredis_command_argv(redisContext *_Nonnull c, int argc, const char *_Nonnull *_Nonnull argv, const size_t *_Nonnull argvlen) {
    return (redisReply *)redisCommandArgv(c, argc, argv, argvlen);
}
#endif
