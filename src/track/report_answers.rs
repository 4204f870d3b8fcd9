//! The report's section of each tracked prompt's answers: for every model and place whose
//! answer changed between the last two runs what it names or cites, the changes
//! (`track::answers`) and the word diff cut short. Every value is written through
//! `shareable`.

use std::fmt::Write as _;

use crate::analysis::diff::Change;
use crate::shareable::html::text;
use crate::shareable::markdown;

use super::answers::short_pieces;
use super::answers_read::CellChanged;

/// The word diff's changed text kept, about this many characters a cell.
const SHORT_DIFF_CHARS: usize = 360;

/// The prompts in the set's order (a prompt no longer in the set after them), each with
/// the cells that changed.
fn by_prompt<'a>(
    changed: &'a [CellChanged],
    prompts: &'a [String],
) -> Vec<(&'a str, Vec<&'a CellChanged>)> {
    let mut sections: Vec<(&str, Vec<&CellChanged>)> =
        prompts.iter().map(|p| (p.as_str(), Vec::new())).collect();
    for cell in changed {
        match sections.iter_mut().find(|(p, _)| *p == cell.cell.prompt) {
            Some((_, cells)) => cells.push(cell),
            None => sections.push((cell.cell.prompt.as_str(), vec![cell])),
        }
    }
    sections
}

const NOTHING_CHANGED: &str =
    "No model and place changed the brands it names, their order or stance, or the sites it cites.";
const ONE_RUN: &str = "One run so far: the next one is compared with it.";

/// The section as HTML.
pub fn html(changed: &[CellChanged], prompts: &[String], runs: usize) -> String {
    let mut page = String::from(
        r#"<section id="prompt-answers"><h2>Each prompt's answers: the last run against the one before</h2>"#,
    );
    if runs < 2 {
        let _ = write!(page, "<p>{}</p></section>", text(ONE_RUN));
        return page;
    }
    for (prompt, cells) in by_prompt(changed, prompts) {
        let _ = write!(page, "<h3>“{}”</h3>", text(prompt));
        if cells.is_empty() {
            let _ = write!(page, r#"<p class="meta">{}</p>"#, text(NOTHING_CHANGED));
            continue;
        }
        for cell in cells {
            let _ = write!(page, "<h4>{}</h4><ul>", text(&cell.cell.vantage()));
            for line in cell.changes.lines() {
                let _ = write!(page, "<li>{}</li>", text(&line));
            }
            page.push_str("</ul>");
            if let Some(words) = &cell.changes.words {
                page.push_str(r#"<p class="diff">"#);
                for piece in short_pieces(words, SHORT_DIFF_CHARS) {
                    let _ = match piece.change {
                        Change::Same => write!(page, "{}", text(&piece.text)),
                        Change::Removed => write!(page, "<del>{}</del>", text(&piece.text)),
                        Change::Added => write!(page, "<ins>{}</ins>", text(&piece.text)),
                    };
                }
                page.push_str("</p>");
            }
        }
    }
    page.push_str(
        r#"<p class="meta">The whole answers of one prompt, model and place: <code>vantage track answers SET --prompt N --model M --place P</code>, or a in the Track tab.</p></section>"#,
    );
    page
}

/// The section as Markdown.
pub fn markdown(changed: &[CellChanged], prompts: &[String], runs: usize) -> String {
    let cell_text = markdown::text;
    let mut md = String::from("\n## Each prompt's answers: the last run against the one before\n");
    if runs < 2 {
        let _ = writeln!(md, "\n{ONE_RUN}");
        return md;
    }
    for (prompt, cells) in by_prompt(changed, prompts) {
        let _ = writeln!(md, "\n### “{}”\n", cell_text(prompt));
        if cells.is_empty() {
            let _ = writeln!(md, "{NOTHING_CHANGED}");
            continue;
        }
        for cell in cells {
            let _ = writeln!(md, "#### {}\n", cell_text(&cell.cell.vantage()));
            for line in cell.changes.lines() {
                let _ = writeln!(md, "- {}", cell_text(&line));
            }
            if let Some(words) = &cell.changes.words {
                let short = super::answers::short_diff(words, SHORT_DIFF_CHARS);
                if !short.is_empty() {
                    let _ = writeln!(md, "\n> {}", cell_text(&short));
                }
            }
            md.push('\n');
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::answers::{Cell, CellAnswer, NamedBrand, compare};

    fn changed(prompt: &str, hostile: &str) -> CellChanged {
        let brand = |name: &str, position| NamedBrand {
            brand: name.to_string(),
            position: Some(position),
            stance: "listed".into(),
            count: 1,
            cited: false,
        };
        let old = CellAnswer {
            brands: vec![brand("Acme", 1)],
            sources: vec!["a.com".into()],
            text: "Acme is good.".into(),
            text_read: true,
            seq: 0,
        };
        let new = CellAnswer {
            brands: vec![brand(hostile, 1), brand("Acme", 2)],
            sources: vec!["a.com".into()],
            text: format!("{hostile} is good. Acme too."),
            text_read: true,
            seq: 0,
        };
        CellChanged {
            cell: Cell {
                prompt: prompt.into(),
                model: "chatgpt".into(),
                place: "US".into(),
            },
            changes: compare(&old, &new, true),
        }
    }

    #[test]
    fn each_prompt_has_its_section_and_hostile_names_stay_text() {
        let hostile = "<script>alert(1)</script>";
        let prompts = vec!["best boots".to_string(), "cheap boots".to_string()];
        let html = html(&[changed("best boots", hostile)], &prompts, 2);
        assert!(html.contains("<h3>“best boots”</h3>"), "{html}");
        assert!(html.contains("<h4>chatgpt · US</h4>"), "{html}");
        assert!(html.contains("Acme moved down: #1 → #2"), "{html}");
        assert!(html.contains("<ins>"), "{html}");
        assert!(!html.contains("<script>"), "{html}");
        // The prompt that changed nothing says so.
        let cheap = html.find("cheap boots").unwrap();
        assert!(html[cheap..].contains(NOTHING_CHANGED));

        let md = markdown(&[changed("best boots", "[x](javascript:1)")], &prompts, 2);
        assert!(md.contains("### “best boots”"), "{md}");
        assert!(md.contains("#### chatgpt · US"), "{md}");
        let rendered = markdown::to_html(&md);
        assert!(!rendered.contains("href"), "{rendered}");
        assert!(markdown(&[], &prompts, 1).contains(ONE_RUN));
    }
}
