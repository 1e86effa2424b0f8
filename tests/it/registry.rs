//! Keeps the steps in `src/rules/mod.rs` ("Adding a sixth ruleset") true.
//!
//! The first test reads the folders, not the registry's list: every ruleset module, seed file
//! and template on disk must belong to a registered ruleset, so one left out of the list
//! fails here instead of silently vanishing from every picker. The second reads the sources:
//! outside its own module and the registry, no file names a ruleset — by its module, its
//! variant or its id — except the places listed below as one ruleset's by nature.

use std::fs;
use std::path::{Path, PathBuf};

use quartermaster::rules::registry::Embedded;
use quartermaster::rules::{RulesetId, ruleset};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The file names (without `.json`) in `dir`.
fn json_stems(dir: &str) -> Vec<String> {
    let mut stems: Vec<String> = fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_name()?.to_str()?;
            name.strip_suffix(".json").map(str::to_string)
        })
        .collect();
    stems.sort();
    stems
}

/// The registered ruleset a module, seed file or template named `name` belongs to: modules
/// and seeds are named after the id with `_`, templates after the id itself.
fn registered(name: &str) -> Option<RulesetId> {
    name.replace('_', "-").parse().ok()
}

/// Which of its templates a ruleset embeds.
type TemplateOf = fn(RulesetId) -> Embedded;

#[test]
fn every_ruleset_on_disk_is_in_the_registry() {
    let mut modules = Vec::new();
    for entry in fs::read_dir(root().join("src/rules")).unwrap() {
        let path = entry.unwrap().path();
        let Ok(text) = fs::read_to_string(path.join("mod.rs")) else {
            continue;
        };
        if text.contains("impl Ruleset for") {
            modules.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    assert!(
        !modules.is_empty(),
        "no ruleset module found under src/rules"
    );
    for module in &modules {
        assert!(
            registered(module).is_some(),
            "src/rules/{module} implements Ruleset, but the registry in src/rules/mod.rs has no \
             line for '{}'",
            module.replace('_', "-")
        );
    }
    for seed in json_stems("db/seed") {
        assert!(
            modules.contains(&seed) && registered(&seed).is_some(),
            "db/seed/{seed}.json belongs to no registered ruleset module"
        );
    }
    let templates: [(&str, TemplateOf); 2] = [
        ("templates/cards", |id| ruleset(id).card_template()),
        ("templates/reference", |id| ruleset(id).reference_template()),
    ];
    for (dir, embedded) in templates {
        for stem in json_stems(dir) {
            let id = registered(&stem)
                .unwrap_or_else(|| panic!("{dir}/{stem}.json belongs to no registered ruleset"));
            assert_eq!(
                embedded(id).path,
                format!("{dir}/{stem}.json"),
                "{id} embeds another file than its own"
            );
        }
    }
}

/// Where the app is one ruleset's by nature, with why. Everything else names no ruleset.
const BY_NATURE: &[(&str, &str, &str)] = &[
    (
        "armour-battles",
        "src/campaign/",
        "the Lorraine campaign: its engine, events and verifier (the battle branch reshapes it)",
    ),
    (
        "armour-battles",
        "src/cli/campaign/",
        "the Lorraine campaign's command line",
    ),
    (
        "armour-battles",
        "src/store/campaign.rs",
        "a Lorraine campaign's scenario column",
    ),
    (
        "armour-battles",
        "src/ui/campaign.rs",
        "the Lorraine campaign's view",
    ),
    (
        "armour-battles",
        "src/ui/model/campaign.rs",
        "the Lorraine campaign's model",
    ),
    (
        "armour-battles",
        "src/ui/tracker",
        "the Lorraine battle tracker (tracker.rs and its tests in tracker/)",
    ),
    (
        "armour-battles",
        "src/ui/resolve/battle_link.rs",
        "the tracker's link into the Armour Battles fire mechanic",
    ),
    (
        "armour-battles",
        "src/export/after_action/",
        "a Lorraine campaign's after-action report",
    ),
];

/// The source files of the app, without test code: `tests.rs` files, `tests/` folders and
/// everything after a `#[cfg(test)] mod tests` line.
fn app_sources(dir: &Path, found: &mut Vec<(PathBuf, String)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "tests" {
                app_sources(&path, found);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && name != "test_support.rs" {
            let text = fs::read_to_string(&path).unwrap();
            let mut code = String::new();
            let mut lines = text.lines().peekable();
            while let Some(line) = lines.next() {
                if line.starts_with("#[cfg(test)]")
                    && lines
                        .peek()
                        .is_some_and(|next| next.starts_with("mod tests"))
                {
                    break;
                }
                code.push_str(line);
                code.push('\n');
            }
            found.push((path, code));
        }
    }
}

/// True when `word` stands in `text` as a word of its own (not inside a longer name).
fn names(text: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

#[test]
fn outside_its_module_and_the_registry_no_source_names_a_ruleset() {
    let mut sources = Vec::new();
    app_sources(&root().join("src"), &mut sources);
    let mut stray = Vec::new();
    for id in RulesetId::ALL {
        let module = id.as_str().replace('-', "_");
        let variant = format!("{id:?}");
        let own = root().join("src/rules").join(&module);
        for (path, code) in &sources {
            let file = path
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let allowed = path.starts_with(&own)
                || file == "src/rules/mod.rs"
                || file == "src/rules/registry.rs"
                || BY_NATURE
                    .iter()
                    .any(|(who, place, _)| *who == id.as_str() && file.starts_with(place));
            if !allowed
                && [module.as_str(), &variant, id.as_str()]
                    .iter()
                    .any(|w| names(code, w))
            {
                stray.push(format!("{file} names {id}"));
            }
        }
    }
    assert!(
        stray.is_empty(),
        "ask the ruleset (rules::Ruleset, card::CardData) instead of naming it:\n{}",
        stray.join("\n")
    );
}

#[test]
fn a_word_is_named_only_on_its_own() {
    assert!(names("use rules::bolt_action;", "bolt_action"));
    assert!(names("\"bolt-action\"", "bolt-action"));
    assert!(!names("BoltActionArgs", "BoltAction"));
    assert!(!names("my_bolt_action_x", "bolt_action"));
}
