internal import CCurl

/// A libcurl easy handle, confined to the loop thread and reset for reuse between transfers.
final class EasyHandle {
    /// The `CURL *`.
    let raw: UnsafeMutableRawPointer
    /// `CURLOPT_ERRORBUFFER`: libcurl writes the detailed reason for a failure here.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init() throws(HTTPClientError) {
        guard let raw = curl_easy_init() else {
            throw HTTPClientError(kind: .transport, message: "curl_easy_init failed")
        }
        self.raw = raw
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        self.errorBuffer.initialize(to: 0)
    }

    deinit {
        curl_easy_cleanup(self.raw)
        self.errorBuffer.deallocate()
    }

    /// Sets every option `transfer` needs on a fresh or reset handle.
    func configure(for transfer: Transfer, connectTimeoutMilliseconds: Int) throws(HTTPClientError) {
        let request = transfer.request
        // Safe: the loop keeps `transfer` alive in its table of active transfers until after
        // curl_multi_remove_handle, and libcurl calls these callbacks only while the handle is in the multi.
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        self.errorBuffer[0] = 0
        try self.check(ccurl_setopt_pointer(self.raw, CURLOPT_ERRORBUFFER, self.errorBuffer))
        try self.check(ccurl_setopt_long(self.raw, CURLOPT_NOSIGNAL, 1))
        try self.check(ccurl_setopt_string(self.raw, CURLOPT_PROTOCOLS_STR, "http,https"))
        try self.check(ccurl_setopt_string(self.raw, CURLOPT_URL, request.url))
        try self.check(ccurl_setopt_long(self.raw, CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMilliseconds))
        try self.check(ccurl_setopt_long(self.raw, CURLOPT_TIMEOUT_MS, transfer.timeoutMilliseconds))
        try self.check(ccurl_setopt_long(self.raw, CURLOPT_TCP_KEEPALIVE, 1))
        try self.check(ccurl_setopt_slist(self.raw, CURLOPT_HTTPHEADER, transfer.headerList))
        try self.check(ccurl_setopt_pointer(self.raw, CURLOPT_HEADERDATA, context))
        try self.check(
            ccurl_setopt_data_callback(self.raw, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
                return size * count
            }
        )
        try self.check(ccurl_setopt_pointer(self.raw, CURLOPT_WRITEDATA, context))
        try self.check(
            ccurl_setopt_data_callback(self.raw, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                // Any count other than the one given makes libcurl abort with CURLE_WRITE_ERROR.
                return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
            }
        )
        try self.configureMethod(request)
        if let signature = request.awsSigV4 {
            try self.configureSignature(signature)
        }
    }

    /// libcurl signs the request as it sends it. Both strings are copied by libcurl, which forgets them on reset.
    private func configureSignature(_ signature: AWSSignature) throws(HTTPClientError) {
        guard !signature.accessKey.utf8.contains(UInt8(ascii: ":")) else {
            throw HTTPClientError(kind: .invalidRequest, message: "the AWS access key contains a colon")
        }
        try self.check(ccurl_setopt_string(self.raw, CURLOPT_AWS_SIGV4, signature.curlOption))
        try self.check(ccurl_setopt_string(self.raw, CURLOPT_USERPWD, signature.curlCredentials))
    }

    /// GET is the default after a reset; HEAD must not wait for a body; any body is copied into libcurl
    /// with an explicit length, so NUL bytes survive and the caller's array need not outlive the call.
    private func configureMethod(_ request: HTTPRequest) throws(HTTPClientError) {
        if request.method == "HEAD" {
            try self.check(ccurl_setopt_long(self.raw, CURLOPT_NOBODY, 1))
            return
        }
        let body = request.body ?? (request.method == "POST" ? [] : nil)
        if let body {
            try self.check(ccurl_setopt_offset(self.raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            if body.isEmpty {
                try self.check(ccurl_setopt_string(self.raw, CURLOPT_COPYPOSTFIELDS, ""))
            } else {
                // Safe: COPYPOSTFIELDS copies `body.count` bytes before returning and never writes through the pointer.
                try self.check(
                    body.withUnsafeBytes { ccurl_setopt_pointer(self.raw, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress)) }
                )
            }
        }
        // Post fields make libcurl send POST, and no body means GET; anything else is named explicitly.
        if request.method != (body == nil ? "GET" : "POST") {
            try self.check(ccurl_setopt_string(self.raw, CURLOPT_CUSTOMREQUEST, request.method))
        }
    }

    /// The reason for a failed transfer, read before the handle is reset.
    func error(for code: CURLcode) -> HTTPClientError {
        let detail = String(cString: self.errorBuffer)
        return .curl(code, message: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
    }

    /// Clears every option, so the handle keeps no pointer into a finished transfer.
    func reset() {
        curl_easy_reset(self.raw)
    }

    private func check(_ code: CURLcode) throws(HTTPClientError) {
        guard code == CURLE_OK else { throw .curl(code, message: String(cString: curl_easy_strerror(code))) }
    }
}
