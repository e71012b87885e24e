import Foundation

/// The keys of one page of a ListObjectsV2 answer, `<ListBucketResult>…<Contents><Key>…</Key>…</Contents>…`, and
/// the token of the next page when it is truncated.
///
/// A scan, as for ``S3ErrorDocument``: `Key` and `NextContinuationToken` never nest or carry attributes.
struct S3ListDocument: Equatable {
    var keys: [String]
    /// Where the next page starts; nil on the last page.
    var nextContinuationToken: String?

    init(parsing body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        var keys: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "<Key>"), let close = rest.range(of: "</Key>", range: open.upperBound..<rest.endIndex) {
            keys.append(S3ErrorDocument.unescape(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        self.keys = keys
        let truncated = S3ErrorDocument.element("IsTruncated", in: text) == "true"
        self.nextContinuationToken = truncated ? S3ErrorDocument.element("NextContinuationToken", in: text) : nil
    }
}
