//! The async runtime the binary runs on, and how it ends: without waiting for work left on
//! tokio's blocking pool. A load still reading there (a store read of minutes) would hold
//! the process long after the user quit; the process is ending, and SQLite keeps the file
//! whole whatever a reader was doing. The CLI awaits all of its own work before it returns,
//! and the app commits its queued writes before it does (`tui::run`).

use std::future::Future;
use std::time::Duration;

/// Runs `future` to its end on a fresh runtime, then shuts the runtime down without waiting
/// for blocking work still running.
pub fn block_on<F: Future>(future: F) -> std::io::Result<F::Output> {
    // Two workers, however many cores (counting them reads cgroup files at start): the app
    // waits on the terminal, the network and the store, and its heavy work runs on the
    // blocking pool, whose threads end a second after their last job. Each thread kept is
    // memory kept (its stack, its allocator arena).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_keep_alive(Duration::from_secs(1))
        .enable_all()
        .build()?;
    let output = runtime.block_on(future);
    runtime.shutdown_background();
    Ok(output)
}
