#ifndef KILN_CHIREDIS_SHIM_H
#define KILN_CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>

/// The reply types of hiredis 0.14 (RESP2) as functions, so Swift sees them as Int32 like `redisReply.type`.
static inline int chiredis_reply_string(void) { return REDIS_REPLY_STRING; }
static inline int chiredis_reply_array(void) { return REDIS_REPLY_ARRAY; }
static inline int chiredis_reply_integer(void) { return REDIS_REPLY_INTEGER; }
static inline int chiredis_reply_nil(void) { return REDIS_REPLY_NIL; }
static inline int chiredis_reply_status(void) { return REDIS_REPLY_STATUS; }
static inline int chiredis_reply_error(void) { return REDIS_REPLY_ERROR; }
static inline int chiredis_ok(void) { return REDIS_OK; }

/// `redisReaderGetReply` with a typed out-parameter instead of `void **`.
static inline int chiredis_reader_get_reply(redisReader *_Nonnull r, redisReply *_Nullable *_Nonnull reply) {
    return redisReaderGetReply(r, (void **)reply);
}
#endif
