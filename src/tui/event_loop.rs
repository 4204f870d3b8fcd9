//! The event loop: terminal events, task results and timers become messages; `update` turns
//! them into effects; one draw per batch. Idle means no wake-ups: the loop ticks only while
//! something animates, the job timer runs only while a job waits, a one-second tick only
//! while the Jobs table shows ages, and a look at the store's version every two seconds only
//! while a view of stored rows shows.

use std::io;
use std::task::Poll;
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers};
use futures_util::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc::UnboundedReceiver;

use crate::app::{self, App, Msg};
use crate::ui;

use super::effects::EffectRunner;

/// How often the screen refreshes while a spinner or countdown runs.
const TICK: Duration = Duration::from_millis(100);

/// How often the Jobs table's ages refresh while it shows.
const AGES_TICK: Duration = Duration::from_secs(1);

/// How often the store's version is looked at while a view of stored rows shows (Jobs,
/// History, Track), so that what another process writes appears; never elsewhere.
const STORE_LOOK: Duration = Duration::from_secs(2);

/// What one frame may cost: one frame at 60 Hz.
pub const FRAME_BUDGET: Duration = Duration::from_millis(16);

/// What one run of the loop did, for tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopStats {
    pub frames: u64,
    pub messages: u64,
    /// The longest `terminal.draw`.
    pub slowest_frame: Duration,
    /// All `terminal.draw` calls together.
    pub frame_time: Duration,
    /// Frames that took longer than [`FRAME_BUDGET`].
    pub frames_over_budget: u64,
    /// The most job polls seen in flight at once.
    pub most_polls_in_flight: usize,
}

/// The event loop, generic over the backend and the event source so tests drive it on
/// `TestBackend` with scripted events.
pub async fn run_loop<B, S>(
    terminal: &mut Terminal<B>,
    mut events: S,
    app: &mut App,
    runner: &mut EffectRunner,
    rx: &mut UnboundedReceiver<Msg>,
) -> io::Result<LoopStats>
where
    B: Backend,
    B::Error: std::error::Error + Send + Sync + 'static,
    S: Stream<Item = io::Result<Event>> + Unpin,
{
    let mut stats = LoopStats::default();
    app.set_clock(Instant::now());
    app.set_wall(crate::jobs::steady_now_ms());
    let effects = app.start();
    // The first frame needs none of what the start asks for (those answer through the
    // channel), nor the store, which opens beside it.
    draw(terminal, app, &mut stats)?;
    // Ctrl+C ends the app even while the store is still opening (a migration of a large
    // file); other keys wait for it and act then.
    let mut early = Vec::new();
    let mut events_ended = false;
    let settled = {
        let settling = runner.settle_store(app);
        tokio::pin!(settling);
        loop {
            tokio::select! {
                // A store already open is taken before any key is looked at.
                biased;
                changed = &mut settling => break Some(changed),
                event = events.next(), if !events_ended => match event {
                    Some(Ok(event)) if is_interrupt(&event) => break None,
                    Some(Ok(event)) => early.extend(event_to_msg(event)),
                    Some(Err(e)) => return Err(e),
                    // The loop ends with its events, once the store is taken.
                    None => events_ended = true,
                },
            }
        }
    };
    match settled {
        None => return Ok(stats),
        Some(true) => draw(terminal, app, &mut stats)?,
        Some(false) => {}
    }
    runner.run_all(effects, app).await;
    if !early.is_empty() {
        apply(app, runner, early, &mut stats).await;
        if app.should_quit {
            runner.cancel_all();
            return Ok(stats);
        }
        draw(terminal, app, &mut stats)?;
    }
    if events_ended {
        runner.cancel_all();
        return Ok(stats);
    }
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut ages_ticker = tokio::time::interval(AGES_TICK);
    ages_ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut store_ticker = tokio::time::interval(STORE_LOOK);
    store_ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut terminate = termination_signal();
    loop {
        // Sleep until the scheduler's next poll falls due; no timer while no job waits.
        let wake = app.jobs.next_wake().map(|at| {
            Duration::from_millis((at - crate::jobs::steady_now_ms()).clamp(0, 60_000) as u64)
        });
        let timer = async move {
            match wake {
                Some(wait) => tokio::time::sleep(wait).await,
                None => std::future::pending().await,
            }
        };
        let first = tokio::select! {
            event = events.next() => match event {
                Some(Ok(event)) => event_to_msg(event),
                Some(Err(e)) => return Err(e),
                None => break,
            },
            Some(msg) = rx.recv() => Some(msg),
            _ = ticker.tick(), if app.animating() => Some(Msg::Tick),
            _ = ages_ticker.tick(), if app::jobs_tab::ages_on_screen(app) => Some(Msg::Tick),
            _ = store_ticker.tick(), if app.watches_store() => Some(Msg::LookAtStore),
            () = timer => Some(Msg::JobsWake),
            _ = terminate.recv() => break,
        };
        // Everything else already waiting joins this batch; then one draw.
        let mut batch: Vec<Msg> = first.into_iter().collect();
        while let Ok(msg) = rx.try_recv() {
            batch.push(msg);
        }
        // Polled with this task's own waker: a no-op waker here would be the one crossterm
        // keeps, and the next real wait would never wake.
        while let Poll::Ready(Some(Ok(event))) =
            std::future::poll_fn(|cx| Poll::Ready(events.poll_next_unpin(cx))).await
        {
            batch.extend(event_to_msg(event));
        }
        if batch.is_empty() {
            continue;
        }
        apply(app, runner, batch, &mut stats).await;
        if app.should_quit {
            break;
        }
        draw(terminal, app, &mut stats)?;
    }
    runner.cancel_all();
    Ok(stats)
}

/// Runs a batch of messages through `update`, carrying out their effects.
async fn apply(app: &mut App, runner: &mut EffectRunner, batch: Vec<Msg>, stats: &mut LoopStats) {
    app.set_clock(Instant::now());
    app.set_wall(crate::jobs::steady_now_ms());
    for msg in batch {
        stats.messages += 1;
        runner.observe(&msg);
        let effects = app::update(app, msg);
        runner.run_all(effects, app).await;
        stats.most_polls_in_flight = stats
            .most_polls_in_flight
            .max(app.jobs.scheduler.in_flight());
    }
}

/// Ctrl+C, which ends the app whatever it is doing.
fn is_interrupt(event: &Event) -> bool {
    matches!(
        event,
        Event::Key(key) if key.kind != KeyEventKind::Release
            && key.code == KeyCode::Char('c')
            && key.modifiers.contains(KeyModifiers::CONTROL)
    )
}

fn draw<B>(terminal: &mut Terminal<B>, app: &App, stats: &mut LoopStats) -> io::Result<()>
where
    B: Backend,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    let started = Instant::now();
    terminal
        .draw(|frame| ui::view(app, frame))
        .map_err(io::Error::other)?;
    let took = started.elapsed();
    stats.slowest_frame = stats.slowest_frame.max(took);
    stats.frame_time += took;
    stats.frames_over_budget += u64::from(took > FRAME_BUDGET);
    stats.frames += 1;
    Ok(())
}

fn event_to_msg(event: Event) -> Option<Msg> {
    match event {
        // Some terminals report releases too; only presses (and repeats) act.
        Event::Key(key) if key.kind != KeyEventKind::Release => Some(Msg::Key(key)),
        Event::Mouse(mouse) => Some(Msg::Mouse(mouse)),
        Event::Paste(text) => Some(Msg::Paste(text)),
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        Event::FocusGained => Some(Msg::FocusGained),
        _ => None,
    }
}

/// SIGTERM ends the loop like a quit, so the terminal is restored.
struct Termination {
    #[cfg(unix)]
    signal: Option<tokio::signal::unix::Signal>,
}

impl Termination {
    async fn recv(&mut self) {
        #[cfg(unix)]
        if let Some(signal) = &mut self.signal {
            signal.recv().await;
            return;
        }
        std::future::pending::<()>().await
    }
}

fn termination_signal() -> Termination {
    Termination {
        #[cfg(unix)]
        signal: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok(),
    }
}
