//! What one tab asks of another. A tab's file never imports another tab's: it asks
//! ([`App::ask`]), and [`super::update`] carries the asks out here, after the message that
//! made them and within the same update, so the next frame shows their result. This file and
//! the tab table (`tabs.rs`) are the only ones that know every tab; each tab can be read and
//! changed alone.

use crate::api::AiRequest;
use crate::present::answer::PreparedAnswer;
use crate::store::{JobRecord, RequestParams};

use super::{App, Effect};

/// What a tab asks another to do.
#[derive(Clone, Debug)]
pub enum Ask {
    /// Open the Brands pane over Chat.
    OpenBrands,
    /// Search these terms in the Search tab from an answer's place (and language), as the
    /// model did.
    SearchFrom { terms: String, answer: AiRequest },
    /// Put a stored request back into its tab's form, ready to edit and send.
    EditAgain(RequestParams),
    /// The tracked brands changed: every view that counts them counts again.
    BrandsChanged,
    /// Show this answer (a Compare column's) in Chat and ask to search its fanouts there.
    FanoutCoverage(Box<PreparedAnswer>),
    /// Keep this queued job in the Jobs tab and poll it as every job is (a grid column's).
    KeepJob(Box<JobRecord>),
}

/// Carries out the asks made during one update, in order (one may lead to another).
pub(super) fn carry_out(app: &mut App) -> Vec<Effect> {
    let mut effects = Vec::new();
    while !app.asks.is_empty() {
        let ask = app.asks.remove(0);
        effects.extend(match ask {
            Ask::OpenBrands => super::brands::open(app),
            Ask::SearchFrom { terms, answer } => super::search::search_from(app, &terms, &answer),
            Ask::EditAgain(RequestParams::Ai(request)) => {
                super::chat::edit_again(app, &request);
                Vec::new()
            }
            Ask::EditAgain(RequestParams::Search(request)) => {
                super::search::edit_again(app, &request);
                Vec::new()
            }
            Ask::EditAgain(RequestParams::Browser(params)) => {
                match serde_json::from_value(params) {
                    Ok(request) => super::page::edit_again(app, &request),
                    Err(e) => app.flash_error(format!(
                        "The stored page request could not be read back: {e}"
                    )),
                }
                Vec::new()
            }
            Ask::EditAgain(RequestParams::Compare(requests)) => {
                super::compare::edit_again(app, &requests)
            }
            Ask::FanoutCoverage(answer) => {
                super::chat::show_answer(app, answer);
                super::coverage::ask(app)
            }
            Ask::KeepJob(record) => {
                super::jobs_tab::keep_queued(app, *record);
                app.jobs.due(app.wall)
            }
            Ask::BrandsChanged => {
                super::chat::refresh_mentions(app);
                super::compare::refresh_views(app);
                Vec::new()
            }
        });
    }
    effects
}
