//! Discover in the app (`D` in Track): the prompts worth tracking around a topic — the
//! fanouts of the Compare tab's models and the questions and searches Google relates to it,
//! from the Compare tab's places — ranked as `vantage discover` ranks them. Space marks
//! rows; `a` adds the marked ones to a set of the workspace file (a new one takes the
//! Compare tab's models and places), checked as a hand-written file is, then written.

use crate::app::keymap::{Action, Context};
use std::collections::BTreeSet;

use crate::analysis::workspace::TrackSet;
use crate::api::{ApiError, Location, Model};
use crate::present::answer::PreparedAnswer;
use crate::present::compare::summary::location_label;
use crate::present::prompts::{FoundPrompt, PromptPool, TopicAsk, topic_asks, topic_calls};
use crate::present::search_page::PreparedSearch;

use super::call::CallState;
use super::input::{InputPrompt, InputTarget};
use super::popup::Popup;
use super::{App, CallEffect, Effect, Tag};

/// One call of a discovery, and the place it asks from.
#[derive(Debug)]
pub struct DiscoverCall {
    pub call: CallState,
    pub place: String,
}

#[derive(Debug, Default)]
pub struct DiscoverState {
    pub topic: String,
    pub calls: Vec<DiscoverCall>,
    pool: PromptPool,
    /// The prompts found so far, most raised first.
    pub rows: Vec<FoundPrompt>,
    pub selected: usize,
    /// The prompts marked with Space, by their text.
    pub marked: BTreeSet<String>,
}

impl DiscoverState {
    pub fn running(&self) -> usize {
        self.calls.iter().filter(|c| c.call.is_running()).count()
    }

    /// Calls whose answer is not in yet.
    pub fn waiting(&self) -> usize {
        self.calls.iter().filter(|c| c.call.is_waiting()).count()
    }

    pub fn on_landed(&mut self, tag: Tag, bytes: usize, now: std::time::Instant) {
        for call in &mut self.calls {
            call.call.on_landed(tag, bytes, now);
        }
    }

    pub fn failed(&self) -> usize {
        self.calls
            .iter()
            .filter(|c| c.call.error().is_some())
            .count()
    }

    pub fn owns(&self, tag: Tag) -> bool {
        self.calls.iter().any(|c| c.call.is_for(tag))
    }

    fn land(&mut self, tag: Tag, result: Result<(), ApiError>) -> Option<String> {
        let call = self.calls.iter_mut().find(|c| c.call.is_for(tag))?;
        call.call = match result {
            Ok(()) => CallState::Idle,
            Err(error) => CallState::Failed(error),
        };
        Some(call.place.clone())
    }
}

/// The models and places a discovery asks: the Compare tab's (ChatGPT and anywhere when it
/// has none).
fn vantage_points(app: &App) -> (Vec<Model>, Vec<Location>) {
    let axes = &app.compare.axes;
    let models = if axes.models.is_empty() {
        vec![Model::Chatgpt]
    } else {
        axes.models.clone()
    };
    let places = if axes.locations.is_empty() {
        vec![Location::default()]
    } else {
        axes.locations.clone()
    };
    (models, places)
}

/// `D`: asks for the topic, saying what it will cost.
pub(crate) fn ask(app: &mut App) -> Vec<Effect> {
    let (models, places) = vantage_points(app);
    let calls = topic_calls(1, models.len(), places.len()).in_words(&app.prices);
    let names: Vec<&str> = models.iter().map(|m| m.display_name()).collect();
    let where_from: Vec<String> = places.iter().map(location_label).collect();
    let mut prompt = InputPrompt::new(
        InputTarget::DiscoverTopic,
        "Discover prompts around a topic",
        "",
    );
    prompt.note = format!(
        "Asks {} and Google from {} (Compare's models and places): {calls}{}. Enter runs.",
        names.join(", "),
        where_from.join(", "),
        match app.credits {
            super::Credits::Known(n) => format!("; {n} credits left"),
            _ => String::new(),
        }
    );
    app.popup = Some(Popup::Input(prompt));
    Vec::new()
}

/// After Enter on the topic: sends every call (each a History entry of its own).
pub(crate) fn start(app: &mut App, topic: &str) -> Result<Vec<Effect>, String> {
    let topic = topic.trim().to_string();
    if topic.is_empty() {
        return Err("Type a topic to discover prompts around, like hiking boots.".to_string());
    }
    let (models, places) = vantage_points(app);
    let credits = topic_calls(1, models.len(), places.len()).credits(&app.prices);
    if let super::Credits::Known(left) = app.credits
        && left < credits
    {
        return Err(format!(
            "Discovering around {topic:?} takes {credits} credits and {left} are left: not sent. Top up first."
        ));
    }
    let mut effects = Vec::new();
    let mut calls = Vec::new();
    for (ask, place) in topic_asks(std::slice::from_ref(&topic), &models, &places) {
        ask.validate().map_err(|e| e.to_string())?;
        let tag = app.next_tag();
        let (label, effect) = match ask {
            TopicAsk::Model(request) => (
                request.effective_model().display_name().to_string(),
                CallEffect::SendAi { tag, request },
            ),
            TopicAsk::Google(request) => (
                "Google".to_string(),
                CallEffect::SendSearch { tag, request },
            ),
        };
        calls.push(DiscoverCall {
            call: CallState::running(tag, app.now, label, None),
            place,
        });
        effects.push(Effect::Call(effect));
    }
    app.track.discover = Some(DiscoverState {
        topic,
        calls,
        ..DiscoverState::default()
    });
    Ok(effects)
}

fn finish(app: &mut App) -> Vec<Effect> {
    let Some(state) = app.track.discover.as_mut() else {
        return Vec::new();
    };
    state.rows = state.pool.ranked(&state.topic);
    state.selected = state.selected.min(state.rows.len().saturating_sub(1));
    if state.running() > 0 {
        return Vec::new();
    }
    let (found, failed) = (state.rows.len(), state.failed());
    if failed > 0 {
        let again = app.key_of(Context::Track, Action::DiscoverPrompts);
        app.flash_error(format!(
            "{failed} of the calls failed; {} from the others. {again} runs it again.",
            crate::plural::count(found as u64, "prompt", "prompts")
        ));
    } else {
        let (mark, add) = (
            app.key_of(Context::Discover, Action::ToggleMark),
            app.key_of(Context::Discover, Action::AddToSet),
        );
        app.flash_info(format!(
            "{} found: {mark} marks, {add} adds the marked to a set.",
            crate::plural::count(found as u64, "prompt", "prompts")
        ));
    }
    vec![Effect::Call(CallEffect::FetchAccount)]
}

pub(crate) fn on_ai_done(
    app: &mut App,
    tag: Tag,
    result: Result<Box<PreparedAnswer>, ApiError>,
) -> Vec<Effect> {
    let Some(state) = app.track.discover.as_mut() else {
        return Vec::new();
    };
    match result {
        Ok(answer) => {
            if let Some(place) = state.land(tag, Ok(())) {
                state.pool.add_answer(&answer, &place, 1);
            }
        }
        Err(error) => {
            state.land(tag, Err(error));
        }
    }
    finish(app)
}

pub(crate) fn on_search_done(
    app: &mut App,
    tag: Tag,
    result: Result<Box<PreparedSearch>, ApiError>,
) -> Vec<Effect> {
    let Some(state) = app.track.discover.as_mut() else {
        return Vec::new();
    };
    match result {
        Ok(page) => {
            if let Some(place) = state.land(tag, Ok(())) {
                state.pool.add_search_results(&page.results, &place, 1);
            }
        }
        Err(error) => {
            state.land(tag, Err(error));
        }
    }
    finish(app)
}

/// Space: marks the selected prompt, or takes the mark away.
pub(crate) fn toggle_mark(app: &mut App) {
    let Some(state) = app.track.discover.as_mut() else {
        return;
    };
    let Some(row) = state.rows.get(state.selected) else {
        return;
    };
    if !state.marked.remove(&row.prompt) {
        state.marked.insert(row.prompt.clone());
    }
    state.selected = (state.selected + 1).min(state.rows.len().saturating_sub(1));
}

/// `a`: asks which set the marked prompts go to.
pub(crate) fn ask_set(app: &mut App) -> Vec<Effect> {
    let marked = app.track.discover.as_ref().map_or(0, |d| d.marked.len());
    if marked == 0 {
        app.flash_info("Mark prompts with Space first; a then adds them to a set.");
        return Vec::new();
    }
    let sets: Vec<String> = app
        .brands_pane
        .workspace
        .as_ref()
        .map(|w| w.sets().iter().map(|s| s.name.clone()).collect())
        .unwrap_or_default();
    let default = app.track.view.as_ref().and_then(|v| v.set.clone());
    let mut prompt = InputPrompt::new(
        InputTarget::AddToSet,
        format!("Add the {marked} marked prompts to the set"),
        default.unwrap_or_default(),
    );
    prompt.note = if sets.is_empty() {
        "A new set, with Compare's models and places.".to_string()
    } else {
        format!(
            "One of {}, or a new set (with Compare's models and places).",
            sets.join(", ")
        )
    };
    app.popup = Some(Popup::Input(prompt));
    Vec::new()
}

/// After Enter on the set's name: the workspace file with the prompts added, checked, and
/// written off the UI task; the sentence of what is wrong otherwise.
pub(crate) fn add_to_set(app: &mut App, name: &str) -> Result<Vec<Effect>, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("Name the set: an existing one, or a new one.".to_string());
    }
    // In the order they were ranked.
    let prompts: Vec<String> = app
        .track
        .discover
        .as_ref()
        .map(|d| {
            d.rows
                .iter()
                .filter(|r| d.marked.contains(&r.prompt))
                .map(|r| r.prompt.clone())
                .collect()
        })
        .unwrap_or_default();
    let (models, places) = vantage_points(app);
    let existing = app
        .brands_pane
        .workspace
        .as_ref()
        .and_then(|w| w.set(name))
        .cloned();
    let (set_name, made) = match &existing {
        Some(set) => (set.name.clone(), false),
        None => (name.to_string(), true),
    };
    let effect = super::sets::write_workspace(app, |edited| {
        match existing {
            Some(mut set) => {
                for prompt in &prompts {
                    if !set.prompts.iter().any(|p| p.eq_ignore_ascii_case(prompt)) {
                        set.prompts.push(prompt.clone());
                    }
                }
                let original = set.name.clone();
                edited.replace_set(&original, set)
            }
            None => edited.add_set(TrackSet {
                name: name.to_string(),
                prompts,
                models,
                locations: places
                    .into_iter()
                    .filter(|p| *p != Location::default())
                    .collect(),
                ..TrackSet::default()
            }),
        }
        .map_err(|e| e.to_string())
    })?;
    let cost = app
        .brands_pane
        .workspace
        .as_ref()
        .and_then(|w| w.set(&set_name))
        .map_or_else(String::new, |s| s.cost_in_words(&app.prices));
    if let Some(state) = app.track.discover.as_mut() {
        state.marked.clear();
    }
    let verb = if made { "Made" } else { "Added to" };
    let (close, run) = (
        app.key_of(Context::Discover, Action::Back),
        app.key_of(Context::Track, Action::RunSet),
    );
    app.flash_info(format!(
        "{verb} the set {set_name}: a run makes {cost}. {close}, then {run} runs it (or `vantage track run {set_name}`)."
    ));
    app.track.show_when_written = Some(set_name);
    Ok(vec![effect])
}
