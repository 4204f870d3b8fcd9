//! The labelled corpus (`tests/corpus/`): real answers of the live service, the simulator's
//! answers, and answers written in the forms real models use, each labelled by hand with the
//! tracked brands it names, in the answer's order, and what it says of each. Every answer is
//! read as the app reads one (`prepare_stored`, then the mentions in its shape), and the
//! precision and recall of names, order and stance are printed; under 0.95 on any fails.
//!
//! A label: `named = ["Cursor: recommended", …]` in the answer's own order (its list's order
//! where it is a list, else the order it names them); `not_found = [..]` for brands it names
//! only to say it knows nothing of them. A tracked brand in neither is not named.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use vantage::analysis::mentions::{Brand, Mention};
use vantage::analysis::stance::Stance;
use vantage::api::{AiRequest, Model};
use vantage::present::answer::prepare_stored;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
const FLOOR: f64 = 0.95;

#[derive(Deserialize)]
struct File {
    answer: Vec<Answer>,
}

#[derive(Deserialize)]
struct Answer {
    id: String,
    model: String,
    prompt: String,
    /// A completion as the service returns it (a path under `tests/`), or the answer's HTML.
    file: Option<String>,
    html: Option<String>,
    /// Tracked brands: a name, or `Name=alias|alias`.
    brands: Vec<String>,
    #[serde(default)]
    named: Vec<String>,
    #[serde(default)]
    not_found: Vec<String>,
}

impl Answer {
    fn body(&self) -> String {
        match (&self.file, &self.html) {
            (Some(file), _) => {
                let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests")
                    .join(file);
                std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            }
            (None, Some(html)) => serde_json::json!({
                "model": self.model,
                "query": self.prompt,
                "prompt": "",
                "completion": html,
                "sources": "",
            })
            .to_string(),
            (None, None) => panic!("{}: neither file nor html", self.id),
        }
    }

    fn brands(&self) -> Vec<Brand> {
        self.brands
            .iter()
            .map(|spec| {
                let (name, aliases) = spec.split_once('=').unwrap_or((spec, ""));
                Brand {
                    name: name.trim().to_string(),
                    aliases: aliases
                        .split('|')
                        .map(str::trim)
                        .filter(|a| !a.is_empty())
                        .map(str::to_string)
                        .collect(),
                    domains: Vec::new(),
                }
            })
            .collect()
    }

    /// (brand, stance) in the labelled order.
    fn labels(&self) -> Vec<(String, Stance)> {
        self.named
            .iter()
            .map(|label| {
                let (name, stance) = label
                    .rsplit_once(':')
                    .unwrap_or_else(|| panic!("{}: {label:?} has no stance", self.id));
                let stance = match stance.trim() {
                    "recommended" => Stance::Recommended,
                    "listed" => Stance::Listed,
                    "cautioned" => Stance::Cautioned,
                    other => panic!("{}: {other:?} is not a stance", self.id),
                };
                (name.trim().to_string(), stance)
            })
            .collect()
    }
}

fn corpus() -> Vec<Answer> {
    let mut files: Vec<_> = std::fs::read_dir(CORPUS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            let file: File =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            file.answer
        })
        .collect()
}

fn read(answer: &Answer) -> Vec<Mention> {
    let model: Model = answer.model.parse().unwrap();
    let mut request = AiRequest::new(&answer.prompt);
    request.model = Some(model);
    let prepared = prepare_stored(request, &answer.body())
        .unwrap_or_else(|| panic!("{}: not an answer", answer.id));
    prepared.mentions(&answer.brands())
}

#[derive(Default)]
struct Tally {
    true_positive: usize,
    predicted: usize,
    labelled: usize,
}

impl Tally {
    fn precision(&self) -> f64 {
        ratio(self.true_positive, self.predicted)
    }
    fn recall(&self) -> f64 {
        ratio(self.true_positive, self.labelled)
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

#[test]
fn names_order_and_stance_are_read_true_on_the_labelled_corpus() {
    let answers = corpus();
    let mut names = Tally::default();
    let mut order = Tally::default();
    let mut stances: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut misses: Vec<String> = Vec::new();
    let mut ids = std::collections::HashSet::new();
    for answer in &answers {
        assert!(ids.insert(answer.id.clone()), "{} twice", answer.id);
        let found = read(answer);
        let labels = answer.labels();
        for brand in answer.brands() {
            let mention = found.iter().find(|m| m.brand == brand.name).unwrap();
            let label = labels.iter().position(|(name, _)| *name == brand.name);
            let not_found = answer.not_found.contains(&brand.name);
            let named = mention.position.is_some();
            // Names.
            names.predicted += usize::from(named);
            names.labelled += usize::from(label.is_some());
            names.true_positive += usize::from(named && label.is_some());
            // Order: the labelled place among the labelled brands.
            order.predicted += usize::from(named);
            order.labelled += usize::from(label.is_some());
            let in_order = label.is_some_and(|at| mention.position == Some(at + 1));
            order.true_positive += usize::from(in_order);
            // Stance, over the brands the label or the reading says something of.
            let expected = match (label, not_found) {
                (Some(at), _) => Some(labels[at].1),
                (None, true) => Some(Stance::NotFound),
                (None, false) => None,
            };
            let read_as = (named || mention.stance == Stance::NotFound).then_some(mention.stance);
            if let Some(expected) = expected {
                stances.entry(expected.label()).or_default().labelled += 1;
            }
            if let Some(read_as) = read_as {
                stances.entry(read_as.label()).or_default().predicted += 1;
                if expected == Some(read_as) {
                    stances.entry(read_as.label()).or_default().true_positive += 1;
                }
            }
            if (label.is_some() != named) || !in_order && label.is_some() || expected != read_as {
                misses.push(format!(
                    "{}: {} — labelled {:?} at {:?}, read {:?} at {:?} ({:?})",
                    answer.id,
                    brand.name,
                    expected,
                    label.map(|at| at + 1),
                    read_as,
                    mention.position,
                    mention.sentence
                ));
            }
        }
    }
    let classes = ["recommended", "listed", "cautioned", "not found"];
    let macro_of = |get: fn(&Tally) -> f64| {
        classes
            .iter()
            .map(|c| stances.get(c).map_or(1.0, get))
            .sum::<f64>()
            / classes.len() as f64
    };
    let stance = (macro_of(Tally::precision), macro_of(Tally::recall));
    println!("Corpus: {} answers", answers.len());
    println!("          precision  recall");
    println!(
        "names        {:.3}     {:.3}",
        names.precision(),
        names.recall()
    );
    println!(
        "order        {:.3}     {:.3}",
        order.precision(),
        order.recall()
    );
    println!(
        "stance       {:.3}     {:.3}   (mean over the four stances)",
        stance.0, stance.1
    );
    for class in classes {
        if let Some(t) = stances.get(class) {
            println!(
                "  {class:<12} {:.3}     {:.3}   ({} labelled, {} read)",
                t.precision(),
                t.recall(),
                t.labelled,
                t.predicted
            );
        }
    }
    for miss in &misses {
        println!("miss: {miss}");
    }
    assert!(
        answers.len() >= 60,
        "the corpus has {} answers",
        answers.len()
    );
    for (what, value) in [
        ("names precision", names.precision()),
        ("names recall", names.recall()),
        ("order precision", order.precision()),
        ("order recall", order.recall()),
        ("stance precision", stance.0),
        ("stance recall", stance.1),
    ] {
        assert!(value >= FLOOR, "{what} is {value:.3}, under {FLOOR}");
    }
}

#[test]
fn every_live_answer_we_hold_is_in_the_corpus() {
    let answers = corpus();
    let live = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/live");
    for entry in std::fs::read_dir(live).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.starts_with("ai-") {
            let file = format!("fixtures/live/{name}");
            assert!(
                answers
                    .iter()
                    .any(|a| a.file.as_deref() == Some(file.as_str())),
                "{file} is not labelled in tests/corpus/"
            );
        }
    }
}
