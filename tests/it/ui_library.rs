//! The library window, clicked through by label with egui_kittest (no display needed).

use crate::ui_support::{click, window};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use quartermaster::rules::RulesetId;
use quartermaster::ui::{App, CardKey};

#[test]
fn choosing_a_ruleset_and_a_card_shows_its_statistics() {
    let mut h = window();
    click(&mut h, "Armour Battles (11)");
    assert!(h.query_by_label("Tiger I").is_some());
    assert!(
        h.query_by_label("Light Tank").is_none(),
        "BelloLudi cards are filtered out"
    );
    click(&mut h, "Panther Ausf G");
    assert_eq!(
        h.state().prefs.library.selected_card,
        Some(CardKey::Book(
            RulesetId::ArmourBattles,
            "Panther Ausf G".to_string()
        ))
    );
    assert!(
        h.query_by_label("7D/6D").is_some(),
        "the reaction with its sloped variant is shown"
    );
    assert!(h.query_by_label("9/18/36″").is_some());
    assert!(h.query_by_label("book card (read-only)").is_none());
    assert!(h.query_by_label_contains("book card (read-only)").is_some());
    assert!(h.query_by_label("Duplicate to edit").is_some());
    assert!(
        h.query_by_label("As printed (poker card)").is_some(),
        "the card is shown as it will print, beside or below its stats"
    );
}

#[test]
fn every_ruleset_is_listed() {
    let h = window();
    for label in [
        "Armour Battles (11)",
        "BelloLudi Tanks! (5)",
        "Battle of Tanks (8)",
        "Bolt Action (19)",
        "Belle Epoque (7)",
    ] {
        assert!(h.query_by_label(label).is_some(), "{label}");
    }
}

#[test]
fn ctrl_f_focuses_search_and_typing_filters() {
    let mut h = window();
    click(&mut h, "Forces");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F);
    h.run();
    assert_eq!(h.state().prefs.view, quartermaster::ui::View::Library);
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text("puma");
    h.run();
    assert_eq!(h.state().prefs.library.search, "puma");
    assert!(h.query_by_label_contains("1 of 50 cards").is_some());
}

#[test]
fn duplicating_a_book_card_makes_an_editable_custom_copy() {
    let mut h = window();
    click(&mut h, "Battle of Tanks (8)");
    click(&mut h, "IS-2");
    click(&mut h, "Duplicate to edit");
    click(&mut h, "Save card");
    let custom = &h.state().model.custom_cards;
    assert_eq!(custom.len(), 1);
    assert_eq!(custom[0].1.name(), "IS-2 (custom)");
    assert!(
        h.query_by_label("IS-2 (custom) · custom").is_some(),
        "the copy is listed in the library, marked as custom"
    );
}

/// A custom card may share a book card's name; it must stay a card of its own.
#[test]
fn a_custom_card_named_like_a_book_card_stays_selectable_and_editable() {
    let mut h = window();
    click(&mut h, "BelloLudi Tanks! (5)");
    click(&mut h, "Sherman");
    click(&mut h, "Duplicate to edit");
    h.get_all_by_value("Sherman (custom)")
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::TextInput)
        .expect("the editor's name field")
        .set_text_value_accesskit("Sherman");
    h.run();
    click(&mut h, "Save card");
    let custom = h.state().model.custom_cards.clone();
    assert_eq!(custom.len(), 1);
    assert_eq!(custom[0].1.name(), "Sherman");
    assert!(
        h.query_by_label("BelloLudi Tanks! (6)").is_some(),
        "the filter counts the custom card"
    );
    click(&mut h, "Sherman · custom");
    assert_eq!(
        h.state().prefs.library.selected_card,
        Some(CardKey::Custom(custom[0].0))
    );
    assert!(
        h.query_by_label_contains("BelloLudi Tanks! · custom card")
            .is_some()
    );
    assert_eq!(
        h.query_all_by_label("Edit").count(),
        2,
        "the Edit menu and the card's Edit button"
    );
    assert!(h.query_by_label("Delete").is_some());
    // The book card is still the book card (the heading shows the custom card's name too).
    h.get_all_by_label("Sherman")
        .find(|n| n.accesskit_node().role() != egui::accesskit::Role::Label)
        .expect("the book Sherman's row")
        .click();
    h.run();
    assert!(h.query_by_label_contains("book card (read-only)").is_some());
    assert!(h.query_by_label_contains("17 points").is_some());
}

/// Opens the editor on a blank card of `id`, from the library filtered to it.
fn new_custom_card(h: &mut Harness<'static, App>, id: RulesetId) {
    // "Armour Battles (11)", or more once custom cards are saved.
    h.get_by_label_contains(&format!("{} (", id.title()))
        .click();
    h.run();
    click(h, "New custom card…");
}

/// The editor is one form for every ruleset, drawn from what the card describes: every field
/// is on screen and a blank card saves as it was described.
#[test]
fn the_card_editor_shows_every_field_each_ruleset_describes() {
    for id in RulesetId::ALL {
        let mut h = window();
        new_custom_card(&mut h, id);
        let blank = quartermaster::rules::ruleset(id).new_card();
        for field in blank.data().fields() {
            assert!(
                h.query_all_by_label(field.label).next().is_some(),
                "{id}: no '{}' field",
                field.label
            );
        }
        assert!(h.query_by_label("✓ Valid card").is_some(), "{id}");
        click(&mut h, "Save card");
        assert_eq!(h.state().model.custom_cards[0].1, blank, "{id}");
    }
}

#[test]
fn an_armour_battles_card_follows_its_special_rules_and_its_kind() {
    use quartermaster::rules::Card;
    use quartermaster::rules::armour_battles::{SpecialRule, UnitKind};
    let mut h = window();
    new_custom_card(&mut h, RulesetId::ArmourBattles);
    click(&mut h, "Sloped Armour");
    click(&mut h, "Save card");
    let Card::ArmourBattles(sloped) = &h.state().model.custom_cards[0].1 else {
        panic!("an Armour Battles card");
    };
    assert!(sloped.has(SpecialRule::SlopedArmour));
    assert_eq!(
        sloped.reaction.map(|r| r.notation()).as_deref(),
        Some("5D/4D"),
        "the flank number follows the rule"
    );

    new_custom_card(&mut h, RulesetId::ArmourBattles);
    click(&mut h, "Kind");
    click(&mut h, "Off-table artillery");
    assert!(
        h.query_by_label("Short range″").is_none(),
        "a battery has no range bands"
    );
    click(&mut h, "Save card");
    let Card::ArmourBattles(battery) = &h.state().model.custom_cards[1].1 else {
        panic!("an Armour Battles card");
    };
    assert_eq!(battery.kind, UnitKind::OffTableArtillery);
    assert_eq!((battery.range, battery.reaction), (None, None));
}
