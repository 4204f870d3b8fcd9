//! Fan-out coverage of the answer in Chat (`F`): after a yes to its cost, each fanout is
//! searched from the answer's place and language (each search a History entry of its own),
//! and once all are back the Fanouts view shows who ranks for them — the tracked brands'
//! best ranks and coverage, and the answer's cited sites that rank.

use super::keymap::{Action, Context};
use crate::api::{ApiError, SearchRequest};
use crate::present::fanouts::{Coverage, coverage, fanout_request};
use crate::present::search_page::PreparedSearch;
use crate::price::{Calls, covers};

use super::call::CallState;
use super::popup::{Confirm, Popup};
use super::{App, CallEffect, Credits, Effect, Tag};
use crate::present::answer::AnswerView;

/// One fanout's search.
#[derive(Debug)]
pub struct FanoutSearch {
    pub call: CallState,
    pub page: Option<Box<PreparedSearch>>,
}

/// The coverage of the answer on screen: its searches, and the reading once all are back.
#[derive(Debug, Default)]
pub struct FanoutCoverage {
    pub searches: Vec<FanoutSearch>,
    pub report: Option<Coverage>,
}

impl FanoutCoverage {
    pub fn running(&self) -> usize {
        self.searches.iter().filter(|s| s.call.is_running()).count()
    }

    /// Searches whose results are not in yet.
    pub fn waiting(&self) -> usize {
        self.searches.iter().filter(|s| s.call.is_waiting()).count()
    }

    /// A search's response has arrived: it no longer waits on the service.
    pub fn on_landed(&mut self, tag: Tag, bytes: usize, now: std::time::Instant) {
        for search in &mut self.searches {
            search.call.on_landed(tag, bytes, now);
        }
    }

    pub fn owns(&self, tag: Tag) -> bool {
        self.searches.iter().any(|s| s.call.is_for(tag))
    }
}

/// The searches the coverage makes: one per fanout, from the answer's place and language.
fn requests(app: &App) -> Vec<SearchRequest> {
    let Some(answer) = &app.chat.answer else {
        return Vec::new();
    };
    let request = &answer.prepared.request;
    answer
        .prepared
        .fanouts
        .iter()
        .map(|q| fanout_request(q, &request.location, request.language.as_deref()))
        .collect()
}

/// `F`: asks whether to spend the searches, saying how many and the balance.
pub(crate) fn ask(app: &mut App) -> Vec<Effect> {
    let Some(answer) = &app.chat.answer else {
        let key = app.key_of(Context::Chat, Action::FanoutCoverage);
        app.flash_info(format!(
            "There is no answer yet: ask something, then {key} searches its fanouts."
        ));
        return Vec::new();
    };
    let searches = answer.prepared.fanouts.len();
    if searches == 0 {
        app.flash_info(format!(
            "The answer of {} lists no fanout queries; ChatGPT's answers carry them.",
            answer.prepared.header.model.display_name()
        ));
        return Vec::new();
    }
    let place = crate::present::compare::summary::location_label(&answer.prepared.request.location);
    let credits = match app.credits {
        Credits::Known(n) => Some(n),
        _ => None,
    };
    let calls = Calls::searches(searches);
    let cost = calls.in_words(&app.prices);
    if !covers(credits, calls.credits(&app.prices)) {
        let left = credits.unwrap_or_default();
        app.flash_error(format!(
            "The answer's {searches} fanouts take {cost} and {left} credits are left: not sent. Top up first."
        ));
        return Vec::new();
    }
    app.popup = Some(Popup::Confirm(Confirm::FanoutCoverage {
        searches,
        cost,
        place,
        credits,
    }));
    Vec::new()
}

/// After the yes: sends every fanout's search (the effects runner keeps each in History).
pub(crate) fn start(app: &mut App) -> Vec<Effect> {
    let requests = requests(app);
    let now = app.now;
    let mut effects = Vec::new();
    let mut searches = Vec::new();
    for request in requests {
        let tag = app.next_tag();
        searches.push(FanoutSearch {
            call: CallState::running(tag, now, format!("Searching {:?}", request.terms), None),
            page: None,
        });
        effects.push(Effect::Call(CallEffect::SendSearch { tag, request }));
    }
    if let Some(answer) = app.chat.answer.as_mut() {
        answer.coverage = Some(FanoutCoverage {
            searches,
            report: None,
        });
        answer.view = AnswerView::Fanouts;
    }
    effects
}

/// One fanout's search came back; with the last, the coverage is read.
pub(crate) fn on_search_done(
    app: &mut App,
    tag: Tag,
    result: Result<Box<PreparedSearch>, ApiError>,
) -> Vec<Effect> {
    if let Err(error) = &result {
        app.note_error(error);
    }
    let Some(coverage) = app.chat.answer.as_mut().and_then(|a| a.coverage.as_mut()) else {
        return Vec::new();
    };
    let Some(search) = coverage.searches.iter_mut().find(|s| s.call.is_for(tag)) else {
        return Vec::new();
    };
    match result {
        Ok(page) => {
            search.call = CallState::Idle;
            search.page = Some(page);
        }
        Err(error) => search.call = CallState::Failed(error),
    }
    if coverage.running() > 0 {
        return Vec::new();
    }
    refresh(app);
    let failed = app
        .chat
        .answer
        .as_ref()
        .and_then(|a| a.coverage.as_ref())
        .map_or(0, |c| {
            c.searches
                .iter()
                .filter(|s| s.call.error().is_some())
                .count()
        });
    if failed > 0 {
        let again = app.key_of(Context::Chat, Action::FanoutCoverage);
        app.flash_error(format!(
            "{failed} of the fanouts' searches failed; their rows say why. {again} runs them all again."
        ));
    } else {
        let search = app.key_of(Context::AnswerList, Action::Accept);
        app.flash_info(format!(
            "Fan-out coverage read: {search} searches a fanout in the Search tab."
        ));
    }
    vec![Effect::Call(CallEffect::FetchAccount)]
}

/// Reads the coverage again from the searches back (when they land, or the brands change).
pub(crate) fn refresh(app: &mut App) {
    let brands = app.brands.clone();
    let Some(answer) = app.chat.answer.as_mut() else {
        return;
    };
    let in_answer: Vec<bool> = brands
        .iter()
        .map(|b| {
            answer
                .mentions
                .iter()
                .any(|m| m.brand == b.name && (m.position.is_some() || m.cited))
        })
        .collect();
    let Some(state) = answer.coverage.as_mut() else {
        return;
    };
    if state.running() > 0 {
        return;
    }
    let pages: Vec<Result<&PreparedSearch, String>> = state
        .searches
        .iter()
        .map(|s| match (&s.page, s.call.error()) {
            (Some(page), _) => Ok(page.as_ref()),
            (None, Some(error)) => Err(error.to_string()),
            (None, None) => Err("not searched".to_string()),
        })
        .collect();
    state.report = Some(coverage(&answer.prepared, &pages, &brands, &in_answer));
}
