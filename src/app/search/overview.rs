//! The AI overview pane above the results: folded or open, scrolled, and the related question
//! picked (Enter searches it).

use crate::analysis::overview::{RelatedQuestion, Source};
use crate::present::search_page::{OverviewPane, PreparedSearch};

/// The pane's state for one results page.
#[derive(Debug, Default)]
pub struct OverviewState {
    pub open: bool,
    /// The first line shown of the pane's text.
    pub scroll: usize,
    /// The source or related question picked, when the pane has the focus.
    pub picked: usize,
}

impl OverviewState {
    /// Open when there is something to read; folded to its one line otherwise.
    pub fn for_page(prepared: &PreparedSearch) -> OverviewState {
        OverviewState {
            open: has_more(prepared),
            scroll: 0,
            picked: 0,
        }
    }

    pub fn move_pick(&mut self, delta: isize, count: usize) {
        if count == 0 {
            return;
        }
        self.picked = (self.picked as isize + delta).clamp(0, count as isize - 1) as usize;
    }

    pub fn scroll_by(&mut self, delta: isize, lines: usize) {
        let max = lines.saturating_sub(1) as isize;
        self.scroll = (self.scroll as isize + delta).clamp(0, max.max(0)) as usize;
    }
}

/// Whether opening the pane shows more than its folded line.
pub fn has_more(prepared: &PreparedSearch) -> bool {
    matches!(prepared.overview, OverviewPane::Found { .. })
        || !prepared.related_questions.is_empty()
}

/// The folded pane's one line: what is inside, or why there is no overview.
pub fn summary(prepared: &PreparedSearch) -> String {
    summary_of(prepared, OverviewPane::reason)
}

/// [`summary`] in few words, for the header of a short screen.
pub fn short_summary(prepared: &PreparedSearch) -> String {
    summary_of(prepared, OverviewPane::short_reason)
}

fn summary_of(
    prepared: &PreparedSearch,
    reason: fn(&OverviewPane) -> Option<&'static str>,
) -> String {
    let questions = match prepared.related_questions.len() {
        0 => String::new(),
        1 => " · 1 related question".to_string(),
        n => format!(" · {n} related questions"),
    };
    match &prepared.overview {
        OverviewPane::Found { overview, .. } => {
            let sources = match overview.sources.len() {
                1 => "1 source".to_string(),
                n => format!("{n} sources"),
            };
            format!("AI overview · {sources}{questions}")
        }
        other => format!("{}{questions}", reason(other).unwrap_or_default()),
    }
}

/// What the arrows pick in the open pane: a cited source (Enter or o opens it), then a
/// related question (Enter searches it).
pub enum Picked<'a> {
    Source(&'a Source),
    Question(&'a RelatedQuestion),
}

fn sources(prepared: &PreparedSearch) -> &[Source] {
    match &prepared.overview {
        OverviewPane::Found { overview, .. } => &overview.sources,
        _ => &[],
    }
}

/// How many things the arrows can pick.
pub fn pickable(prepared: &PreparedSearch) -> usize {
    sources(prepared).len() + prepared.related_questions.len()
}

pub fn picked<'a>(prepared: &'a PreparedSearch, state: &OverviewState) -> Option<Picked<'a>> {
    let sources = sources(prepared);
    match sources.get(state.picked) {
        Some(source) => Some(Picked::Source(source)),
        None => prepared
            .related_questions
            .get(state.picked - sources.len())
            .map(Picked::Question),
    }
}

/// Lines of the text part of the open pane: the overview, or the line saying why not.
fn text_lines(prepared: &PreparedSearch, width: u16) -> usize {
    match &prepared.overview {
        OverviewPane::Found { text, .. } => text.lines(width).len(),
        _ => 1,
    }
}

/// Lines of the open pane at this width: the text; a blank line, a heading and a line per
/// source; the same for the related questions (its view draws them so).
pub fn line_count(prepared: &PreparedSearch, width: u16) -> usize {
    let block = |n: usize| if n == 0 { 0 } else { 2 + n };
    text_lines(prepared, width)
        + block(sources(prepared).len())
        + block(prepared.related_questions.len())
}

/// The line the picked item is on, to keep it on screen.
pub fn picked_line(prepared: &PreparedSearch, state: &OverviewState, width: u16) -> usize {
    let text = text_lines(prepared, width);
    let sources = sources(prepared).len();
    if state.picked < sources {
        text + 2 + state.picked
    } else {
        let after_sources = text + if sources == 0 { 0 } else { 2 + sources };
        after_sources + 2 + (state.picked - sources)
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use crate::api::{Awaiting, Fetched, SearchAnswer, SearchFormat, SearchRequest};
    use crate::app::search::SearchFocus;
    use crate::app::{App, CallEffect, Connection, Effect, Msg, OsEffect, Tab, update};
    use crate::present::search_page::{OverviewPane, prepare};

    const PAGE: &str = r#"<html><body>
        <div class="pOOWX"><div class="n6owBd">Boots differ in fit.</div>
          <ul><li>Fit first</li><li>Weight next</li></ul>
          <div class="notranslate"><ul><li><a href="https://a.example/boots"></a><div class="Nn35F"><span>A guide</span></div></li></ul></div>
        </div>
        <div class="related-question-pair" data-q="Are hiking boots worth it?"></div>
        <div class="related-question-pair" data-q="How should boots fit?"></div>
        </body></html>"#;

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
        app.tab = Tab::Search;
        app.area = ratatui::layout::Rect::new(0, 0, 120, 40);
        app
    }

    fn request(format: SearchFormat, awaiting: Vec<Awaiting>) -> SearchRequest {
        SearchRequest {
            format,
            awaiting,
            ..SearchRequest::new("hiking boots")
        }
    }

    fn html_answer(request: SearchRequest, html: &str) -> Msg {
        let fetched = Fetched {
            value: SearchAnswer::Html(html.to_string()),
            body: html.to_string(),
            status: 200,
            content_type: "text/html".into(),
            elapsed: Duration::from_millis(900),
        };
        Msg::SearchDone {
            tag: crate::app::Tag(1),
            result: Ok(Box::new(prepare(request, fetched))),
        }
    }

    fn key(code: KeyCode) -> Msg {
        Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    fn landed(app: &mut App, msg: Msg) {
        app.search.call = crate::app::call::CallState::running(
            crate::app::Tag(1),
            app.now,
            "Searching".into(),
            None,
        );
        update(app, msg);
    }

    #[test]
    fn the_pane_opens_on_an_overview_and_enter_searches_a_related_question() {
        let mut app = app();
        landed(
            &mut app,
            html_answer(request(SearchFormat::Html, vec![Awaiting::Ai]), PAGE),
        );
        let page = app.search.page.as_ref().unwrap();
        assert!(page.overview.open);
        let OverviewPane::Found { overview, .. } = &page.prepared.overview else {
            panic!("no overview: {:?}", page.prepared.overview);
        };
        assert_eq!(overview.sources.len(), 1);
        assert_eq!(page.prepared.related_questions.len(), 2);
        // Shift+Tab from the results reaches the pane.
        update(&mut app, key(KeyCode::BackTab));
        assert_eq!(app.search.focus, SearchFocus::Overview);
        // The source comes first: Enter opens it.
        let effects = update(&mut app, key(KeyCode::Enter));
        assert_eq!(
            effects,
            vec![Effect::Os(OsEffect::OpenUrl(
                "https://a.example/boots".into()
            ))]
        );
        // Two down: the second question; Enter searches it.
        update(&mut app, key(KeyCode::Down));
        update(&mut app, key(KeyCode::Down));
        let effects = update(&mut app, key(KeyCode::Enter));
        assert_eq!(app.search.terms_text(), "How should boots fit?");
        assert!(
            matches!(&effects[..], [Effect::Call(CallEffect::SendSearch { request, .. })] if request.terms == "How should boots fit?"),
            "{effects:?}"
        );
    }

    /// Reading results never searches again: Enter in every view of the page, the list and
    /// the detail alike, sends nothing.
    #[test]
    fn enter_in_a_reading_view_of_the_results_sends_nothing() {
        use crate::present::search_page::SearchView;
        let mut app = app();
        landed(
            &mut app,
            html_answer(request(SearchFormat::Html, Vec::new()), PAGE),
        );
        let sends = |effects: &[Effect]| {
            effects.iter().any(|e| {
                matches!(
                    e,
                    Effect::Call(CallEffect::SendSearch { .. } | CallEffect::SubmitJob { .. })
                )
            })
        };
        for view in [
            SearchView::Results,
            SearchView::Page,
            SearchView::Links,
            SearchView::Html,
            SearchView::Json,
        ] {
            for focus in [SearchFocus::Results, SearchFocus::Detail] {
                if let Some(page) = app.search.page.as_mut() {
                    page.view = view;
                }
                app.search.focus = focus;
                let effects = update(&mut app, key(KeyCode::Enter));
                assert!(!sends(&effects), "{view:?} {focus:?}: {effects:?}");
            }
        }
        // With no results on screen, Enter outside the terms says which key sends.
        app.search.page = None;
        app.search.focus = SearchFocus::Results;
        let effects = update(&mut app, key(KeyCode::Enter));
        assert!(!sends(&effects), "{effects:?}");
        assert!(format!("{:?}", app.flash).contains("sends the form again"));
    }

    #[test]
    fn the_pane_folds_and_says_why_there_is_no_overview() {
        let mut app = app();
        let plain = "<html><body><p>No overview here.</p></body></html>";
        landed(
            &mut app,
            html_answer(request(SearchFormat::Html, vec![]), plain),
        );
        let page = app.search.page.as_ref().unwrap();
        assert!(!page.overview.open, "nothing to read: folded");
        assert!(matches!(page.prepared.overview, OverviewPane::NotAwaited));
        assert!(super::summary(&page.prepared).contains("not awaited"));

        landed(
            &mut app,
            html_answer(request(SearchFormat::Html, vec![Awaiting::Ai]), plain),
        );
        let page = app.search.page.as_ref().unwrap();
        assert!(matches!(page.prepared.overview, OverviewPane::NoneOnPage));
        assert!(super::summary(&page.prepared).contains("Google showed none"));

        // A found overview folds with A and the focus leaves the pane.
        landed(
            &mut app,
            html_answer(request(SearchFormat::Html, vec![Awaiting::Ai]), PAGE),
        );
        app.search.focus = SearchFocus::Overview;
        update(&mut app, key(KeyCode::Char('A')));
        let page = app.search.page.as_ref().unwrap();
        assert!(!page.overview.open);
        assert_eq!(app.search.focus, SearchFocus::Results);
        // Folded, the focus cycle skips the pane.
        update(&mut app, key(KeyCode::BackTab));
        assert_eq!(app.search.focus, SearchFocus::Settings);
    }
}
