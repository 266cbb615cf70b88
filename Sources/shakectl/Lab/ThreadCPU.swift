import Foundation

/// CPU time of this process's threads with a given name, as `ps` shows it: for `bench-iio`, which
/// tells the reading thread's cost from the rest of the process's.
enum ThreadCPU {
    /// Seconds on a CPU, summed over the threads named `name` (`/proc/self/task/*/schedstat`).
    static func seconds(named name: String) -> Double {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var nanoseconds = 0
        for task in tasks {
            guard let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                comm.trimmingCharacters(in: .newlines) == name,
                let schedstat = try? String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8),
                let running = schedstat.split(separator: " ").first.flatMap({ Int($0) })
            else { continue }
            nanoseconds += running
        }
        return Double(nanoseconds) / 1e9
    }
}
