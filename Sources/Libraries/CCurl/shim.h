#ifndef KILN_CCURL_SHIM_H
#define KILN_CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper per argument kind.
static inline CURLcode ccurl_setopt_long(CURL *_Nonnull h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_string(CURL *_Nonnull h, CURLoption o, const char *_Nullable v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_pointer(CURL *_Nonnull h, CURLoption o, void *_Nullable v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_slist(CURL *_Nonnull h, CURLoption o, struct curl_slist *_Nullable v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_offset(CURL *_Nonnull h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }

typedef size_t (*ccurl_data_callback)(char *_Nonnull, size_t, size_t, void *_Nullable);
static inline CURLcode ccurl_setopt_data_callback(CURL *_Nonnull h, CURLoption o, ccurl_data_callback _Nullable v) { return curl_easy_setopt(h, o, v); }

static inline CURLcode ccurl_getinfo_long(CURL *_Nonnull h, CURLINFO i, long *_Nonnull v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_getinfo_pointer(CURL *_Nonnull h, CURLINFO i, void *_Nullable *_Nonnull v) { return curl_easy_getinfo(h, i, v); }

static inline CURLMcode ccurl_multi_setopt_long(CURLM *_Nonnull m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode ccurl_multi_setopt_pointer(CURLM *_Nonnull m, CURLMoption o, void *_Nullable v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode ccurl_multi_setopt_socket_function(CURLM *_Nonnull m, curl_socket_callback _Nullable f) {
    return curl_multi_setopt(m, CURLMOPT_SOCKETFUNCTION, f);
}
static inline CURLMcode ccurl_multi_setopt_timer_function(CURLM *_Nonnull m, curl_multi_timer_callback _Nullable f) {
    return curl_multi_setopt(m, CURLMOPT_TIMERFUNCTION, f);
}
// CURL_SOCKET_TIMEOUT is a macro of a macro, which Swift does not import.
static inline CURLMcode ccurl_multi_socket_timeout(CURLM *_Nonnull m, int *_Nonnull running) {
    return curl_multi_socket_action(m, CURL_SOCKET_TIMEOUT, 0, running);
}
#endif
