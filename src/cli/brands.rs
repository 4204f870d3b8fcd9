//! `--brands` and `--workspace` on `ai` and `compare`: which brands to look for in the
//! answers, and the mentions as text and JSON.

use std::path::PathBuf;

use clap::Args;

use crate::analysis::mentions::{Brand, BrandSummary, Mention};
use crate::analysis::sources::Classifier;
use crate::analysis::stance::Stance;
use crate::analysis::workspace::{self, Workspace, WorkspaceError, parse_domains};
use crate::present::compare::mentions::{CELL_KEY, cell_text};
use crate::sanitize::{QUOTED_CHARS, excerpt, one_line};

#[derive(Debug, Default, Args)]
pub struct BrandArgs {
    /// Brands to look for, comma-separated: a name, or name=domain (more domains joined
    /// with +), e.g. "Salomon,Merrell=merrell.com". Default: the workspace file's brands
    #[arg(long, value_name = "B,…")]
    pub brands: Option<String>,
    /// The workspace file listing tracked brands (default: the nearest vantage.toml in this
    /// folder or a parent)
    #[arg(long, value_name = "PATH", env = "VANTAGE_WORKSPACE")]
    pub workspace: Option<PathBuf>,
}

/// `Salomon,Merrell=merrell.com+merrell.de` as brands; names are kept as typed.
pub fn parse_brands(spec: &str) -> Result<Vec<Brand>, String> {
    let mut brands: Vec<Brand> = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, domains) = part.split_once('=').unwrap_or((part, ""));
        let name = name.trim();
        let quoted = |text: &str| excerpt(text, QUOTED_CHARS);
        if name.is_empty() {
            return Err(format!(
                "the brand {:?} has no name before its '='; write it as Name=domain",
                quoted(part)
            ));
        }
        if brands.iter().any(|b| b.name.eq_ignore_ascii_case(name)) {
            return Err(format!("the brand {} is given twice", quoted(name)));
        }
        brands.push(Brand {
            name: name.to_string(),
            aliases: Vec::new(),
            domains: parse_domains(domains)
                .map_err(|problem| format!("the brand {}: {problem}", quoted(name)))?,
        });
    }
    Ok(brands)
}

/// How cited sites are classed: by the workspace file when there is one (its own brand, its
/// `[sources]`), else with `brands` as competitors.
pub fn source_classifier(args: &BrandArgs, brands: &[Brand]) -> Classifier {
    match located_workspace(args) {
        Some(workspace) if args.brands.is_none() => workspace.classifier(),
        _ => Classifier::new(brands, None, Vec::new()),
    }
}

/// The workspace file's own brand (`own = true`), if there is a file and it names one.
pub fn workspace_own(args: &BrandArgs) -> Option<String> {
    located_workspace(args)?.own().map(str::to_string)
}

/// The workspace file `--workspace` names, else `vantage.toml` here, read
/// (`workspace::read_located`); none when there is none.
fn read_workspace(args: &BrandArgs) -> Result<Option<Workspace>, WorkspaceError> {
    let folder = std::env::current_dir().unwrap_or_default();
    workspace::read_located(args.workspace.as_deref(), &folder)
}

/// The workspace as [`read_workspace`] reads it, for what only refines a reading; a named
/// one that does not read was already refused by [`tracked_brands`], which every command
/// calls first.
fn located_workspace(args: &BrandArgs) -> Option<Workspace> {
    read_workspace(args).ok().flatten()
}

/// The brands of `--brands`, else of the workspace file (none when there is no file). With
/// `--brands`, a file named with `--workspace` is still checked, since its sources and own
/// brand are read; one merely found here is then not needed. The error is a sentence for
/// stderr; the caller exits with the invalid-input code.
pub fn tracked_brands(args: &BrandArgs) -> Result<Vec<Brand>, String> {
    let unreadable = |e: WorkspaceError| format!("Not sent: {e}");
    if let Some(spec) = &args.brands {
        let brands = parse_brands(spec).map_err(|e| format!("Not sent: --brands: {e}."))?;
        if args.workspace.is_some() {
            read_workspace(args).map_err(unreadable)?;
        }
        return Ok(brands);
    }
    let located = read_workspace(args).map_err(unreadable)?;
    Ok(located.map(|w| w.brands().to_vec()).unwrap_or_default())
}

/// The mentions of one answer, in the answer's order, then the brands not named.
pub fn mentions_text(found: &[Mention]) -> String {
    let mut ordered: Vec<&Mention> = found.iter().collect();
    ordered.sort_by_key(|m| m.position.unwrap_or(usize::MAX));
    let mut text = String::from("Mentions:\n");
    for mention in ordered {
        let brand = one_line(&mention.brand);
        match (mention.position, &mention.sentence) {
            (Some(position), Some(sentence)) => text.push_str(&format!(
                "  {position}. {brand} — {}×{} — {}{} — \"{}\"\n",
                mention.count,
                if mention.cited { ", cited" } else { "" },
                mention.stance.label(),
                mention
                    .rank
                    .map(|rank| format!(", item {rank} of a list"))
                    .unwrap_or_default(),
                one_line(sentence)
            )),
            (None, Some(sentence)) if mention.stance == Stance::NotFound => {
                text.push_str(&format!(
                    "  –  {brand} — not counted: the answer says it found nothing{} — \"{}\"\n",
                    if mention.cited { ", but cited" } else { "" },
                    one_line(sentence)
                ))
            }
            _ => text.push_str(&format!(
                "  –  {brand} — {}{}\n",
                crate::analysis::mentions::NOT_NAMED,
                if mention.cited { ", but cited" } else { "" }
            )),
        }
    }
    text
}

/// The mention matrix: a row per brand, a cell per column (its position, `*` when cited,
/// `–` when not named, `?` when the column failed), then the brand's measures.
pub fn matrix_text(rows: &[BrandSummary]) -> String {
    let width = rows
        .iter()
        .map(|r| r.brand.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let columns = rows.first().map_or(0, |r| r.columns.len());
    let mut text = format!(
        "Mentions — {CELL_KEY}:\n{:<width$}  {}  {:>10} {:>8} {:>6}\n",
        "BRAND",
        (1..=columns)
            .map(|n| format!("{n:>4}"))
            .collect::<Vec<_>>()
            .join(" "),
        "VISIBILITY",
        "AVG POS",
        "SHARE"
    );
    for row in rows {
        let cells: Vec<String> = row
            .columns
            .iter()
            .map(|cell| format!("{:>4}", cell_text(cell)))
            .collect();
        text.push_str(&format!(
            "{:<width$}  {}  {:>9.0}% {:>8} {:>5.0}%\n",
            one_line(&row.brand),
            cells.join(" "),
            row.visibility,
            row.average_position
                .map_or("–".to_string(), |p| format!("{p:.1}")),
            row.share_of_voice
        ));
    }
    text
}

/// The brand `--gaps` is about: `named` (`--own`), else the one the workspace marks `own =
/// true` (`marked`, read only when needed); it must be one of `brands`. The sentence says
/// what to do when there is none.
pub(super) fn pick_own(
    named: Option<&str>,
    marked: impl FnOnce() -> Option<String>,
    brands: &[Brand],
) -> Result<String, String> {
    let named = match named.map(str::trim).filter(|n| !n.is_empty()) {
        Some(own) => Some(own.to_string()),
        None => marked(),
    };
    let Some(own) = named else {
        return Err(
            "Not sent: --gaps needs your brand; mark it own = true in vantage.toml, or name it with --own."
                .to_string(),
        );
    };
    match brands.iter().find(|b| b.name.eq_ignore_ascii_case(&own)) {
        Some(brand) => Ok(brand.name.clone()),
        None => Err(format!(
            "Not sent: {own} is not one of the tracked brands ({}); --gaps compares it with them.",
            brands
                .iter()
                .map(|b| b.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::mentions;

    #[test]
    fn brands_parse_with_domains() {
        let brands = parse_brands(" Salomon , Merrell=merrell.com+merrell.de,,Lowa=").unwrap();
        assert_eq!(brands.len(), 3);
        assert_eq!(brands[0], Brand::named("Salomon"));
        assert_eq!(brands[1].domains, ["merrell.com", "merrell.de"]);
        assert!(brands[2].domains.is_empty());
        assert!(parse_brands("=a.com").unwrap_err().contains("no name"));
        assert!(parse_brands("Lowa,lowa").unwrap_err().contains("twice"));
        // The flag's `+` and the form's commas and spaces read alike; a non-domain is refused.
        assert_eq!(
            parse_brands("Lowa=lowa.com+lowa.de").unwrap()[0].domains,
            ["lowa.com", "lowa.de"]
        );
        assert!(
            parse_brands("Lowa=lowa")
                .unwrap_err()
                .contains("\"lowa\" is not a domain")
        );
    }

    #[test]
    fn matrix_marks_positions_citations_and_failures() {
        let brands = [
            Brand {
                domains: vec!["salomon.com".into()],
                ..Brand::named("Salomon")
            },
            Brand::named("Merrell"),
        ];
        let columns = vec![
            Some(mentions::mentions(
                "Merrell, then Salomon.",
                &["https://www.salomon.com/x"],
                &brands,
            )),
            None,
            Some(mentions::mentions("Salomon only.", &[], &brands)),
        ];
        let text = matrix_text(&mentions::summarize(&columns));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1],
            "BRAND       1    2    3  VISIBILITY  AVG POS  SHARE"
        );
        assert_eq!(
            lines[2],
            "Salomon    2*    ?    1        100%      1.5    67%"
        );
        assert_eq!(
            lines[3],
            "Merrell     1    ?    –         50%      1.0    33%"
        );
    }
}
