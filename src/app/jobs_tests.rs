//! `update` on the Jobs and History tabs and the async mode of the forms: keys and poll
//! answers in, state and effects out.

use crate::app::{CallEffect, StoreEffect};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::api::JobKind;
use crate::api::{AiRequest, JobId};
use crate::jobs::{JobState, MAX_IN_FLIGHT, PollOutcome};
use crate::store::{Body, EntryId, HistoryItem, JobRecord, NewJob, RequestKind, RequestParams};

const T0: UnixMs = 1_700_000_000_000;

fn app() -> App {
    let mut app = App::new(
        Connection {
            demo: true,
            host: "127.0.0.1:4000".into(),
            token: Some("demo".into()),
            token_hint: "the config file".into(),
        },
        Instant::now(),
    );
    app.set_wall(T0);
    app
}

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn ch(c: char) -> Msg {
    key(KeyCode::Char(c))
}

fn id(n: u32) -> JobId {
    JobId::parse(&format!("00000000-0000-4000-8000-{n:012}")).unwrap()
}

fn record(n: u32, state: JobState) -> JobRecord {
    let mut job = jobs_tab::record_of(&NewJob::submitted(
        id(n),
        RequestParams::Ai(AiRequest::new(format!("question {n}"))),
    ));
    job.created_at = T0 - i64::from(n) * 1_000;
    job.next_poll_at = Some(T0);
    job.state = state;
    job
}

fn polls(effects: &[Effect]) -> Vec<JobId> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Call(CallEffect::PollJob { id, .. }) => Some(id.clone()),
            _ => None,
        })
        .collect()
}

fn go_to(app: &mut App, tab: Tab) -> Vec<Effect> {
    let index = Tab::ALL.iter().position(|t| *t == tab).unwrap();
    let digit = char::from_digit(index as u32 + 1, 10).unwrap();
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::Char(digit), KeyModifiers::ALT)),
    )
}

fn body(text: &str) -> Body {
    Body {
        status: 200,
        text: text.into(),
        elapsed_ms: 40,
        received_at: T0,
    }
}

#[test]
fn an_async_chat_submit_queues_a_job_instead_of_waiting() {
    let mut app = app();
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, ch('a'));
    assert!(app.chat.settings.async_mode);
    update(&mut app, ch('i'));
    for c in "best boots".chars() {
        update(&mut app, ch(c));
    }
    let effects = update(&mut app, key(KeyCode::Enter));
    match &effects[..] {
        [
            Effect::Call(CallEffect::SubmitJob {
                request: RequestParams::Ai(request),
                replaces: None,
            }),
        ] => assert_eq!(request.prompt, "best boots"),
        other => panic!("unexpected effects {other:?}"),
    }
    assert!(!app.chat.call.is_running(), "nothing waits in the form");
}

#[test]
fn an_async_search_submit_queues_a_job() {
    let mut app = app();
    go_to(&mut app, Tab::Search);
    for c in "boots".chars() {
        update(&mut app, ch(c));
    }
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, ch('a'));
    assert_eq!(
        app.search.settings.value_text(search::SearchSetting::Mode),
        "async"
    );
    update(&mut app, ch('i'));
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(
        matches!(&effects[..], [Effect::Call(CallEffect::SubmitJob { request: RequestParams::Search(r), .. })] if r.terms == "boots"),
        "{effects:?}"
    );
}

#[test]
fn a_queued_job_shows_at_once_and_polls_move_it_to_done() {
    let mut app = app();
    let effects = update(&mut app, Msg::JobQueued(Ok(record(1, JobState::Pending))));
    assert!(polls(&effects).is_empty(), "the first poll waits 2 s");
    assert_eq!(app.jobs.rows.len(), 1);
    assert_eq!(app.jobs.next_wake(), Some(T0 + 2_000));

    app.set_wall(T0 + 2_000);
    let effects = update(&mut app, Msg::JobsWake);
    assert_eq!(polls(&effects), vec![id(1)]);

    let effects = update(
        &mut app,
        Msg::JobPolled {
            id: id(1),
            outcome: PollOutcome::Pending,
            result: None,
        },
    );
    assert!(
        matches!(&effects[..], [Effect::Store(StoreEffect::SaveJob { transition, result: None })] if transition.to == JobState::Pending)
    );
    assert_eq!(app.jobs.rows[0].attempts, 1);
    assert_eq!(
        app.jobs.next_wake(),
        Some(T0 + 2_000 + crate::api::client::poll_delay(1).as_millis() as i64),
        "it backs off"
    );

    app.set_wall(T0 + 60_000);
    assert_eq!(polls(&update(&mut app, Msg::JobsWake)), vec![id(1)]);
    let effects = update(
        &mut app,
        Msg::JobPolled {
            id: id(1),
            outcome: PollOutcome::Ready,
            result: Some(body("{}")),
        },
    );
    assert!(
        matches!(&effects[..], [Effect::Store(StoreEffect::SaveJob { transition, result: Some(_) })] if transition.to == JobState::Done)
    );
    let row = &app.jobs.rows[0];
    assert_eq!(row.state, JobState::Done);
    assert_eq!(row.result_size, Some(2));
    assert_eq!(app.jobs.next_wake(), None, "done jobs stop polling");

    go_to(&mut app, Tab::Jobs);
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(matches!(
        &effects[..],
        [Effect::Store(StoreEffect::OpenJob {
            kind: JobKind::Ai,
            ..
        })]
    ));
}

#[test]
fn two_hundred_pending_jobs_never_have_more_than_eight_polls_out() {
    let mut app = app();
    let records = (1..=200).map(|n| record(n, JobState::Pending)).collect();
    let effects = update(&mut app, Msg::JobsLoaded(Ok(records)));
    let first = polls(&effects);
    assert_eq!(first.len(), MAX_IN_FLIGHT);
    assert_eq!(app.jobs.rows.len(), 200);
    // Nothing more while all eight are out, however often the timer fires.
    assert!(polls(&update(&mut app, Msg::JobsWake)).is_empty());
    let mut out = first.len();
    let mut max_out = out;
    for done in first {
        let effects = update(
            &mut app,
            Msg::JobPolled {
                id: done,
                outcome: PollOutcome::Pending,
                result: None,
            },
        );
        out = out - 1 + polls(&effects).len();
        max_out = max_out.max(out);
        assert_eq!(app.jobs.scheduler.in_flight(), out);
    }
    assert_eq!(max_out, MAX_IN_FLIGHT);
}

#[test]
fn resubmit_delete_and_import_do_only_what_they_may() {
    let mut app = app();
    update(
        &mut app,
        Msg::JobsLoaded(Ok(vec![
            record(1, JobState::Failed),
            record(2, JobState::Pending),
        ])),
    );
    go_to(&mut app, Tab::Jobs);
    // Newest first: job 1 (created later) is on top.
    assert_eq!(app.jobs.selected().unwrap().id, id(1));
    // A balance short of an answer's 5 credits refuses the re-submit, saying its cost.
    app.credits = crate::app::Credits::Known(4);
    assert!(update(&mut app, ch('R')).is_empty());
    let flash = app.flash.as_ref().unwrap();
    assert_eq!(flash.level, FlashLevel::Error);
    assert!(
        flash
            .text
            .contains("1 call (1 answer × 5 = 5 credits) and 4 credits are left"),
        "{}",
        flash.text
    );
    app.credits = crate::app::Credits::Known(5);
    let effects = update(&mut app, ch('R'));
    assert!(
        matches!(&effects[..], [Effect::Call(CallEffect::SubmitJob { request: RequestParams::Ai(r), .. })] if r.prompt == "question 1")
    );
    assert!(app.flash.as_ref().unwrap().text.contains("= 5 credits"));
    // The new job lands on top; the selection stays on the job re-submitted, as does it when
    // the store's rows are read again.
    let mut again = record(3, JobState::Pending);
    again.created_at = T0;
    update(&mut app, Msg::JobQueued(Ok(again.clone())));
    assert_eq!(app.jobs.rows[0].id, id(3));
    assert_eq!(app.jobs.selected().unwrap().id, id(1));
    update(
        &mut app,
        Msg::JobsLoaded(Ok(vec![
            again,
            record(1, JobState::Failed),
            record(2, JobState::Pending),
        ])),
    );
    assert_eq!(app.jobs.selected().unwrap().id, id(1));

    update(&mut app, key(KeyCode::Down));
    assert_eq!(app.jobs.selected().unwrap().id, id(2));
    assert!(
        update(&mut app, ch('R')).is_empty(),
        "a pending job is not re-submitted"
    );
    assert!(
        app.flash
            .as_ref()
            .unwrap()
            .text
            .contains("only failed or expired")
    );

    // d asks first; n keeps the job, y deletes it.
    assert!(update(&mut app, ch('d')).is_empty());
    assert!(matches!(app.popup, Some(Popup::Confirm(_))));
    assert!(update(&mut app, ch('n')).is_empty());
    assert_eq!(app.jobs.rows.len(), 3);
    update(&mut app, ch('d'));
    let effects = update(&mut app, ch('y'));
    assert_eq!(effects, vec![Effect::Store(StoreEffect::DeleteJob(id(2)))]);
    assert_eq!(app.jobs.rows.len(), 2);
    assert!(app.jobs.scheduler.get(&id(2)).is_none());

    update(&mut app, ch('i'));
    for c in "browser 1234-not-a-uuid".chars() {
        update(&mut app, ch(c));
    }
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(effects.is_empty(), "nothing is sent for a bad id");
    assert!(
        matches!(app.popup, Some(Popup::Input(_))),
        "the popup stays to fix it"
    );
    let flash = app.flash.as_ref().unwrap();
    assert_eq!(flash.level, FlashLevel::Error);
    assert!(flash.text.contains("not a job id"), "{}", flash.text);

    if let Some(Popup::Input(prompt)) = &mut app.popup {
        prompt.value = format!("browser {}", id(9));
    }
    let effects = update(&mut app, key(KeyCode::Enter));
    assert_eq!(
        effects,
        vec![Effect::Store(StoreEffect::ImportJob {
            id: id(9),
            kind: JobKind::Browser
        })]
    );
}

#[test]
fn an_imported_job_is_polled_at_once() {
    let mut app = app();
    let job = jobs_tab::record_of(&NewJob {
        created_at: T0,
        next_poll_at: T0,
        ..NewJob::imported(id(5), JobKind::Browser)
    });
    go_to(&mut app, Tab::Jobs);
    let effects = update(&mut app, Msg::JobQueued(Ok(job)));
    assert_eq!(polls(&effects), vec![id(5)]);
    // It was imported, not queued, and the Jobs tab already shows it.
    let flash = app.flash.as_ref().map(|f| f.text.as_str());
    assert_eq!(flash, Some("Imported browser job 00000000."));
}

#[test]
fn the_jobs_filter_is_fuzzy_and_esc_drops_it() {
    let mut app = app();
    let mut search = record(3, JobState::Pending);
    search.kind = JobKind::Search;
    search.summary = "hiking boots · US".into();
    update(
        &mut app,
        Msg::JobsLoaded(Ok(vec![record(1, JobState::Done), search])),
    );
    go_to(&mut app, Tab::Jobs);
    update(&mut app, ch('/'));
    assert!(app.editing());
    for c in "hikbo".chars() {
        update(&mut app, ch(c));
    }
    assert_eq!(app.jobs.list.shown.len(), 1);
    assert_eq!(app.jobs.selected().unwrap().id, id(3));
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.jobs.list.shown.len(), 2);
}

#[test]
fn history_reopens_without_a_call_and_reruns_into_the_form() {
    let mut app = app();
    let effects = go_to(&mut app, Tab::History);
    let Some(Effect::Store(StoreEffect::LoadHistoryPage(first))) = effects.first() else {
        panic!("the first page is read: {effects:?}");
    };
    let generation = first.generation;
    let item = |n: &str, status| HistoryItem {
        id: EntryId(n.into()),
        kind: RequestKind::Ai,
        summary: format!("chatgpt · question {n}"),
        created_at: T0 - 60_000,
        origin: crate::store::Origin::App,
        status,
        elapsed_ms: Some(1_200),
        size: Some(3_000),
    };
    update(
        &mut app,
        Msg::HistoryPage(crate::app::history::Page::all(
            generation,
            vec![item("a", Some(200)), item("b", None)],
        )),
    );
    assert_eq!(
        update(&mut app, key(KeyCode::Enter)),
        vec![Effect::Store(StoreEffect::OpenHistory(EntryId("a".into())))]
    );
    assert_eq!(
        update(&mut app, ch('r')),
        vec![Effect::Store(StoreEffect::LoadRerun(EntryId("a".into())))]
    );
    update(&mut app, key(KeyCode::Down));
    assert!(
        update(&mut app, key(KeyCode::Enter)).is_empty(),
        "no response stored"
    );

    let mut request = AiRequest::new("best boots");
    request.location.country = Some("DE".into());
    update(&mut app, Msg::Rerun(Ok(RequestParams::Ai(request))));
    assert_eq!(app.tab, Tab::Chat);
    assert_eq!(app.chat.prompt_text(), "best boots");
    assert_eq!(app.chat.settings.location.country.as_deref(), Some("DE"));

    // Every kind goes back into its form: a page fetch, and a comparison (its columns, no
    // answers, nothing sent).
    let page = crate::api::BrowserRequest::new("https://example.com/boots");
    update(
        &mut app,
        Msg::Rerun(Ok(crate::app::page::browser_params(&page))),
    );
    assert_eq!(app.tab, Tab::Page);
    assert_eq!(app.page.url_text(), "https://example.com/boots");
    let columns = [crate::api::Model::Chatgpt, crate::api::Model::Perplexity].map(|model| {
        let mut request = AiRequest::new("best boots");
        request.model = Some(model);
        RequestParams::Ai(request)
    });
    let effects = update(
        &mut app,
        Msg::Rerun(Ok(RequestParams::Compare(columns.to_vec()))),
    );
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::Call(_))),
        "nothing is sent: {effects:?}"
    );
    assert_eq!(app.tab, Tab::Compare);
    assert_eq!(app.compare.columns.len(), 2);
    assert!(app.compare.columns.iter().all(|c| c.outcome.is_none()));
    assert_eq!(app.compare.axes.models.len(), 2);

    go_to(&mut app, Tab::History);
    update(&mut app, key(KeyCode::Down));
    update(&mut app, ch('d'));
    assert_eq!(
        update(&mut app, key(KeyCode::Enter)),
        vec![Effect::Store(StoreEffect::DeleteHistory(EntryId(
            "b".into()
        )))]
    );
    assert_eq!(app.history.items.len(), 1);
}

#[test]
fn the_ages_tick_only_while_the_jobs_table_shows_jobs() {
    let mut app = app();
    go_to(&mut app, Tab::Jobs);
    assert!(!jobs_tab::ages_on_screen(&app), "no jobs, no tick");
    update(
        &mut app,
        Msg::JobsLoaded(Ok(vec![record(1, JobState::Pending)])),
    );
    assert!(jobs_tab::ages_on_screen(&app));
    go_to(&mut app, Tab::Chat);
    assert!(!jobs_tab::ages_on_screen(&app), "another tab, no tick");
}

#[test]
fn quitting_with_a_call_in_flight_asks_first() {
    let mut app = app();
    go_to(&mut app, Tab::Jobs);
    // Nothing in flight: q quits at once.
    let effects = update(&mut app, ch('q'));
    assert_eq!(effects, vec![Effect::Os(OsEffect::Quit)]);
    let mut app = app_with_a_call();
    assert!(update(&mut app, ch('q')).is_empty());
    assert!(!app.should_quit);
    assert!(matches!(
        app.popup,
        Some(Popup::Confirm(Confirm::Quit { calls: 1 }))
    ));
    update(&mut app, key(KeyCode::Esc));
    assert!(app.popup.is_none() && !app.should_quit);
    // Ctrl+C asks too; a second Ctrl+C quits.
    let ctrl_c = || Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(update(&mut app, ctrl_c()).is_empty());
    assert_eq!(update(&mut app, ctrl_c()), vec![Effect::Os(OsEffect::Quit)]);
    assert!(app.should_quit);
}

fn app_with_a_call() -> App {
    let mut app = app();
    app.chat.prompt = crate::app::input::prompt_editor("");
    app.chat.prompt.insert_str("best boots");
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(!effects.is_empty(), "the prompt was sent");
    assert!(app.in_flight() > 0);
    go_to(&mut app, Tab::Jobs);
    app
}

#[test]
fn a_store_written_elsewhere_is_read_again_where_stored_rows_show() {
    let mut app = app();
    // Entering Jobs looks at the store's version; the first reading is only remembered.
    let effects = go_to(&mut app, Tab::Jobs);
    assert!(
        effects.contains(&Effect::Store(StoreEffect::ReadDataVersion)),
        "{effects:?}"
    );
    assert!(update(&mut app, Msg::StoreVersion(Ok(7))).is_empty());
    // The same version: nothing to read. Another: the jobs are read again.
    assert!(update(&mut app, Msg::StoreVersion(Ok(7))).is_empty());
    assert_eq!(
        update(&mut app, Msg::StoreVersion(Ok(8))),
        vec![Effect::Store(StoreEffect::LoadJobs)]
    );
    // A pending job queued by another process is polled here too; one that ended there is
    // no longer polled here.
    // Its next poll a minute away: not out when the other process ends it.
    let mut later = record(1, JobState::Pending);
    later.next_poll_at = Some(T0 + 60_000);
    update(&mut app, Msg::JobsLoaded(Ok(vec![later])));
    assert!(app.jobs.scheduler.get(&id(1)).is_some());
    update(
        &mut app,
        Msg::JobsLoaded(Ok(vec![
            record(2, JobState::Pending),
            record(1, JobState::Done),
        ])),
    );
    assert!(
        app.jobs.scheduler.get(&id(1)).is_none(),
        "it ended elsewhere"
    );
    assert!(app.jobs.scheduler.get(&id(2)).is_some(), "queued elsewhere");
    assert_eq!(app.jobs.rows.len(), 2);
    // On a tab without stored rows, nothing is looked at or read.
    go_to(&mut app, Tab::Chat);
    assert!(!app.watches_store());
    assert!(update(&mut app, Msg::StoreVersion(Ok(9))).is_empty());
    // Focus regained looks at the store wherever it is, and at the user's keys and theme.
    assert_eq!(
        update(&mut app, Msg::FocusGained),
        vec![
            Effect::Store(StoreEffect::ReadDataVersion),
            Effect::Os(crate::app::OsEffect::ReadUserFiles),
            crate::app::brands::look_again(&app),
        ]
    );
}

/// A long history of jobs is held by its newest (and every open one): the counts by state
/// are the store's, so the title counts them all while the rows stay few.
#[test]
fn the_jobs_counted_by_the_store_are_all_of_them_while_the_rows_are_the_newest() {
    let mut app = app();
    update(
        &mut app,
        Msg::JobsLoaded(Ok(vec![
            record(1, JobState::Done),
            record(2, JobState::Done),
        ])),
    );
    assert_eq!(app.jobs.stored_count(JobState::Done), 2);
    assert_eq!(app.jobs.left_out(), 0);
    update(
        &mut app,
        Msg::JobsCounted(Ok(vec![(JobState::Done, 500_000), (JobState::Failed, 3)])),
    );
    assert_eq!(app.jobs.rows.len(), 2);
    assert_eq!(app.jobs.left_out(), 500_001);
    assert_eq!(app.jobs.stored_count(JobState::Done), 500_000);
    assert_eq!(app.jobs.stored_count(JobState::Failed), 3);
}

#[test]
fn the_line_that_said_a_run_was_queued_gives_way_when_its_jobs_have_ended() {
    let mut app = app();
    update(&mut app, Msg::JobQueued(Ok(record(1, JobState::Pending))));
    app.track.out = Some(("5ef56583".into(), "boots".into()));
    app.flash_info("Run 5ef56583 of boots: 1 of 1 call queued.");
    app.set_wall(T0 + 2_000);
    update(&mut app, Msg::JobsWake);
    update(
        &mut app,
        Msg::JobPolled {
            id: id(1),
            outcome: PollOutcome::Pending,
            result: None,
        },
    );
    assert!(
        app.track.out.is_some(),
        "still out while its job is pending"
    );
    app.set_wall(T0 + 60_000);
    update(&mut app, Msg::JobsWake);
    update(
        &mut app,
        Msg::JobPolled {
            id: id(1),
            outcome: PollOutcome::Ready,
            result: Some(body("{}")),
        },
    );
    let said = app
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(said.contains("Run 5ef56583 of boots has ended"), "{said}");
    assert!(app.track.out.is_none());
}
