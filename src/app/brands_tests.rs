//! The Brands pane and the mentions it feeds, without a terminal or files: keys in, the
//! workspace file's new text out.

use std::path::Path;
use std::time::Duration;

use crossterm::event::KeyCode;

use super::LoadedWorkspace;
use crate::analysis::workspace::Workspace;
use crate::api::{AiAnswer, AiRequest, Completion, Fetched};
use crate::app::{App, CallEffect, Effect, Msg, StoreEffect, update};
use crate::present::answer::{self, AnswerView};

use crate::app::test_support::demo_app as app;

use crate::app::test_support::key;

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        update(app, key(KeyCode::Char(c)));
    }
}

const FILE: &str = "# Boots we follow.\n[[brands]]\nname = \"Merrell\" # the Moab\n\n# Second.\n[[brands]]\nname = \"Lowa\"\n";

fn loaded(app: &mut App, text: Option<&str>) {
    let path = Path::new("/work/shop/vantage.toml");
    let workspace = match text {
        Some(text) => Workspace::parse(path, text).unwrap(),
        None => Workspace::empty(path),
    };
    update(
        app,
        Msg::WorkspaceLoaded(Ok(LoadedWorkspace {
            workspace,
            existed: text.is_some(),
        })),
    );
}

/// An app showing an answer that names Löwa before Merrell and cites merrell.com.
fn with_answer(app: &mut App) {
    type_text(app, "best hiking boots");
    let effects = update(app, key(KeyCode::Enter));
    let tag = effects
        .iter()
        .find_map(|e| match e {
            Effect::Call(CallEffect::SendAi { tag, .. }) => Some(*tag),
            _ => None,
        })
        .expect("a request was sent");
    let completion = Completion {
        model: "chatgpt".into(),
        completion: concat!(
            "<p>The <strong>Löwa Renegade</strong> is sturdy. ",
            "The <strong>Merrell Moab</strong> is light. Merrell makes it wide.</p>",
            "<ul><li>Salomon X Ultra: fast</li></ul>",
            "<p><a href=\"https://www.merrell.com/moab\">Moab</a></p>"
        )
        .into(),
        ..Completion::default()
    };
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(900),
    };
    update(
        app,
        Msg::AiDone {
            tag,
            result: Ok(Box::new(answer::prepare(
                AiRequest::new("best hiking boots"),
                fetched,
            ))),
        },
    );
}

fn saved_text(effects: &[Effect]) -> (String, bool) {
    match effects {
        [Effect::Store(StoreEffect::SaveWorkspace { text, created, .. })] => {
            (text.clone(), *created)
        }
        other => panic!("one write of the file was expected: {other:?}"),
    }
}

#[test]
fn mentions_follow_the_answer_and_the_brands() {
    let mut app = app();
    with_answer(&mut app);
    assert!(app.chat.answer.as_ref().unwrap().mentions.is_empty());
    loaded(&mut app, Some(FILE));
    let names: Vec<&str> = app.brands.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["Merrell", "Lowa"]);
    let mentions = &app.chat.answer.as_ref().unwrap().mentions;
    // In order of first mention: Löwa is Lowa.
    assert_eq!(mentions[0].brand, "Lowa");
    assert_eq!(mentions[0].position, Some(1));
    assert_eq!(mentions[1].brand, "Merrell");
    assert_eq!((mentions[1].count, mentions[1].position), (2, Some(2)));
    assert!(!mentions[1].cited, "no domain of Merrell's is listed yet");
    assert_eq!(app.chat.marks, ["merrell", "lowa"]);
    // Brands that change count again: the answer cites www.merrell.com.
    loaded(
        &mut app,
        Some("[[brands]]\nname = \"Merrell\"\ndomains = [\"merrell.com\"]\n"),
    );
    let mentions = &app.chat.answer.as_ref().unwrap().mentions;
    assert_eq!(mentions.len(), 1);
    assert!(mentions[0].cited);
}

#[test]
fn a_brand_added_in_the_pane_is_tracked_and_written_where_it_will_be_created() {
    let mut app = app();
    loaded(&mut app, None);
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('b')));
    assert!(app.brands_pane.open);
    update(&mut app, key(KeyCode::Char('a')));
    assert!(app.editing(), "the editor takes the keys");
    type_text(&mut app, "Salomon");
    update(&mut app, key(KeyCode::Tab));
    type_text(&mut app, "Salomon Group");
    update(&mut app, key(KeyCode::Tab));
    type_text(&mut app, "salomon.com, www.salomon.fr");
    let (text, created) = saved_text(&update(&mut app, key(KeyCode::Enter)));
    assert!(created, "there was no file");
    assert!(text.contains("name = \"Salomon\""), "{text}");
    assert!(
        text.contains("domains = [\"salomon.com\", \"www.salomon.fr\"]"),
        "{text}"
    );
    assert_eq!(app.brands[0].aliases, ["Salomon Group"]);
    assert!(!app.editing());
    // The write lands: the status line says where the file is.
    update(
        &mut app,
        Msg::WorkspaceSaved {
            path: "/work/shop/vantage.toml".into(),
            created: true,
            result: Ok(()),
        },
    );
    let flash = app.flash.as_ref().unwrap().text.clone();
    assert!(flash.contains("Created /work/shop/vantage.toml"), "{flash}");
}

#[test]
fn the_domains_field_splits_as_the_flag_does_and_refuses_what_is_not_a_domain() {
    let mut app = app();
    loaded(&mut app, None);
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('b')));
    update(&mut app, key(KeyCode::Char('a')));
    type_text(&mut app, "Lowa");
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Tab));
    type_text(&mut app, "lowa");
    // Not a domain: nothing is written, the form stays open and the sentence says why.
    assert!(update(&mut app, key(KeyCode::Enter)).is_empty());
    assert!(app.editing());
    let flash = app.flash.as_ref().unwrap().text.clone();
    assert!(flash.contains("\"lowa\" is not a domain"), "{flash}");
    type_text(&mut app, ".com+lowa.de");
    let (text, _) = saved_text(&update(&mut app, key(KeyCode::Enter)));
    assert!(
        text.contains("domains = [\"lowa.com\", \"lowa.de\"]"),
        "{text}"
    );
    assert_eq!(app.brands[0].domains, ["lowa.com", "lowa.de"]);
}

#[test]
fn a_workspace_file_that_cannot_be_read_stops_chat_sends_as_it_stops_the_cli() {
    let mut app = app();
    let problem = "The workspace file /work/shop/vantage.toml is not valid TOML at line 3: expected `]`. Fix that line, or move the file away to start with no tracked brands.";
    update(&mut app, Msg::WorkspaceLoaded(Err(problem.to_string())));
    type_text(&mut app, "best hiking boots");
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(effects.is_empty(), "nothing is sent: {effects:?}");
    let flash = app.flash.as_ref().unwrap().text.clone();
    assert_eq!(flash, format!("Not sent: {problem}"));
    // Fixed: the same Enter sends.
    loaded(&mut app, Some(FILE));
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Call(CallEffect::SendAi { .. }))),
        "{effects:?}"
    );
}

#[test]
fn suggestions_come_from_the_answer_and_enter_tracks_one() {
    let mut app = app();
    loaded(&mut app, Some(FILE));
    with_answer(&mut app);
    let suggestions: Vec<String> = super::suggestions(&app)
        .iter()
        .map(|s| s.name.clone())
        .collect();
    assert!(
        suggestions.contains(&"Salomon X Ultra".to_string()),
        "{suggestions:?}"
    );
    // Names of tracked brands, and their products, are not offered again.
    assert!(
        !suggestions.iter().any(|s| s.contains("Merrell")),
        "{suggestions:?}"
    );
    update(&mut app, key(KeyCode::Char('b')));
    let at = suggestions
        .iter()
        .position(|s| s == "Salomon X Ultra")
        .unwrap();
    for _ in 0..app.brands.len() + at {
        update(&mut app, key(KeyCode::Down));
    }
    let (text, created) = saved_text(&update(&mut app, key(KeyCode::Enter)));
    assert!(!created);
    // Comments and order kept; the new brand last.
    assert!(
        text.starts_with("# Boots we follow.\n[[brands]]\nname = \"Merrell\" # the Moab\n\n# Second.\n[[brands]]\nname = \"Lowa\"\n"),
        "{text}"
    );
    assert!(text.ends_with("name = \"Salomon X Ultra\"\n"), "{text}");
    assert_eq!(app.brands.len(), 3);
    assert_eq!(
        app.brands_pane.selected, 2,
        "the selection follows the brand tracked"
    );
    assert!(
        !super::suggestions(&app)
            .iter()
            .any(|s| s.name == "Salomon X Ultra")
    );
    // The mentions were counted again with it.
    let mentions = &app.chat.answer.as_ref().unwrap().mentions;
    assert!(
        mentions
            .iter()
            .any(|m| m.brand == "Salomon X Ultra" && m.position == Some(3))
    );
}

#[test]
fn a_brand_edited_keeps_its_place_and_comments_and_one_removed_goes() {
    let mut app = app();
    loaded(&mut app, Some(FILE));
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('b')));
    // Enter edits Merrell: a domain is added.
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Tab));
    type_text(&mut app, "merrell.com");
    let (text, _) = saved_text(&update(&mut app, key(KeyCode::Enter)));
    assert!(
        text.starts_with("# Boots we follow.\n[[brands]]\nname = \"Merrell\""),
        "{text}"
    );
    assert!(text.contains("domains = [\"merrell.com\"]"), "{text}");
    assert!(
        text.contains("# Second.\n[[brands]]\nname = \"Lowa\""),
        "{text}"
    );
    assert_eq!(app.brands[0].domains, ["merrell.com"]);
    // d removes the selected brand (Lowa).
    update(&mut app, key(KeyCode::Down));
    let (text, _) = saved_text(&update(&mut app, key(KeyCode::Char('d'))));
    assert!(!text.contains("Lowa"), "{text}");
    assert_eq!(app.brands.len(), 1);
    update(&mut app, key(KeyCode::Esc));
    assert!(!app.brands_pane.open);
}

#[test]
fn enter_on_a_mention_shows_it_in_the_answer() {
    let mut app = app();
    loaded(&mut app, Some(FILE));
    with_answer(&mut app);
    for _ in 0..8 {
        if app.chat.answer.as_ref().unwrap().view == AnswerView::Mentions {
            break;
        }
        update(&mut app, key(KeyCode::Char(']')));
    }
    update(&mut app, key(KeyCode::Down));
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(effects.is_empty(), "Enter in Mentions asks nothing again");
    let answer = app.chat.answer.as_ref().unwrap();
    assert_eq!(answer.view, AnswerView::Answer);
    assert_eq!(app.chat.find.as_ref().unwrap().query, "Merrell");
}

#[test]
fn marks_are_whole_words_without_case_or_diacritics() {
    let marks = vec![
        super::super::text_search::fold_term("Lowa"),
        "x ultra".to_string(),
    ];
    assert_eq!(
        super::super::text_search::mark_ranges("Löwa and Lowang, LOWA. X Ultra!", &marks),
        [(0, 4), (17, 21), (23, 30)]
    );
    assert!(super::super::text_search::mark_ranges("Lowa", &[]).is_empty());
}

#[test]
fn d_lists_the_untracked_names_of_stored_answers_and_enter_tracks_one() {
    let mut app = app();
    loaded(&mut app, Some(FILE));
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('b')));
    let effects = update(&mut app, key(KeyCode::Char('D')));
    let Some(Effect::Store(StoreEffect::DiscoverNames { tracked })) = effects.first() else {
        panic!("the stored answers are read off the UI task: {effects:?}");
    };
    assert_eq!(tracked.len(), 2);
    assert!(app.brands_pane.discovering);
    let name = |name: &str, answers: usize| crate::present::discover::Untracked {
        name: name.to_string(),
        products: Vec::new(),
        answers,
        recommended: 1,
        models: vec!["chatgpt".to_string()],
        places: vec!["US/–/–".to_string()],
        sentence: format!("{name} is the pick."),
    };
    update(
        &mut app,
        Msg::Discovered(Ok(super::Discovered {
            names: vec![name("Hoka", 4), name("Keen", 2)],
            read: crate::store::names::AnswersRead {
                answers: 12,
                as_text: 1,
            },
        })),
    );
    assert!(!app.brands_pane.discovering);
    // An answer too large to read in its shape is said, as its names are not listed.
    let flash = app.flash.as_ref().unwrap().text.clone();
    assert!(
        flash.contains("too large to read in their shape") && flash.contains(": 1 of 12 answers."),
        "{flash}"
    );
    // The selection is on the first name found; Enter tracks it.
    assert_eq!(app.brands_pane.selected, 2);
    let (text, _) = saved_text(&update(&mut app, key(KeyCode::Enter)));
    assert!(text.ends_with("name = \"Hoka\"\n"), "{text}");
    let left: Vec<&str> = super::discovered(&app)
        .iter()
        .map(|n| n.name.as_str())
        .collect();
    assert_eq!(left, ["Keen"], "a tracked name leaves the list");
    // A store that cannot be read is said.
    update(&mut app, key(KeyCode::Char('D')));
    update(&mut app, Msg::Discovered(Err("disk I/O error".to_string())));
    let flash = app.flash.as_ref().unwrap().text.clone();
    assert!(
        flash.contains("could not be read: disk I/O error"),
        "{flash}"
    );
}

/// The workspace broken in an editor while the app runs: the brands stay those of the last
/// good file, the line is said once (not again at each look), and the fixed file applies.
#[test]
fn a_workspace_broken_while_the_app_runs_keeps_the_last_good_one() {
    let mut app = app();
    loaded(&mut app, Some(FILE));
    assert_eq!(app.brands.len(), 2);
    let problem = "The workspace file /work/shop/vantage.toml has a mistake on line 2".to_string();
    update(&mut app, Msg::WorkspaceLoaded(Err(problem.clone())));
    assert_eq!(app.brands.len(), 2, "nothing of the broken file is used");
    let said = app.flash.take().expect("the mistake is said").text;
    assert!(
        said.contains("line 2") && said.contains("stay in use"),
        "{said}"
    );
    update(&mut app, Msg::WorkspaceLoaded(Err(problem)));
    assert!(app.flash.is_none(), "said once");
    // Looking again asks for a read only if the text changed from the good one.
    match super::look_again(&app) {
        Effect::Store(StoreEffect::LoadWorkspace { unless_read, .. }) => {
            assert_eq!(unless_read, Some(Some(FILE.to_string())))
        }
        other => panic!("{other:?}"),
    }
    loaded(&mut app, Some("[[brands]]\nname = \"Keen\"\n"));
    assert_eq!(app.brands.len(), 1);
    assert!(app.brands_pane.problem.is_none());
}

/// The form's last field marks the brand as yours (`own = true`): marking another takes
/// the mark from the first, said on screen, written through the form's one save and read
/// back; the list shows which brand is yours.
#[test]
fn the_form_marks_one_brand_as_yours_and_moving_the_mark_is_said() {
    let mut app = app();
    loaded(&mut app, Some(FILE));
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('b')));
    // Merrell: to the own field, Space marks it.
    update(&mut app, key(KeyCode::Enter));
    for _ in 0..3 {
        update(&mut app, key(KeyCode::Tab));
    }
    update(&mut app, key(KeyCode::Char(' ')));
    let (text, _) = saved_text(&update(&mut app, key(KeyCode::Enter)));
    assert!(
        text.contains("name = \"Merrell\" # the Moab\nown = true"),
        "{text}"
    );
    assert!(app.brands_pane.is_own("Merrell"));
    let flash = app.flash.as_ref().unwrap().text.clone();
    assert_eq!(flash, "Merrell is your brand now.");
    // Lowa marked next: Merrell loses the mark, and the sentence says so.
    update(&mut app, key(KeyCode::Down));
    update(&mut app, key(KeyCode::Enter));
    assert!(!app.brands_pane.editor.as_ref().unwrap().own);
    update(&mut app, key(KeyCode::BackTab));
    update(&mut app, key(KeyCode::Char('y')));
    let (text, _) = saved_text(&update(&mut app, key(KeyCode::Enter)));
    assert_eq!(text.matches("own = true").count(), 1, "{text}");
    assert!(text.contains("name = \"Lowa\"\nown = true"), "{text}");
    let flash = app.flash.as_ref().unwrap().text.clone();
    assert_eq!(
        flash,
        "Lowa is your brand now (Merrell no longer is: one brand is yours)."
    );
    let reread = Workspace::parse(Path::new("/w/vantage.toml"), &text).unwrap();
    assert_eq!(reread.own(), Some("Lowa"));
    // The write lands: the place follows the sentence.
    update(
        &mut app,
        Msg::WorkspaceSaved {
            path: "/work/shop/vantage.toml".into(),
            created: false,
            result: Ok(()),
        },
    );
    let flash = app.flash.as_ref().unwrap().text.clone();
    assert!(
        flash.ends_with("Written to /work/shop/vantage.toml."),
        "{flash}"
    );
    // Unmarked with n.
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::BackTab));
    update(&mut app, key(KeyCode::Char('n')));
    let (text, _) = saved_text(&update(&mut app, key(KeyCode::Enter)));
    assert!(!text.contains("own"), "{text}");
    assert_eq!(app.brands_pane.own(), None);
}

/// A brand an alert (or a set) still names is not removed from under it: the change is
/// read back as the loader reads the file, and refused with its sentence.
#[test]
fn a_brand_an_alert_watches_is_not_removed_from_under_it() {
    let mut app = app();
    loaded(
        &mut app,
        Some(
            "[[brands]]\nname = \"Lowa\"\n[[brands]]\nname = \"Hoka\"\n[[sets]]\nname = \"boots\"\nprompts = [\"a\"]\n[[sets.alerts]]\nbrand = \"Hoka\"\nmeasure = \"visibility\"\nbelow = 30\n",
        ),
    );
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('b')));
    update(&mut app, key(KeyCode::Down));
    assert!(update(&mut app, key(KeyCode::Char('d'))).is_empty());
    let flash = app.flash.as_ref().unwrap().text.clone();
    assert!(flash.starts_with("Not written"), "{flash}");
    assert!(
        flash.contains("Hoka is not one of the [[brands]]"),
        "{flash}"
    );
    assert_eq!(app.brands.len(), 2);
}
