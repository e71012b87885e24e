import KilnCore
import KilnQueue

/// The queue's gauges in Prometheus text format, read from Redis when `/metrics` is scraped, so they are the same
/// whichever API node answers.
enum QueueMetrics {
    static func text(_ stats: QueueStats) -> String {
        var lines = [
            "# HELP kiln_queue_ready Jobs ready to be claimed.",
            "# TYPE kiln_queue_ready gauge",
        ]
        for depth in stats.ready {
            lines.append("kiln_queue_ready{\(labels(depth))} \(depth.count)")
        }
        lines += [
            "# HELP kiln_queue_oldest_wait_seconds How long the oldest ready job has waited.",
            "# TYPE kiln_queue_oldest_wait_seconds gauge",
        ]
        for depth in stats.ready {
            if let wait = depth.oldestWaitMilliseconds {
                lines.append("kiln_queue_oldest_wait_seconds{\(labels(depth))} \(Double(wait) / 1000)")
            }
        }
        lines += [
            "# HELP kiln_queue_paused Tenants and classes an operator paused: their jobs are admitted and wait, unclaimed.",
            "# TYPE kiln_queue_paused gauge",
        ]
        for lane in stats.paused {
            switch lane {
            case .tenant(let tenant): lines.append("kiln_queue_paused{tenant=\"\(tenant.rawValue)\"} 1")
            case .jobClass(let jobClass): lines.append("kiln_queue_paused{class=\"\(jobClass.rawValue)\"} 1")
            }
        }
        for (name, help, value) in [
            ("kiln_queue_in_flight", "Attempts running under a lease.", stats.inFlight),
            ("kiln_queue_delayed", "Delayed jobs and retries waiting for their time.", stats.delayed),
            ("kiln_queue_dead", "Jobs in the dead-letter set.", stats.dead),
            ("kiln_queue_unrecorded", "Finished jobs not yet written to PostgreSQL.", stats.unrecorded),
        ] {
            lines += ["# HELP \(name) \(help)", "# TYPE \(name) gauge", "\(name) \(value)"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func labels(_ depth: QueueStats.Depth) -> String {
        "tenant=\"\(depth.tenant)\",class=\"\(depth.jobClass.rawValue)\",priority=\"\(depth.priority.rawValue)\""
    }
}
