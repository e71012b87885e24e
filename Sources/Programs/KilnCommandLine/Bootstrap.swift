import BuildInfo
import Foundation
public import Logging
import Metrics
import Prometheus

/// Process-wide logging and metrics, set up once by the long-running commands.
public enum Bootstrap {
    /// Logs to standard error at `LOG_LEVEL` (default info).
    public static func logger(_ label: String) -> Logger {
        let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = DeferredMetadataLogHandler(.standardError(label: label, metadataProvider: nil))
            handler.logLevel = level
            return handler
        }
        return Logger(label: label)
    }

    /// Bootstraps the Prometheus backend and returns what renders its text exposition, which starts with
    /// `kiln_build_info{version,commit} 1`: which Kiln each scraped process runs, as a roll shows them side by side.
    public static func metrics() -> @Sendable () -> String {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        Gauge(label: "kiln_build_info", dimensions: [("version", KilnBuild.version), ("commit", KilnBuild.commit)]).record(1)
        return {
            var buffer: [UInt8] = []
            registry.emit(into: &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
    }

    /// Raises the process's limit of open descriptors to the most it may have (its hard limit, which systemd's
    /// `LimitNOFILE` and the container's `ulimit` set): every event stream a node serves is a socket.
    /// - Returns: the limit now.
    @discardableResult
    public static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(clamping: limit.rlim_cur)
    }
}
