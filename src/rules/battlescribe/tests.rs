//! Reading BattleScribe files: the test game system and catalogue (`tests/fixtures/
//! battlescribe`, written for these tests) read whole, and each kind of bad input refused
//! with its file and line.

use super::*;

const SYSTEM: &[u8] = include_bytes!("../../../tests/fixtures/battlescribe/test_system.gst");
const BLUE: &[u8] = include_bytes!("../../../tests/fixtures/battlescribe/blue_army.cat");

fn catalogue(body: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<catalogue id=\"c\" name=\"Loop\" revision=\"1\" battleScribeVersion=\"2.03\" gameSystemId=\"qm-sys\" xmlns=\"http://www.battlescribe.net/schema/catalogueSchema\">\n{body}\n</catalogue>\n"
    )
}

#[test]
fn the_test_system_reads_with_its_categories_force_entries_and_shared_items() {
    let system = read_file("test_system.gst", SYSTEM).unwrap();
    assert_eq!(system.kind, FileKind::GameSystem);
    assert_eq!(
        (system.name.as_str(), system.revision),
        ("Bolt Action test system", 3)
    );
    assert_eq!(system.cost_types[0].name, "pts");
    assert_eq!(system.categories.len(), 5);
    // The nested Armoured Platoon is flattened after the Reinforced Platoon.
    let names: Vec<&str> = system
        .force_entries
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(names, ["Reinforced Platoon", "Armoured Platoon"]);
    assert_eq!(system.shared_profiles.len(), 2);
    assert_eq!(system.shared_rules.len(), 2);
    assert_eq!(system.digest.len(), 64);
}

#[test]
fn a_catalogue_resolves_its_links_and_notes_what_it_cannot_settle() {
    let system = read_file("test_system.gst", SYSTEM).unwrap();
    let blue = read_file("blue_army.cat", BLUE).unwrap();
    assert_eq!(blue.game_system_id.as_deref(), Some("qm-sys"));
    let resolved = resolve_catalogue(&system, &blue, &[]).unwrap();
    let names: Vec<&str> = resolved.units.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Line Squad",
            "Platoon Commander",
            "Light Mortar Team",
            "Warden Medium Tank",
            "Sniper Team",
            "Scout Car"
        ]
    );
    // The root link brought the shared Scout Car with the link's category and the shared
    // rule its info link names.
    let scout = &resolved.units[5];
    assert_eq!(scout.categories[0].target_id, "qm-cat-trans");
    assert_eq!(scout.rules[0].name, "Recce");
    // A link's unconditional modifier set the Veteran's extra man to 13 points.
    let squad = &resolved.units[0];
    let quality = &squad.groups[0];
    let veteran = quality
        .entries
        .iter()
        .find(|e| e.name == "Veteran")
        .unwrap();
    assert_eq!(veteran.entries[0].costs[0].value, 13.0);
    // The shared group linked from the tank.
    let warden = &resolved.units[3];
    assert_eq!(warden.groups[1].name, "Vehicle upgrades");
    assert_eq!(warden.groups[1].entries.len(), 2);
    let says = |needle: &str| {
        resolved
            .notes
            .iter()
            .find(|n| n.to_string().contains(needle))
            .unwrap_or_else(|| panic!("no note saying {needle}: {:#?}", resolved.notes))
            .clone()
    };
    let lmg = says("applies only when");
    assert_eq!(lmg.entry, "Line Squad › Squad weapons › LMG");
    assert!(lmg.line > 1 && lmg.file == "blue_army.cat", "{lmg}");
    says("Prototype Walker: hidden in the data");
    says("Blue Army special rules: a top-level entry of type \"upgrade\"");
    says("Sniper Team: a modifier (add category qm-cat-hq) this importer does not understand");
}

#[test]
fn malformed_xml_is_refused_with_its_line() {
    let text =
        "<?xml version=\"1.0\"?>\n<catalogue id=\"c\"\n  name=\"Broken\">\n<oops>\n</catalogue>\n";
    let error = read_file("broken.cat", text.as_bytes()).unwrap_err();
    assert!(
        matches!(&error, DataError::Malformed { file, line: 5, .. } if file == "broken.cat"),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .starts_with("broken.cat line 5: not readable XML")
    );
    let latin1 = b"<?xml version=\"1.0\"?>\n<catalogue name=\"Caf\xe9\"/>";
    let error = read_file("latin1.cat", latin1).unwrap_err();
    assert_eq!(
        error.to_string(),
        "latin1.cat line 2: not readable XML — not UTF-8 text"
    );
}

#[test]
fn an_unknown_schema_version_or_root_is_refused() {
    let text = catalogue("").replace("2.03", "3.01");
    let error = read_file("future.cat", text.as_bytes()).unwrap_err();
    assert!(
        error.to_string().starts_with(
            "future.cat line 2: BattleScribe schema version \"3.01\" is not one this app reads (2.00, 2.01, 2.02 or 2.03)"
        ),
        "{error}"
    );
    let error = read_file("roster.ros", b"<roster id=\"r\"/>").unwrap_err();
    assert!(
        matches!(error, DataError::NotBattleScribe { line: 1, .. }),
        "{error}"
    );
}

#[test]
fn links_that_loop_are_refused_naming_the_file_and_the_link() {
    let system = read_file("test_system.gst", SYSTEM).unwrap();
    let text = catalogue(
        r#"<selectionEntries>
  <selectionEntry id="u" name="Unit" type="unit">
    <entryLinks><entryLink id="l1" name="Group A" targetId="ga" type="selectionEntryGroup"/></entryLinks>
  </selectionEntry>
</selectionEntries>
<sharedSelectionEntryGroups>
  <selectionEntryGroup id="ga" name="Group A">
    <entryLinks><entryLink id="l2" name="Group B" targetId="gb" type="selectionEntryGroup"/></entryLinks>
  </selectionEntryGroup>
  <selectionEntryGroup id="gb" name="Group B">
    <entryLinks><entryLink id="l3" name="Back to A" targetId="ga" type="selectionEntryGroup"/></entryLinks>
  </selectionEntryGroup>
</sharedSelectionEntryGroups>"#,
    );
    let file = read_file("loop.cat", text.as_bytes()).unwrap();
    let error = resolve_catalogue(&system, &file, &[]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "loop.cat line 13: the links loop back on themselves (Group A (line 5) → Group B (line 10) → Back to A (line 13) again)"
    );
}

#[test]
fn links_that_multiply_past_any_army_list_are_refused() {
    // Seven shared groups, each linking the next ten times: 10^7 entries, no loop.
    let system = read_file("test_system.gst", SYSTEM).unwrap();
    let mut groups = String::new();
    for level in 0..7 {
        let links: String = (0..10)
            .map(|i| {
                format!(
                    "<entryLink id=\"l{level}-{i}\" name=\"G{}\" targetId=\"g{}\" type=\"selectionEntryGroup\"/>",
                    level + 1,
                    level + 1
                )
            })
            .collect();
        groups.push_str(&format!(
            "<selectionEntryGroup id=\"g{level}\" name=\"G{level}\"><entryLinks>{links}</entryLinks></selectionEntryGroup>\n"
        ));
    }
    groups.push_str("<selectionEntryGroup id=\"g7\" name=\"G7\"/>");
    let text = catalogue(&format!(
        "<selectionEntries><selectionEntry id=\"u\" name=\"U\" type=\"unit\"><entryLinks><entryLink id=\"l\" name=\"G0\" targetId=\"g0\" type=\"selectionEntryGroup\"/></entryLinks></selectionEntry></selectionEntries>\n<sharedSelectionEntryGroups>{groups}</sharedSelectionEntryGroups>"
    ));
    let file = read_file("fanout.cat", text.as_bytes()).unwrap();
    let error = resolve_catalogue(&system, &file, &[]).unwrap_err();
    assert!(
        error.to_string().starts_with(&format!(
            "fanout.cat: its links expand to more than {MAX_ENTRIES} entries"
        )),
        "{error}"
    );
}

#[test]
fn a_file_past_the_size_cap_is_refused_before_it_is_parsed() {
    let big = vec![b' '; MAX_FILE_BYTES + 1];
    let error = read_file("huge.cat", &big).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("huge.cat: 50.0 MB is more than the 50 MB an army list can be"),
        "{error}"
    );
}
