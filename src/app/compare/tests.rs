use crate::app::{CallEffect, StoreEffect};
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::run::send_all;
use super::*;
use crate::api::{AiAnswer, Completion, Fetched};
use crate::api::{Location, Model};
use crate::app::picker::PickerKind;
use crate::app::{Connection, Msg, Tab, update};
use crate::app::{Effect, Popup};

pub(super) fn app() -> App {
    let mut app = App::new(
        Connection {
            // Against the service: at most 8 calls at once.
            demo: false,
            host: "127.0.0.1:1".into(),
            token: Some("demo".into()),
            token_hint: "the config file".into(),
        },
        Instant::now(),
    );
    app.tab = Tab::Compare;
    app
}

pub(super) fn loc(text: &str) -> Location {
    summary::parse_location(text).unwrap()
}

/// Four models × three locations: twelve columns.
pub(super) fn twelve(app: &mut App) {
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = Model::ALL.to_vec();
    app.compare.axes.locations = vec![loc("us:ny:New+York"), loc("de::Berlin"), loc("fr")];
    app.compare.rebuild();
}

pub(super) fn answer(model: &str, text: &str, sources: &str) -> Box<PreparedAnswer> {
    let completion = Completion {
        model: model.into(),
        completion: format!("<p>{text}</p>"),
        sources: sources.into(),
        ..Completion::default()
    };
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(1200),
    };
    Box::new(crate::present::answer::prepare(
        AiRequest::new("best hiking boots"),
        fetched,
    ))
}

/// The calls of the comparison's columns: each is marked as a column, so that History keeps
/// the comparison as one entry rather than one per column.
pub(super) fn columns_sent(effects: &[Effect]) -> Vec<&CallEffect> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Call(CallEffect::Column(call)) => Some(call.as_ref()),
            Effect::Call(
                CallEffect::SendAi { .. }
                | CallEffect::SendSearch { .. }
                | CallEffect::SendOverview { .. },
            ) => panic!("a column's call was not marked as a column: {e:?}"),
            _ => None,
        })
        .collect()
}

pub(super) fn sent_tags(effects: &[Effect]) -> Vec<Tag> {
    columns_sent(effects)
        .into_iter()
        .filter_map(|call| match call {
            CallEffect::SendAi { tag, .. }
            | CallEffect::SendSearch { tag, .. }
            | CallEffect::SendOverview { tag, .. } => Some(*tag),
            _ => None,
        })
        .collect()
}

pub(super) fn key(app: &mut App, code: KeyCode, modifiers: KeyModifiers) -> Vec<Effect> {
    update(app, Msg::Key(KeyEvent::new(code, modifiers)))
}

#[test]
fn the_axes_multiply_into_columns_models_first() {
    let mut app = app();
    twelve(&mut app);
    assert_eq!(app.compare.columns.len(), 12);
    let first = &app.compare.columns[0].vantage;
    assert_eq!(first.model, Some(Model::Chatgpt));
    assert_eq!(first.location.city.as_deref(), Some("New York"));
    assert_eq!(app.compare.columns[1].vantage.model, Some(Model::Chatgpt));
    assert_eq!(app.compare.columns[3].vantage.model, Some(Model::Gemini));
    assert_eq!(
        cost_line(&app),
        (
            "12 columns = 12 calls (12 answers × 5 = 60 credits)".into(),
            true
        )
    );
}

#[test]
fn eight_run_at_once_and_the_rest_start_as_others_land() {
    let mut app = app();
    twelve(&mut app);
    let effects = send_all(&mut app);
    let tags = sent_tags(&effects);
    assert_eq!(tags.len(), 8);
    assert_eq!(app.compare.running(), 8);
    assert_eq!(app.compare.columns.iter().filter(|c| c.queued).count(), 4);

    // A failure frees a slot too, and the other columns keep running.
    let error = ApiError::from_status(500, "unknown error", None);
    let effects = update(
        &mut app,
        Msg::AiDone {
            tag: tags[0],
            result: Err(error),
        },
    );
    assert_eq!(sent_tags(&effects).len(), 1);
    assert!(app.compare.columns[0].call.error().is_some());
    let effects = update(
        &mut app,
        Msg::AiDone {
            tag: tags[1],
            result: Ok(answer("chatgpt", "boots", "")),
        },
    );
    assert_eq!(sent_tags(&effects).len(), 1);
    assert!(app.compare.columns[1].answer().is_some());
    assert_eq!(app.compare.running(), 8);
    assert_eq!(app.compare.columns.iter().filter(|c| c.queued).count(), 2);
    // The chat tab is untouched by the compare columns' answers.
    assert!(app.chat.answer.is_none());
}

#[test]
fn more_than_sixteen_columns_go_through_the_queue_and_fill_as_their_jobs_land() {
    use crate::jobs::PollOutcome;
    let mut app = app();
    app.compare.set_prompt("boots");
    app.compare.axes.models = Model::ALL.to_vec();
    app.compare.axes.locations = ["us", "de", "fr", "it", "es"].map(loc).to_vec();
    app.compare.rebuild();
    assert_eq!(app.compare.columns.len(), 20);
    let (cost, allowed) = cost_line(&app);
    assert!(allowed && cost.contains("through the queue"), "{cost}");
    let effects = send_all(&mut app);
    let entry = match &effects[0] {
        Effect::Store(StoreEffect::StartComparison { entry, .. }) => entry.clone(),
        other => panic!("the entry first: {other:?}"),
    };
    let submitted: Vec<(Tag, usize)> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Call(CallEffect::SubmitGridColumn {
                tag,
                column,
                entry: e,
                ..
            }) => {
                assert_eq!(*e, entry);
                Some((*tag, *column))
            }
            _ => None,
        })
        .collect();
    assert_eq!(submitted.len(), 20, "every column queued at once");
    // Each job stored; the first lands, the second fails.
    for (i, (tag, _)) in submitted.iter().enumerate() {
        let id = crate::api::JobId::parse(&format!("00000000-0000-4000-8000-{i:012}")).unwrap();
        let record = crate::store::JobRecord {
            id,
            kind: crate::api::JobKind::Ai,
            request: None,
            summary: String::new(),
            state: crate::jobs::JobState::Pending,
            known: true,
            created_at: 0,
            last_poll_at: None,
            next_poll_at: None,
            attempts: 0,
            result_size: None,
            last_error: None,
        };
        update(
            &mut app,
            Msg::GridQueued {
                tag: *tag,
                result: Ok(record),
            },
        );
    }
    let job = |i: usize| app.compare.columns[i].job.clone().unwrap();
    let (first, second) = (job(0), job(1));
    // Their polls go out when due, as the event loop's timer says.
    app.wall += 60_000;
    update(&mut app, Msg::JobsWake);
    let body = crate::store::Body {
        status: 200,
        text: "{\"completion\":\"Merrell\"}".to_string(),
        elapsed_ms: 5,
        received_at: 1,
    };
    let effects = update(
        &mut app,
        Msg::JobPolled {
            id: first,
            outcome: PollOutcome::Ready,
            result: Some(body),
        },
    );
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Call(CallEffect::PrepareGridColumn { tag, .. }) if *tag == submitted[0].0)),
        "{effects:?}"
    );
    update(
        &mut app,
        Msg::JobPolled {
            id: second,
            outcome: PollOutcome::Failed(None),
            result: None,
        },
    );
    assert!(app.compare.columns[1].call.error().is_some());
}

#[test]
fn esc_cancels_the_focused_column_and_ctrl_x_all() {
    let mut app = app();
    twelve(&mut app);
    let tags = sent_tags(&send_all(&mut app));
    app.compare.selected = 2;
    let effects = key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(effects.contains(&Effect::Call(CallEffect::Cancel(tags[2]))));
    // Its slot goes to a queued column.
    assert_eq!(sent_tags(&effects).len(), 1);
    assert!(!app.compare.columns[2].call.is_running());
    let effects = key(&mut app, KeyCode::Char('x'), KeyModifiers::CONTROL);
    assert_eq!(
        effects
            .iter()
            .filter(|e| matches!(e, Effect::Call(CallEffect::Cancel(_))))
            .count(),
        8
    );
    assert_eq!(app.compare.busy(), 0);
}

#[test]
fn one_column_runs_again_alone() {
    let mut app = app();
    twelve(&mut app);
    app.compare.max_in_flight = Some(16);
    let tags = sent_tags(&send_all(&mut app));
    for (i, tag) in tags.iter().enumerate() {
        update(
            &mut app,
            Msg::AiDone {
                tag: *tag,
                result: Ok(answer("gemini", &format!("answer {i}"), "")),
            },
        );
    }
    assert_eq!(app.compare.busy(), 0);
    app.compare.focus = CompareFocus::Columns;
    app.compare.selected = 5;
    let effects = key(&mut app, KeyCode::Char('R'), KeyModifiers::SHIFT);
    assert_eq!(sent_tags(&effects).len(), 1);
    assert!(app.compare.columns[5].call.is_running());
    assert!(app.compare.columns[4].answer().is_some());
}

#[test]
fn models_toggle_and_locations_grow_through_the_shared_pickers() {
    let mut app = app();
    apply_choice(&mut app, PickerKind::Model, Some("gemini".into()));
    apply_choice(&mut app, PickerKind::Model, Some("copilot".into()));
    apply_choice(&mut app, PickerKind::Model, Some("gemini".into()));
    assert_eq!(app.compare.axes.models, vec![Model::Copilot]);
    // The model picker stays open for the next toggle, on the model just chosen.
    let Some(Popup::Picker(picker)) = &app.popup else {
        panic!("the picker stays open")
    };
    assert_eq!(picker.kind, PickerKind::Model);
    assert_eq!(picker.checked, Some(vec!["copilot".to_string()]));
    app.popup = None;
    apply_choice(&mut app, PickerKind::Country, Some("US".into()));
    apply_choice(&mut app, PickerKind::Subdivision, Some("NY".into()));
    apply_choice(&mut app, PickerKind::City, Some("New York".into()));
    apply_choice(&mut app, PickerKind::Country, Some("DE".into()));
    assert_eq!(app.compare.axes.locations.len(), 2);
    assert_eq!(
        summary::location_label(&app.compare.axes.locations[0]),
        "US/NY/New York"
    );
    assert_eq!(app.compare.columns.len(), 2);
    // A column by hand, from the Chat tab's settings, survives axis changes.
    app.compare.focus = CompareFocus::Columns;
    key(&mut app, KeyCode::Char('+'), KeyModifiers::NONE);
    apply_choice(&mut app, PickerKind::Model, Some("chatgpt".into()));
    assert_eq!(app.compare.columns.len(), 5);
    assert!(app.compare.columns[4].by_hand);
}

#[test]
fn any_location_can_be_removed_not_only_the_last() {
    let mut app = app();
    for country in ["US", "DE", "FR"] {
        apply_choice(&mut app, PickerKind::Country, Some(country.into()));
    }
    app.compare.focus = CompareFocus::Columns;
    key(&mut app, KeyCode::Delete, KeyModifiers::NONE);
    let Some(Popup::Picker(picker)) = &app.popup else {
        panic!("Del lists the locations to remove one")
    };
    assert_eq!(picker.kind, PickerKind::AxisLocation);
    assert_eq!(picker.is_checked(&picker.items[1]), Some(true));
    // The middle one: Down, then Enter.
    key(&mut app, KeyCode::Down, KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    let left: Vec<_> = app
        .compare
        .axes
        .locations
        .iter()
        .map(|l| l.describe())
        .collect();
    assert_eq!(left, ["US", "FR"]);
    assert!(matches!(&app.popup, Some(Popup::Picker(p)) if p.items.len() == 2));
}

#[test]
fn the_comparison_is_ready_for_history_and_export() {
    let mut app = app();
    twelve(&mut app);
    let params = app.compare.history_params(&app.search.request());
    let RequestParams::Compare(list) = &params else {
        panic!("a compare entry")
    };
    assert_eq!(list.len(), 12);
    let json = serde_json::to_value(&params).unwrap();
    assert_eq!(json["compare"].as_array().unwrap().len(), 12);

    app.compare.max_in_flight = Some(16);
    let tags = sent_tags(&send_all(&mut app));
    let sources = "<a href=\"https://www.rei.com/boots\">REI</a>";
    update(
        &mut app,
        Msg::AiDone {
            tag: tags[0],
            result: Ok(answer("chatgpt", "sturdy boots", sources)),
        },
    );
    update(
        &mut app,
        Msg::AiDone {
            tag: tags[1],
            result: Ok(answer(
                "chatgpt",
                "light boots</p><h2>Our picks</h2><p><strong>Price: </strong>About 187 €",
                sources,
            )),
        },
    );
    let markdown = app.compare.to_export().markdown();
    // The answer's own heading sits under its column's, and its bold stays bold.
    assert!(markdown.contains("\n#### Our picks\n"), "{markdown}");
    assert!(markdown.contains("**Price:** About 187 €"), "{markdown}");
    assert!(
        markdown.contains("## 1. ChatGPT · US/NY/New York"),
        "{markdown}"
    );
    assert!(markdown.contains("- rei.com — columns 1, 2"), "{markdown}");
    assert!(markdown.contains("Jaccard"), "{markdown}");
    let json: serde_json::Value = serde_json::from_str(&app.compare.to_export().json()).unwrap();
    assert_eq!(json["summary"]["shared"][0]["domain"], "rei.com");
}

#[test]
fn a_finished_comparison_is_one_history_entry_that_reopens_without_calls() {
    let mut app = app();
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Chatgpt, Model::Perplexity];
    app.compare.rebuild();
    let tags = sent_tags(&send_all(&mut app));
    assert_eq!(tags.len(), 2);
    let sources = "<a href=\"https://www.rei.com/boots\">REI</a>";
    let first = update(
        &mut app,
        Msg::AiDone {
            tag: tags[0],
            result: Ok(answer("chatgpt", "boots one", sources)),
        },
    );
    assert!(
        !first
            .iter()
            .any(|e| matches!(e, Effect::Store(StoreEffect::RecordComparison { .. })))
    );
    // The last column lands 12.3 s after the run began: the entry took that, not 0.0 s.
    app.now += std::time::Duration::from_millis(12_300);
    let last = update(
        &mut app,
        Msg::AiDone {
            tag: tags[1],
            result: Err(ApiError::from_status(504, "Request(s) timed out", None)),
        },
    );
    let (params, columns, took) = last
        .iter()
        .find_map(|e| match e {
            Effect::Store(StoreEffect::RecordComparison {
                params,
                columns,
                elapsed_ms,
                ..
            }) => Some((params.clone(), columns.clone(), *elapsed_ms)),
            _ => None,
        })
        .expect("the comparison is recorded once every column has landed");
    assert_eq!(took, 12_300);
    let RequestParams::Compare(requests) = *params else {
        panic!("one compare entry");
    };
    assert_eq!(requests.len(), 2);

    // Re-opened from history: the answer and the failure come back, no call is sent.
    let body = crate::store::Body {
        status: 200,
        text: columns,
        elapsed_ms: 0,
        received_at: 0,
    };
    let view = crate::app::stored::prepare_comparison(&requests, &body).unwrap();
    let mut fresh = self::app();
    fresh.tab = Tab::Chat;
    let effects = update(&mut fresh, Msg::StoredOpened(Ok(view)));
    assert!(sent_tags(&effects).is_empty());
    assert_eq!(fresh.tab, Tab::Compare);
    assert_eq!(fresh.compare.prompt_text(), "best hiking boots");
    assert_eq!(fresh.compare.columns.len(), 2);
    assert_eq!(fresh.compare.columns[0].vantage.model, Some(Model::Chatgpt));
    assert!(fresh.compare.columns[0].answer().is_some());
    assert!(
        fresh.compare.columns[1]
            .call
            .error()
            .is_some_and(|e| e.to_string().contains("timed out"))
    );
}

/// Runs every column of `app` to an answer and returns the stored comparison, re-opened.
pub(super) fn run_and_reopen(app: &mut App) -> App {
    let tags = sent_tags(&send_all(app));
    let mut recorded = None;
    for tag in tags {
        for effect in update(
            app,
            Msg::AiDone {
                tag,
                result: Ok(answer("chatgpt", "boots", "")),
            },
        ) {
            if let Effect::Store(StoreEffect::RecordComparison {
                params, columns, ..
            }) = effect
            {
                recorded = Some((params, columns));
            }
        }
    }
    let (params, columns) = recorded.expect("recorded once all landed");
    let RequestParams::Compare(requests) = *params else {
        panic!("one compare entry");
    };
    let body = crate::store::Body {
        status: 200,
        text: columns,
        elapsed_ms: 0,
        received_at: 0,
    };
    let view = crate::app::stored::prepare_comparison(&requests, &body).unwrap();
    let mut fresh = self::app();
    fresh.compare.table_scroll = 23;
    update(&mut fresh, Msg::StoredOpened(Ok(view)));
    fresh
}

#[test]
fn a_reopened_comparison_shows_the_setup_it_was_run_with() {
    let mut app = app();
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Perplexity, Model::Gemini];
    app.compare.axes.devices = vec!["iPhone 15".into()];
    app.compare.axes.locations = vec![loc("us:ny:New+York"), loc("de::Berlin"), loc("fr")];
    app.compare.axes.format = crate::api::AiFormat::Raw;
    app.compare.axes.no_cache = true;
    app.compare.rebuild();
    let asked = app.compare.axes.clone();
    let fresh = run_and_reopen(&mut app);
    assert_eq!(fresh.compare.axes, asked);
    assert_eq!(
        cost_line(&fresh),
        (
            "6 columns = 6 calls (6 answers × 5 = 30 credits)".into(),
            true
        )
    );
    assert!(fresh.compare.columns.iter().all(|c| !c.by_hand));
    assert_eq!(fresh.compare.table_scroll, 0, "it opens at the top");
}

#[test]
fn a_column_added_by_hand_stays_one_when_reopened() {
    let mut app = app();
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Perplexity];
    app.compare.axes.locations = vec![loc("de::Berlin"), loc("fr")];
    app.compare.rebuild();
    app.chat.settings.model = Some(Model::Gemini);
    app.compare.focus = CompareFocus::Columns;
    key(&mut app, KeyCode::Char('+'), KeyModifiers::NONE);
    assert_eq!(app.compare.columns.len(), 3);
    let fresh = run_and_reopen(&mut app);
    assert_eq!(
        fresh.compare.axes.models,
        vec![Model::Perplexity, Model::Gemini]
    );
    assert_eq!(fresh.compare.columns.len(), 3);
    let by_hand: Vec<bool> = fresh.compare.columns.iter().map(|c| c.by_hand).collect();
    assert_eq!(by_hand, vec![false, false, true]);
}

#[test]
fn the_rank_table_opens_at_its_top() {
    let mut app = app();
    app.compare.focus = CompareFocus::Columns;
    // Scrolled down the answers' summary, then switched to ranks.
    app.compare.table_scroll = 23;
    key(&mut app, KeyCode::Char('M'), KeyModifiers::NONE);
    assert_eq!(app.compare.mode, CompareMode::Search);
    assert_eq!(app.compare.table_scroll, 0);
    // A new run starts at the top too.
    app.compare.set_prompt("trail shoes");
    app.compare.table_scroll = 5;
    send_all(&mut app);
    assert_eq!(app.compare.table_scroll, 0);
}

#[test]
fn a_cancelled_column_keeps_its_earlier_answer_and_says_so() {
    let mut app = app();
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Chatgpt, Model::Gemini];
    app.compare.rebuild();
    let tags = sent_tags(&send_all(&mut app));
    for tag in tags {
        update(
            &mut app,
            Msg::AiDone {
                tag,
                result: Ok(answer("chatgpt", "first answer", "")),
            },
        );
    }
    app.compare.focus = CompareFocus::Columns;
    app.compare.selected = 1;
    let rerun = key(&mut app, KeyCode::Char('R'), KeyModifiers::SHIFT);
    let tag = sent_tags(&rerun)[0];
    assert!(
        app.compare.columns[1].answer().is_none(),
        "a new run is under way"
    );
    let effects = key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(effects.contains(&Effect::Call(CallEffect::Cancel(tag))));
    let column = &app.compare.columns[1];
    assert!(column.cancelled);
    assert!(
        column
            .answer()
            .is_some_and(|a| a.markdown.contains("first answer")),
        "the earlier answer is back"
    );
    // History keeps this run as cancelled, not the earlier answer.
    assert_eq!(column.stored_body()["status"], 499);

    // Ctrl+X over a fresh run: a column that never answered says cancelled, nothing more.
    let mut app = self::app();
    twelve(&mut app);
    send_all(&mut app);
    key(&mut app, KeyCode::Char('x'), KeyModifiers::CONTROL);
    assert!(
        app.compare
            .columns
            .iter()
            .all(|c| c.cancelled && c.outcome.is_none())
    );
}

#[test]
fn slash_searches_the_focused_column_and_follows_the_focus() {
    let mut app = app();
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Chatgpt, Model::Gemini];
    app.compare.rebuild();
    let tags = sent_tags(&send_all(&mut app));
    let texts = ["waterproof boots", "boots, boots and more boots"];
    for (tag, text) in tags.into_iter().zip(texts) {
        update(
            &mut app,
            Msg::AiDone {
                tag,
                result: Ok(answer("chatgpt", text, "")),
            },
        );
    }
    app.compare.focus = CompareFocus::Columns;
    key(&mut app, KeyCode::Char('/'), KeyModifiers::NONE);
    for c in "boots".chars() {
        key(&mut app, KeyCode::Char(c), KeyModifiers::NONE);
    }
    let effects = key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(
        sent_tags(&effects).is_empty(),
        "Enter keeps the search, runs nothing"
    );
    assert_eq!(app.compare.find.as_ref().unwrap().status(), "1 of 1");
    key(&mut app, KeyCode::Right, KeyModifiers::NONE);
    assert_eq!(app.compare.find.as_ref().unwrap().status(), "1 of 3");
    key(&mut app, KeyCode::Char('N'), KeyModifiers::SHIFT);
    assert_eq!(app.compare.find.as_ref().unwrap().status(), "3 of 3");
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(app.compare.find.is_none());
}

/// The calls a key sent, column or sample.
fn calls_sent(effects: &[Effect]) -> usize {
    effects
        .iter()
        .filter(|e| matches!(e, Effect::Call(call) if !matches!(call, CallEffect::Cancel(_))))
        .count()
}

fn question(app: &App) -> String {
    match &app.popup {
        Some(Popup::Confirm(confirm)) => confirm.question(),
        other => panic!("a question was expected: {other:?}"),
    }
}

/// A run of more than one call asks first, with its calls and credits by the price table,
/// and sends only after the yes; a run of one call sends at once.
#[test]
fn a_run_of_several_calls_asks_with_its_credits_and_sends_after_yes() {
    let mut app = app();
    app.prices.ai = 7;
    app.credits = crate::app::Credits::Known(1000);
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Chatgpt, Model::Gemini];
    app.compare.rebuild();
    app.compare.focus = CompareFocus::Columns;
    let effects = key(&mut app, KeyCode::Char('r'), KeyModifiers::NONE);
    assert_eq!(calls_sent(&effects), 0, "{effects:?}");
    let asked = question(&app);
    assert!(asked.contains("2 answers × 7 = 14 credits"), "{asked}");
    assert!(asked.contains("1000 credits left"), "{asked}");
    // No keeps everything as it was.
    let effects = key(&mut app, KeyCode::Char('n'), KeyModifiers::NONE);
    assert_eq!(calls_sent(&effects), 0, "{effects:?}");
    assert!(app.popup.is_none());
    assert_eq!(app.compare.busy(), 0);
    key(&mut app, KeyCode::Char('r'), KeyModifiers::NONE);
    let effects = key(&mut app, KeyCode::Char('y'), KeyModifiers::NONE);
    assert_eq!(sent_tags(&effects).len(), 2);

    // The focused column asked three times is three calls: it asks too.
    key(&mut app, KeyCode::Char('a'), KeyModifiers::NONE);
    assert_eq!(app.compare.samples_per_column(), 3);
    let effects = key(&mut app, KeyCode::Char('R'), KeyModifiers::SHIFT);
    assert_eq!(calls_sent(&effects), 0);
    let asked = question(&app);
    assert!(asked.contains("column 1 again"), "{asked}");
    assert!(asked.contains("3 answers × 7 = 21 credits"), "{asked}");
    let effects = key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(calls_sent(&effects), 3);

    // One column asked once is one call: no question.
    let mut single = self::app();
    single.compare.set_prompt("best hiking boots");
    single.compare.axes.models = vec![Model::Chatgpt];
    single.compare.rebuild();
    single.compare.focus = CompareFocus::Columns;
    let effects = key(&mut single, KeyCode::Char('r'), KeyModifiers::NONE);
    assert_eq!(sent_tags(&effects).len(), 1);
    assert!(single.popup.is_none());
}

/// Quitting asks while a column waits for its answer, and not once the answer is in: the
/// open question follows the call.
#[test]
fn the_quit_question_follows_the_columns_calls() {
    let mut app = app();
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Chatgpt];
    app.compare.rebuild();
    let tag = sent_tags(&send_all(&mut app))[0];
    app.compare.focus = CompareFocus::Columns;
    key(&mut app, KeyCode::Char('q'), KeyModifiers::NONE);
    assert!(question(&app).contains("still waiting"));
    update(&mut app, Msg::Landed { tag, bytes: 2_000 });
    let asked = question(&app);
    assert!(!asked.contains("waiting"), "{asked}");
    app.popup = None;
    let effects = key(&mut app, KeyCode::Char('q'), KeyModifiers::NONE);
    assert!(app.should_quit, "{:?}", app.popup);
    assert_eq!(effects, vec![Effect::Os(crate::app::OsEffect::Quit)]);
}
