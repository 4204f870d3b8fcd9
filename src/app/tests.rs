//! `update` without a terminal: keys in, state and effects out.

use crate::app::{CallEffect, OsEffect, StoreEffect};
use crate::devices::DeviceList;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::chat::ChatFocus;
use super::picker::PickerKind;
use super::*;
use crate::api::{ApiError, Completion, Fetched, Model, RetryNotice};
use crate::present::answer;

use crate::app::test_support::demo_app;

use crate::app::test_support::key;

fn type_text(app: &mut App, text: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for c in text.chars() {
        effects.extend(update(app, key(KeyCode::Char(c))));
    }
    effects
}

fn answer(tag: Tag) -> Msg {
    let completion = Completion {
        model: "chatgpt".into(),
        query: "q".into(),
        completion: "<p>Hello <a href=\"https://a.example/x\">A</a></p>".into(),
        sources: "<a href=\"https://b.example/\">B</a>".into(),
        fanouts: vec!["q one".into()],
        ..Completion::default()
    };
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(1500),
    };
    Msg::AiDone {
        tag,
        result: Ok(Box::new(answer::prepare(
            crate::api::AiRequest::new("q"),
            fetched,
        ))),
    }
}

use crate::api::AiAnswer;

fn sent_tag(effects: &[Effect]) -> Tag {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Call(CallEffect::SendAi { tag, .. }) => Some(*tag),
            _ => None,
        })
        .expect("a request was sent")
}

#[test]
fn typing_and_enter_sends_the_prompt_with_the_settings() {
    let mut app = demo_app();
    assert!(type_text(&mut app, "best hiking boots").is_empty());
    let effects = update(&mut app, key(KeyCode::Enter));
    match &effects[..] {
        [Effect::Call(CallEffect::SendAi { request, .. })] => {
            assert_eq!(request.prompt, "best hiking boots");
            assert_eq!(request.model, None);
            assert_eq!(request.expiration, None);
        }
        other => panic!("unexpected effects {other:?}"),
    }
    assert!(app.chat.call.is_running());
    assert!(app.animating());
    assert_eq!(app.in_flight(), 1);
}

#[test]
fn alt_enter_inserts_a_newline_instead_of_sending() {
    let mut app = demo_app();
    type_text(&mut app, "a");
    let effects = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT)),
    );
    assert!(effects.is_empty());
    type_text(&mut app, "b");
    assert_eq!(app.chat.prompt_text(), "a\nb");
}

#[test]
fn an_over_long_prompt_is_refused_with_the_reason() {
    let mut app = demo_app();
    app.chat.set_prompt(&"x".repeat(2048));
    assert!(app.chat.prompt_over_limit());
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(effects.is_empty());
    let flash = app.flash.as_ref().expect("a message");
    assert_eq!(flash.level, FlashLevel::Error);
    assert!(flash.text.contains("2048 characters"), "{}", flash.text);
    assert!(flash.text.contains("2047"));
}

#[test]
fn the_saved_device_list_shows_until_a_fresh_one_and_outlives_a_failed_fetch() {
    let mut app = demo_app();
    let start = app.start();
    assert!(start.contains(&Effect::Store(StoreEffect::LoadDevices)));
    assert_eq!(app.devices, Devices::Loading);
    update(
        &mut app,
        Msg::DevicesCached(DeviceList::Ai, vec!["iPhone 15".into()]),
    );
    assert_eq!(app.devices, Devices::Loaded(vec!["iPhone 15".into()]));
    // The fetch failing keeps the saved list usable.
    let failed = ApiError::Transport {
        kind: crate::api::TransportKind::Connect,
        detail: "connection refused".into(),
    };
    update(&mut app, Msg::Devices(DeviceList::Ai, Err(failed)));
    assert_eq!(app.devices, Devices::Loaded(vec!["iPhone 15".into()]));
    // A fresh list replaces it and is saved; a late cached one does not overwrite it.
    let effects = update(
        &mut app,
        Msg::Devices(DeviceList::Ai, Ok(vec!["Pixel 9".into()])),
    );
    assert_eq!(
        effects,
        vec![Effect::Store(StoreEffect::SaveDevices(
            DeviceList::Ai,
            vec!["Pixel 9".into()]
        ))]
    );
    update(
        &mut app,
        Msg::DevicesCached(DeviceList::Ai, vec!["iPhone 15".into()]),
    );
    assert_eq!(app.devices, Devices::Loaded(vec!["Pixel 9".into()]));
}

#[test]
fn without_a_token_nothing_is_sent_and_d_offers_the_demo() {
    let mut app = demo_app();
    app.connection.demo = false;
    app.connection.token = None;
    assert!(app.banner().unwrap().contains("Press D"));
    // Only the stored jobs are read: nothing goes to the service.
    assert_eq!(
        app.start(),
        vec![
            Effect::Store(StoreEffect::ReadDataVersion),
            Effect::Store(StoreEffect::LoadJobs),
            Effect::Store(StoreEffect::LoadWorkspace {
                explicit: None,
                unless_read: None
            })
        ]
    );
    type_text(&mut app, "hi");
    assert!(update(&mut app, key(KeyCode::Enter)).is_empty());
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(
        update(&mut app, key(KeyCode::Char('D'))),
        vec![Effect::Os(OsEffect::SwitchToDemo(app.prices))]
    );
}

#[test]
fn single_keys_act_only_outside_text_fields() {
    let mut app = demo_app();
    // `:` too: the palette's key is text in a field, as help's is.
    type_text(&mut app, "q?:");
    assert_eq!(app.chat.prompt_text(), "q?:");
    assert!(app.popup.is_none());
    assert!(!app.should_quit);
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.chat.focus, ChatFocus::Answer);
    update(&mut app, key(KeyCode::Char('?')));
    assert!(
        matches!(&app.popup, Some(Popup::Help(help)) if help.scroll == 0 && help.filter.is_empty())
    );
    update(&mut app, key(KeyCode::Esc));
    assert!(app.popup.is_none());
    assert_eq!(
        update(&mut app, key(KeyCode::Char('q'))),
        vec![Effect::Os(OsEffect::Quit)]
    );
    assert!(app.should_quit);
}

#[test]
fn ctrl_c_quits_even_while_typing() {
    let mut app = demo_app();
    let effects = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
    );
    assert_eq!(effects, vec![Effect::Os(OsEffect::Quit)]);
}

#[test]
fn ctrl_c_asks_while_an_answer_is_awaited_and_quits_at_once_while_one_is_only_read() {
    let ctrl_c = || Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    let mut app = demo_app();
    type_text(&mut app, "best hiking boots");
    update(&mut app, key(KeyCode::Enter));
    let tag = app.chat.call.tag().expect("a call runs");
    assert!(update(&mut app, ctrl_c()).is_empty());
    assert!(matches!(app.popup, Some(Popup::Confirm(_))));
    update(&mut app, key(KeyCode::Char('n')));
    assert!(app.popup.is_none());
    // In: kept in History, only its reading is left.
    update(
        &mut app,
        Msg::Landed {
            tag,
            bytes: 1 << 20,
        },
    );
    assert!(app.animating(), "the reading's spinner still turns");
    assert_eq!(update(&mut app, ctrl_c()), vec![Effect::Os(OsEffect::Quit)]);
}

#[test]
fn tab_cycles_the_focus_through_the_panes() {
    let mut app = demo_app();
    assert_eq!(app.chat.focus, ChatFocus::Prompt);
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.chat.focus, ChatFocus::Settings);
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.chat.focus, ChatFocus::Answer);
    update(&mut app, key(KeyCode::BackTab));
    assert_eq!(app.chat.focus, ChatFocus::Settings);
}

#[test]
fn pickers_filter_and_set_the_location_and_a_new_country_clears_the_city() {
    let mut app = demo_app();
    update(&mut app, key(KeyCode::Esc));
    // A city needs a country first.
    update(&mut app, key(KeyCode::Char('t')));
    assert!(app.popup.is_none());
    assert!(app.flash.as_ref().unwrap().text.contains("country first"));

    update(&mut app, key(KeyCode::Char('c')));
    type_text(&mut app, "germany");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.chat.settings.location.country.as_deref(), Some("DE"));

    update(&mut app, key(KeyCode::Char('t')));
    type_text(&mut app, "munchen");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.chat.settings.location.city.as_deref(), Some("München"));

    update(&mut app, key(KeyCode::Char('s')));
    type_text(&mut app, "bayern");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(
        app.chat.settings.location.subdivision.as_deref(),
        Some("BY")
    );

    update(&mut app, key(KeyCode::Char('c')));
    type_text(&mut app, "france");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.chat.settings.location.country.as_deref(), Some("FR"));
    assert_eq!(app.chat.settings.location.city, None);
    assert_eq!(app.chat.settings.location.subdivision, None);
}

#[test]
fn a_city_not_in_the_list_can_be_typed() {
    let mut app = demo_app();
    app.chat.settings.location.country = Some("US".into());
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('t')));
    type_text(&mut app, "Smallville Xq");
    update(&mut app, key(KeyCode::End));
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(
        app.chat.settings.location.city.as_deref(),
        Some("Smallville Xq")
    );
}

#[test]
fn the_model_picker_sets_the_model_and_esc_keeps_the_old_value() {
    let mut app = demo_app();
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('m')));
    type_text(&mut app, "gem");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.chat.settings.model, Some(Model::Gemini));
    update(&mut app, key(KeyCode::Char('m')));
    type_text(&mut app, "cop");
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.chat.settings.model, Some(Model::Gemini));
}

#[test]
fn an_empty_device_list_says_so_and_takes_a_typed_name() {
    let mut app = demo_app();
    update(&mut app, Msg::Devices(DeviceList::Ai, Ok(Vec::new())));
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('d')));
    match &app.popup {
        Some(Popup::Picker(p)) => {
            assert_eq!(p.kind, PickerKind::Device);
            assert!(p.note.as_ref().unwrap().contains("no devices"));
        }
        _ => panic!("the device picker is open"),
    }
    type_text(&mut app, "Nokia 3310");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.chat.settings.device.as_deref(), Some("Nokia 3310"));
}

#[test]
fn a_typed_device_the_list_lacks_is_refused_and_desktop_sends_none() {
    let mut app = demo_app();
    let listed = vec!["iPhone 15".to_string(), "Nokia N9".to_string()];
    update(&mut app, Msg::Devices(DeviceList::Ai, Ok(listed)));
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('d')));
    type_text(&mut app, "Nokia 3310");
    update(&mut app, key(KeyCode::Enter));
    assert!(
        matches!(&app.popup, Some(Popup::Picker(p)) if p.kind == PickerKind::Device),
        "the picker stays open"
    );
    let flash = app
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(flash.contains("Nokia N9"), "{flash}");
    assert_eq!(app.chat.settings.device, None);
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('d')));
    type_text(&mut app, "iphone 15");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.chat.settings.device.as_deref(), Some("iPhone 15"));
    update(&mut app, key(KeyCode::Char('d')));
    type_text(&mut app, "desktop");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.chat.settings.device, None, "desktop is no emulation");
    assert_eq!(app.chat.request().device, None);
}

#[test]
fn a_set_whose_device_the_list_lacks_does_not_run() {
    let mut app = demo_app();
    update(
        &mut app,
        Msg::Devices(DeviceList::Ai, Ok(vec!["Nokia N9".to_string()])),
    );
    app.brands_pane.workspace = Some(
        crate::analysis::workspace::Workspace::parse(
            std::path::Path::new("/work/shop/vantage.toml"),
            "[[sets]]\nname = \"boots\"\nprompts = [\"best hiking boots\"]\ndevices = [\"desktop\", \"Nokia 3310\"]\n",
        )
        .unwrap(),
    );
    let effects = super::track::run(&mut app, "boots");
    assert!(effects.is_empty(), "nothing is sent");
    let flash = app
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(
        flash.contains("Nokia 3310") && flash.contains("Nokia N9"),
        "{flash}"
    );
}

#[test]
fn format_and_cache_toggle_and_reach_the_request() {
    let mut app = demo_app();
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('f')));
    update(&mut app, key(KeyCode::Char('x')));
    let request = app.chat.request();
    assert_eq!(request.format, crate::api::AiFormat::Rendered);
    assert_eq!(request.expiration, Some(0));
}

#[test]
fn esc_cancels_the_call_and_its_late_answer_is_dropped() {
    let mut app = demo_app();
    type_text(&mut app, "hi");
    let tag = sent_tag(&update(&mut app, key(KeyCode::Enter)));
    // The focus moved to the answer, where Esc cancels.
    assert_eq!(
        update(&mut app, key(KeyCode::Esc)),
        vec![Effect::Call(CallEffect::Cancel(tag))]
    );
    assert!(!app.chat.call.is_running());
    update(&mut app, answer(tag));
    assert!(app.chat.answer.is_none());
}

#[test]
fn an_answer_lands_with_its_sources_and_views() {
    let mut app = demo_app();
    type_text(&mut app, "hi");
    let tag = sent_tag(&update(&mut app, key(KeyCode::Enter)));
    let effects = update(&mut app, answer(tag));
    assert_eq!(effects, vec![Effect::Call(CallEffect::FetchAccount)]);
    let state = app.chat.answer.as_ref().unwrap();
    let urls: Vec<&str> = state
        .prepared
        .sources
        .iter()
        .map(|s| s.url.as_str())
        .collect();
    assert_eq!(urls, vec!["https://b.example/", "https://a.example/x"]);
    update(&mut app, key(KeyCode::Char(']')));
    assert_eq!(
        app.chat.answer.as_ref().unwrap().view,
        answer::AnswerView::Sources
    );
    update(&mut app, key(KeyCode::Down));
    assert_eq!(
        update(&mut app, key(KeyCode::Char('o'))),
        vec![Effect::Os(OsEffect::OpenUrl("https://a.example/x".into()))]
    );
    assert_eq!(
        update(&mut app, key(KeyCode::Char('y'))),
        vec![Effect::Os(OsEffect::Copy(
            "https://a.example/x".to_string().into()
        ))]
    );
}

#[test]
fn a_retry_wait_shows_a_countdown_and_a_402_the_top_up_banner() {
    let mut app = demo_app();
    type_text(&mut app, "hi");
    let tag = sent_tag(&update(&mut app, key(KeyCode::Enter)));
    let error = ApiError::from_status(
        503,
        "Service is autoscaling; please retry in 9 seconds",
        None,
    );
    update(
        &mut app,
        Msg::Retrying {
            tag,
            notice: RetryNotice {
                attempt: 1,
                wait: Duration::from_secs(9),
                error,
            },
        },
    );
    match &app.chat.call {
        call::CallState::Running { retry: Some(c), .. } => {
            assert_eq!(seconds_until(app.now, c.until), 9);
        }
        other => panic!("no countdown: {other:?}"),
    }
    let error = ApiError::from_status(
        402,
        "Credit balance is 0; top up at https://x.test/plans",
        None,
    );
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Err(error),
        },
    );
    assert!(app.chat.call.error().is_some());
    assert!(app.banner().unwrap().contains("https://x.test/plans"));
}

#[test]
fn export_writes_markdown_or_json_by_the_name() {
    let mut app = demo_app();
    type_text(&mut app, "hi");
    let tag = sent_tag(&update(&mut app, key(KeyCode::Enter)));
    update(&mut app, answer(tag));
    update(&mut app, key(KeyCode::Char('e')));
    assert!(matches!(app.popup, Some(Popup::Input(_))));
    // Clear the suggested name and type our own, without an extension.
    for _ in 0..60 {
        update(&mut app, key(KeyCode::Backspace));
    }
    type_text(&mut app, "out");
    match &update(&mut app, key(KeyCode::Enter))[..] {
        [Effect::Os(OsEffect::WriteFile { path, contents, .. })] => {
            assert_eq!(path.to_str(), Some("out.md"));
            let contents = contents.make();
            assert!(contents.starts_with("# q"));
            assert!(contents.contains("## Sources"));
            assert!(contents.contains("- q one"));
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn the_balance_follows_the_account_and_zero_means_exhausted() {
    let mut app = demo_app();
    update(
        &mut app,
        Msg::Account(Ok(crate::api::Account {
            email: "a".into(),
            credits: Some(12),
        })),
    );
    assert_eq!(app.credits, Credits::Known(12));
    update(
        &mut app,
        Msg::Account(Ok(crate::api::Account {
            email: "a".into(),
            credits: Some(0),
        })),
    );
    assert!(matches!(app.credits, Credits::Exhausted { .. }));
}

#[test]
fn alt_digits_pick_tabs_and_unknown_tabs_say_so() {
    let mut app = demo_app();
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('1'), KeyModifiers::ALT)),
    );
    assert_eq!(app.tab, Tab::Chat);
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('9'), KeyModifiers::ALT)),
    );
    assert!(app.flash.as_ref().unwrap().text.contains("no tab 9"));
}

#[test]
fn opening_usage_asks_again_when_a_call_landed_since_the_held_back_ask() {
    let mut app = demo_app();
    let asks = |effects: &[Effect]| {
        effects
            .iter()
            .filter(|e| matches!(e, Effect::Call(CallEffect::FetchUsage(_))))
            .count()
    };
    // Asked at start; a call landing a moment later is held back by the throttle.
    assert!(super::usage::refresh(&mut app).is_some());
    app.set_clock(app.now + Duration::from_secs(2));
    assert!(super::usage::refresh(&mut app).is_none());
    // Opening the overlay does not show the report from before that call.
    assert_eq!(asks(&super::usage::toggle(&mut app)), 1);
    // Closed and opened again with nothing new: no second ask.
    assert_eq!(asks(&super::usage::toggle(&mut app)), 0);
    assert_eq!(asks(&super::usage::toggle(&mut app)), 0);
}

#[test]
fn the_usage_overlay_closes_with_esc_and_does_not_follow_to_another_tab() {
    let mut app = demo_app();
    super::usage::toggle(&mut app);
    assert!(app.usage.shown);
    update(&mut app, key(KeyCode::Esc));
    assert!(!app.usage.shown, "Esc closes it, as its title says");
    super::usage::toggle(&mut app);
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('2'), KeyModifiers::ALT)),
    );
    assert!(!app.usage.shown, "another tab is shown without it");
}

#[test]
fn opening_compare_puts_the_focus_on_its_columns_so_keys_are_commands() {
    let mut app = demo_app();
    let index = Tab::ALL.iter().position(|t| *t == Tab::Compare).unwrap();
    let alt = |c| Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::ALT));
    update(
        &mut app,
        alt(char::from_digit(index as u32 + 1, 10).unwrap()),
    );
    assert_eq!(app.tab, Tab::Compare);
    let mode = app.compare.mode;
    update(&mut app, key(KeyCode::Char('M')));
    assert_ne!(app.compare.mode, mode, "M switched the mode");
    assert_eq!(
        app.compare.prompt_text(),
        "",
        "M was not typed into the prompt"
    );
}

#[test]
fn a_key_that_does_nothing_where_the_focus_is_says_where_it_works() {
    let mut app = demo_app();
    app.chat.focus = ChatFocus::Settings;
    update(&mut app, key(KeyCode::Char(']')));
    let flash = format!("{:?}", app.flash);
    assert!(flash.contains("] (next view) works in"), "{flash}");
    assert!(flash.contains("Tab moves the focus"), "{flash}");
}

fn app_showing_a_set(credits: Credits) -> App {
    let mut app = demo_app();
    app.tab = Tab::Track;
    app.credits = credits;
    app.brands_pane.workspace = Some(
        crate::analysis::workspace::Workspace::parse(
            std::path::Path::new("/work/shop/vantage.toml"),
            "[[sets]]\nname = \"boots\"\nprompts = [\"a\", \"b\"]\nmodels = [\"chatgpt\", \"gemini\"]\nsamples = 3\n",
        )
        .unwrap(),
    );
    app.track.view = Some(crate::track::view::TrackView {
        set: Some("boots".to_string()),
        ..Default::default()
    });
    app
}

/// `R` in Track says the run's calls (samples included), their credits by the price table
/// and the balance before a yes, and refuses at once what the balance cannot cover: in
/// credits, not in calls.
#[test]
fn r_asks_before_running_the_shown_set_and_refuses_what_the_credits_cannot_cover() {
    let mut app = app_showing_a_set(Credits::Known(100));
    assert!(update(&mut app, key(KeyCode::Char('R'))).is_empty());
    let Some(Popup::Confirm(confirm)) = &app.popup else {
        panic!("R asks first: {:?}", app.popup);
    };
    assert_eq!(
        confirm.question(),
        "Run the set boots now? 12 calls (12 answers × 5 = 60 credits; each answer asked 3 times); 100 credits left, queued as jobs; the Track tab charts the run as its answers land."
    );
    let effects = update(&mut app, key(KeyCode::Char('y')));
    match effects.as_slice() {
        [Effect::Call(CallEffect::RunSet { set, calls })] => {
            assert_eq!((set.as_str(), calls.len()), ("boots", 12));
        }
        other => panic!("the run is sent: {other:?}"),
    }
    // A second R while it is sent does not send it twice.
    update(&mut app, key(KeyCode::Char('R')));
    assert!(app.popup.is_none());

    // 20 credits cover the 12 calls at a credit each, not their 60 credits.
    let mut poor = app_showing_a_set(Credits::Known(20));
    assert!(update(&mut poor, key(KeyCode::Char('R'))).is_empty());
    assert!(poor.popup.is_none());
    let flash = format!("{:?}", poor.flash);
    assert!(flash.contains("= 60 credits"), "{flash}");
    assert!(flash.contains("20 credits are left: not sent"), "{flash}");

    // A table of the config file's prices is the one the cost is said by.
    let mut cheap = app_showing_a_set(Credits::Known(20));
    cheap.prices.ai = 1;
    update(&mut cheap, key(KeyCode::Char('R')));
    let Some(Popup::Confirm(confirm)) = &cheap.popup else {
        panic!("R asks first: {:?}", cheap.flash);
    };
    assert!(confirm.question().contains("12 answers × 1 = 12 credits"));
}

/// Enter in Track before the runs are read says they are being read, not that there are
/// none; once they land that sentence goes, and Enter shows the selected run's set. "No
/// runs yet" is said only when the read found none.
#[test]
fn enter_before_the_runs_are_read_says_they_are_being_read() {
    use crate::store::{RunId, RunSummary};
    use crate::track::view::TrackView;
    let mut app = demo_app();
    app.tab = Tab::Track;
    app.track.loading = true;
    assert!(update(&mut app, key(KeyCode::Enter)).is_empty());
    let said = app
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(said.contains("still being read"), "{said}");
    assert!(!said.contains("No runs"), "{said}");
    let run = RunSummary {
        id: RunId("00000001-0000-4000-8000-000000000000".to_string()),
        set_name: "boots".to_string(),
        started_at: 1_700_000_000_000,
        planned: 2,
        queued: 2,
        unsent: 0,
        refused: 0,
        done: 2,
        failed: 0,
        pending: 0,
        done_answers: 2,
    };
    let listed = TrackView {
        runs: vec![run],
        ..Default::default()
    };
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(listed))));
    assert!(app.flash.is_none(), "{:?}", app.flash);
    let effects = update(&mut app, key(KeyCode::Enter));
    assert_eq!(
        effects,
        vec![Effect::Store(StoreEffect::LoadTrack {
            set: Some("boots".to_string())
        })]
    );
    // A read that found no runs says so.
    let mut empty = demo_app();
    empty.tab = Tab::Track;
    update(&mut empty, Msg::TrackLoaded(Ok(Box::default())));
    update(&mut empty, key(KeyCode::Enter));
    let said = empty
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(said.starts_with("No runs yet"), "{said}");
}
