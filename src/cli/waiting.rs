//! A spinner on stderr while a call waits, with the seconds waited and how long the model
//! usually takes ("Copilot usually answers in 35–150 s"): a quiet terminal for two minutes
//! reads as a hang. Only on a terminal; into a pipe or a log, nothing.

use std::future::Future;
use std::time::{Duration, Instant};

use crate::api::Model;

const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK: Duration = Duration::from_millis(125);

/// Runs `call`, showing `doing` ("Asking Copilot") and the seconds waited meanwhile, with
/// `slowest`'s usual wait when a model answers. The line is cleared when the call ends.
pub(super) async fn while_waiting<T>(
    doing: &str,
    slowest: Option<Model>,
    call: impl Future<Output = T>,
) -> T {
    if !super::progress_shown() {
        return call.await;
    }
    let doing = doing.to_string();
    let usual = slowest.map_or(String::new(), usual_wait);
    let started = Instant::now();
    let ticker = tokio::spawn(async move {
        for frame in FRAMES.iter().cycle() {
            // A retry's countdown has the line while it runs.
            if !super::retry_on_screen() {
                super::progress(&spinner_line(*frame, &doing, started.elapsed(), &usual));
            }
            tokio::time::sleep(TICK).await;
        }
    });
    let result = call.await;
    ticker.abort();
    // Stopped before the line is cleared, so no frame lands after it.
    let _ = ticker.await;
    super::clear_progress();
    result
}

/// " (Copilot usually answers in 35–150 s)".
fn usual_wait(model: Model) -> String {
    let (low, high) = model.typical_seconds();
    format!(
        " ({} usually answers in {low}–{high} s)",
        model.display_name()
    )
}

fn spinner_line(frame: char, doing: &str, waited: Duration, usual: &str) -> String {
    format!("{frame} {doing}… {} s{usual}", waited.as_secs())
}

/// The slowest of these models, by its usual longest wait: what a comparison waits for.
pub(super) fn slowest(models: impl IntoIterator<Item = Model>) -> Option<Model> {
    models
        .into_iter()
        .max_by_key(|model| model.typical_seconds().1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_says_the_seconds_and_the_model_s_usual_wait() {
        let line = spinner_line(
            '⠋',
            "Asking Copilot",
            Duration::from_millis(12_400),
            &usual_wait(Model::Copilot),
        );
        assert_eq!(
            line,
            "⠋ Asking Copilot… 12 s (Copilot usually answers in 35–150 s)"
        );
        assert_eq!(
            slowest([Model::Gemini, Model::Copilot, Model::Chatgpt]),
            Some(Model::Copilot)
        );
        assert_eq!(slowest([]), None);
    }
}
