//! Each mention's stance, sentence by sentence: the rules of `analysis::stance` read what an
//! answer says of a brand (recommended, listed, cautioned, or that it found nothing), and a
//! brand named only to say nothing is known of it is not a mention.

use vantage::analysis::mentions::{Brand, mentions, summarize};
use vantage::analysis::stance::Stance;

/// (sentence, brand, stance the rules must read).
const SENTENCES: &[(&str, &str, Stance)] = &[
    // Recommended.
    (
        "Our top pick is the Salomon X Ultra 4 for most hikers.",
        "Salomon",
        Stance::Recommended,
    ),
    (
        "The best all-round boot this year is the Merrell Moab 3.",
        "Merrell",
        Stance::Recommended,
    ),
    (
        "We recommend Lowa for long alpine days.",
        "Lowa",
        Stance::Recommended,
    ),
    (
        "I recommend trying Keen if you have wide feet.",
        "Keen",
        Stance::Recommended,
    ),
    (
        "Scarpa is highly rated by mountaineers.",
        "Scarpa",
        Stance::Recommended,
    ),
    (
        "Salomon's Quest 4 is a standout for heavy loads.",
        "Salomon",
        Stance::Recommended,
    ),
    (
        "For wet climates, Lowa GmbH makes my favorite boot.",
        "Lowa GmbH",
        Stance::Recommended,
    ),
    (
        "Keen remains a go-to choice for wide feet.",
        "Keen",
        Stance::Recommended,
    ),
    (
        "You can't go wrong with Merrell on easy trails.",
        "Merrell",
        Stance::Recommended,
    ),
    (
        "The La Sportiva Nucleo is an excellent lightweight option.",
        "La Sportiva",
        Stance::Recommended,
    ),
    (
        "Editor's choice: Salomon X Ultra.",
        "Salomon",
        Stance::Recommended,
    ),
    (
        "Merrell is worth the money if you hike weekly.",
        "Merrell",
        Stance::Recommended,
    ),
    (
        "Salomon stands out for grip on wet rock.",
        "Salomon",
        Stance::Recommended,
    ),
    // Listed.
    (
        "Salomon makes boots in three widths.",
        "Salomon",
        Stance::Listed,
    ),
    (
        "Other brands to look at include Merrell, Keen and Lowa.",
        "Merrell",
        Stance::Listed,
    ),
    (
        "Lowa is a German company founded in 1923.",
        "Lowa",
        Stance::Listed,
    ),
    (
        "Keen boots come in waterproof and breathable versions.",
        "Keen",
        Stance::Listed,
    ),
    (
        "The Merrell Moab weighs about 1 kg per pair.",
        "Merrell",
        Stance::Listed,
    ),
    (
        "Scarpa sells through REI and its own site.",
        "Scarpa",
        Stance::Listed,
    ),
    (
        "Salomon’s boots use a Contagrip sole.",
        "Salomon",
        Stance::Listed,
    ),
    (
        "Merrell had no issues in our wet test.",
        "Merrell",
        Stance::Listed,
    ),
    (
        "Lowa boots help you avoid blisters on long days.",
        "Lowa",
        Stance::Listed,
    ),
    (
        "Keen Targhee IV: waterproof, roomy toe box.",
        "Keen",
        Stance::Listed,
    ),
    // Cautioned.
    (
        "Avoid the Merrell Moab 2, its sole wears fast.",
        "Merrell",
        Stance::Cautioned,
    ),
    (
        "Salomon is overpriced for what you get.",
        "Salomon",
        Stance::Cautioned,
    ),
    (
        "Some owners report issues with Keen's waterproofing.",
        "Keen",
        Stance::Cautioned,
    ),
    (
        "Lowa was discontinued in the US market last year.",
        "Lowa",
        Stance::Cautioned,
    ),
    (
        "There was a recall of the Scarpa Rush in 2023.",
        "Scarpa",
        Stance::Cautioned,
    ),
    (
        "I would not recommend Merrell for scrambling.",
        "Merrell",
        Stance::Cautioned,
    ),
    (
        "Salomon is the best for trails, but avoid Merrell on scree.",
        "Merrell",
        Stance::Cautioned,
    ),
    (
        "Keen boots are too expensive for casual walkers.",
        "Keen",
        Stance::Cautioned,
    ),
    (
        "Reviewers found Lowa's lacing unreliable.",
        "Lowa",
        Stance::Cautioned,
    ),
    (
        "The main drawback of Scarpa is the narrow fit.",
        "Scarpa",
        Stance::Cautioned,
    ),
    (
        "Merrell soles fell apart after a season for many buyers.",
        "Merrell",
        Stance::Cautioned,
    ),
    (
        "Beware of fake Salomon boots sold online.",
        "Salomon",
        Stance::Cautioned,
    ),
    // Not found.
    (
        "I couldn't find information about Lowa boots.",
        "Lowa",
        Stance::NotFound,
    ),
    (
        "I could not find any reviews of Keen's 2026 range.",
        "Keen",
        Stance::NotFound,
    ),
    (
        "I'm not aware of a Scarpa model by that name.",
        "Scarpa",
        Stance::NotFound,
    ),
    (
        "There is no information on Merrell's newest boot yet.",
        "Merrell",
        Stance::NotFound,
    ),
    (
        "I don't have information about Salomon's prices in Japan.",
        "Salomon",
        Stance::NotFound,
    ),
    (
        "I’m not familiar with Lowa’s trail runners.",
        "Lowa",
        Stance::NotFound,
    ),
    (
        "I was unable to find Keen in the sources.",
        "Keen",
        Stance::NotFound,
    ),
    // One sentence, two brands, two stances.
    (
        "Salomon is the best for trails, but avoid Merrell on scree.",
        "Salomon",
        Stance::Recommended,
    ),
];

#[test]
fn each_sentence_is_read_as_the_rules_say() {
    assert!(SENTENCES.len() >= 40, "{} sentences", SENTENCES.len());
    let mut wrong = Vec::new();
    for &(sentence, name, expected) in SENTENCES {
        let found = mentions(sentence, &[], &[Brand::named(name)]);
        if found[0].stance != expected {
            wrong.push(format!(
                "{sentence:?}: {name} read as {:?}, not {expected:?}",
                found[0].stance
            ));
        }
        match expected {
            Stance::NotFound => {
                assert_eq!(found[0].position, None, "{sentence}");
                assert_eq!(found[0].count, 0, "{sentence}");
            }
            _ => assert_eq!(found[0].position, Some(1), "{sentence}: {name} not found"),
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_brand_the_answer_knows_nothing_of_leaves_visibility_and_voice_unchanged() {
    let brands = [Brand::named("Salomon"), Brand::named("Lowa")];
    let said = "Salomon is the best boot for most hikers. I couldn't find information about Lowa.";
    let silent = "Salomon is the best boot for most hikers.";
    let said = summarize(&[Some(mentions(said, &[], &brands))]);
    let silent = summarize(&[Some(mentions(silent, &[], &brands))]);
    let measures = |rows: &[vantage::analysis::mentions::BrandSummary]| {
        rows.iter()
            .map(|r| {
                (
                    r.brand.clone(),
                    r.visibility,
                    r.average_position,
                    r.share_of_voice,
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(measures(&said), measures(&silent));
    assert_eq!(said[1].visibility, 0.0);
    assert_eq!(said[0].share_of_voice, 100.0);
}

#[test]
fn a_brand_named_several_ways_takes_its_strongest_stance() {
    let brands = [Brand::named("Merrell")];
    let text = "Merrell makes many boots. The Merrell Moab 3 is our top pick. Avoid the old Merrell Moab 2.";
    let found = mentions(text, &[], &brands);
    assert_eq!(found[0].stance, Stance::Recommended);
    assert_eq!(found[0].count, 3);
    let text = "Merrell makes many boots. Avoid the old Merrell Moab 2.";
    assert_eq!(mentions(text, &[], &brands)[0].stance, Stance::Cautioned);
}
