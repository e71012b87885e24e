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
#endif
