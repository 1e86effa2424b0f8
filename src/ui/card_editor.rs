//! The custom card editor: one form per ruleset, checked as you type by the same parser that
//! reads inline cards from force files, so the app and the files agree on what is valid.

use crate::rules::armour_battles::cards::Weight;
use crate::rules::armour_battles::{
    self as ab, MoveClass, Reaction, SpecialRule, UnitCard, UnitKind,
};
use crate::rules::battle_of_tanks::TankCard;
use crate::rules::belle_epoque::{self as be, Doctrine, Reactivity, Trait, TroopType};
use crate::rules::belloludi::{Class, Vehicle};
use crate::rules::bolt_action::{self as ba, Category, Quality, VehicleMovement};
use crate::rules::{self, Card, RulesetId};
use crate::store::CardId;

use super::action::Action;
use super::model::Command;

/// An open editor: the card being shaped and where it will be saved.
#[derive(Debug, Clone, PartialEq)]
pub struct CardEditor {
    /// The custom card being edited, or `None` for a new one.
    pub id: Option<CardId>,
    pub card: Card,
}

impl CardEditor {
    /// A blank card of `ruleset` with the book's most common values.
    pub fn new_card(ruleset: RulesetId) -> Self {
        let card = match ruleset {
            RulesetId::ArmourBattles => Card::ArmourBattles(UnitCard {
                name: "New unit".into(),
                short_names: Vec::new(),
                side: ab::Side::Us,
                kind: UnitKind::Afv,
                weight: Some(Weight::Medium),
                move_class: Some(MoveClass::Average),
                reaction: Some(Reaction {
                    dice: 5,
                    sloped_other: None,
                    low_profile_artillery: None,
                    open_topped: false,
                }),
                weapon: "75mm Gun".into(),
                range: Some(ab::cards::RangeBands {
                    short: 8,
                    effective: 16,
                    long: 32,
                }),
                at_dice: 7,
                cohesion: 3,
                special_rules: Vec::new(),
            }),
            RulesetId::Belloludi => Card::Belloludi(Vehicle {
                name: "New vehicle".into(),
                speed: Class::Medium,
                shooting: 2,
                armour: 5,
                morale: None,
                example: false,
            }),
            RulesetId::BattleOfTanks => Card::BattleOfTanks(TankCard {
                name: "New tank".into(),
                short_names: Vec::new(),
                tier: 5,
                hit_points: 600,
                movement_cm: 50,
                sight_cm: 80,
                spotting: 2,
                accuracy: 3,
                fire_rate: 2,
                firepower: 100,
                repair: 3,
            }),
            RulesetId::BoltAction => Card::BoltAction(ba::UnitProfile {
                name: "New unit".into(),
                category: Category::Infantry,
                quality: Quality::Regular,
                weapons: vec!["Rifle".into()],
                movement: None,
                open_topped: false,
                recce: false,
                example: false,
            }),
            RulesetId::BelleEpoque => Card::BelleEpoque(be::UnitProfile {
                name: "New unit".into(),
                kind: be::UnitKind::FormedInfantry,
                troop_type: TroopType::B,
                reactivity: Reactivity::Trained,
                doctrine: Doctrine::Close,
                stands: 4,
                traits: Vec::new(),
                example: false,
                example_stats: Vec::new(),
            }),
        };
        CardEditor { id: None, card }
    }

    /// A custom copy of a book card.
    pub fn duplicate(card: &Card) -> Self {
        let mut card = card.clone();
        let name = format!("{} (custom)", card.name());
        set_name(&mut card, name);
        if let Card::Belloludi(v) = &mut card {
            v.example = false;
            v.morale = None;
        }
        if let Card::BelleEpoque(p) = &mut card {
            p.example = false;
        }
        CardEditor { id: None, card }
    }

    /// An editor for an existing custom card.
    pub fn edit(id: CardId, card: Card) -> Self {
        CardEditor { id: Some(id), card }
    }

    /// The problem with the card as it stands, in the words a force file would get.
    pub fn problem(&self) -> Option<String> {
        let json = self.card.to_inline_json();
        rules::ruleset(self.card.ruleset())
            .parse_inline_card(&json, "card")
            .err()
            .map(|e| e.to_string())
    }

    /// Draws the editor window; returns Save / Cancel actions.
    pub fn window(&mut self, ctx: &egui::Context) -> Vec<Action> {
        // Read before the drop-downs are drawn: an Escape that closes one keeps the editor.
        let escape = super::widgets::escape_closes_dialog(ctx);
        let mut actions = Vec::new();
        let mut open = true;
        let title = format!(
            "{} card — {}",
            if self.id.is_some() { "Edit" } else { "New" },
            self.card.ruleset().title()
        );
        egui::Window::new(title)
            .id(egui::Id::unique("card_editor"))
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                egui::Grid::new("card_fields")
                    .num_columns(2)
                    .spacing([12.0, 6.0])
                    .show(ui, |ui| {
                        let name_label = ui.label("Name");
                        let mut name = self.card.name().to_string();
                        if ui
                            .add(egui::TextEdit::singleline(&mut name).hint_text("card name"))
                            .labelled_by(name_label.id)
                            .changed()
                        {
                            set_name(&mut self.card, name);
                        }
                        ui.end_row();
                        match &mut self.card {
                            Card::ArmourBattles(c) => armour_battles_fields(ui, c),
                            Card::Belloludi(c) => belloludi_fields(ui, c),
                            Card::BattleOfTanks(c) => battle_of_tanks_fields(ui, c),
                            Card::BoltAction(c) => bolt_action_fields(ui, c),
                            Card::BelleEpoque(c) => belle_epoque_fields(ui, c),
                        }
                    });
                ui.separator();
                let problem = self.problem();
                match &problem {
                    Some(text) => {
                        ui.colored_label(ui.visuals().error_fg_color, format!("✗ {text}"));
                    }
                    None => {
                        ui.label("✓ Valid card");
                    }
                }
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(problem.is_none(), egui::Button::new("Save card"))
                        .on_hover_text("Enter")
                        .clicked()
                    {
                        actions.push(Action::Model(Command::SaveCustomCard {
                            id: self.id,
                            card: self.card.clone(),
                        }));
                        actions.push(Action::EditCard(None));
                    }
                    if ui.button("Cancel").on_hover_text("Escape").clicked() {
                        actions.push(Action::EditCard(None));
                    }
                });
            });
        // Escape cancels and Enter saves a valid card, as in every other dialog.
        let enter = ctx.input(|i| i.key_pressed(egui::Key::Enter));
        if enter && actions.is_empty() && self.problem().is_none() {
            actions.push(Action::Model(Command::SaveCustomCard {
                id: self.id,
                card: self.card.clone(),
            }));
            actions.push(Action::EditCard(None));
        } else if !open || escape {
            actions.push(Action::EditCard(None));
        }
        actions
    }
}

fn set_name(card: &mut Card, name: String) {
    match card {
        Card::ArmourBattles(c) => c.name = name,
        Card::Belloludi(c) => c.name = name,
        Card::BattleOfTanks(c) => c.name = name,
        Card::BoltAction(c) => c.name = name,
        Card::BelleEpoque(c) => c.name = name,
    }
}

fn choice<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut T,
    options: &[(T, &str)],
) {
    let name = ui.label(label);
    let current = options
        .iter()
        .find(|(v, _)| v == value)
        .map_or("?", |(_, l)| *l);
    egui::ComboBox::from_id_salt(label)
        .selected_text(current)
        .show_ui(ui, |ui| {
            for (option, text) in options {
                ui.selectable_value(value, *option, *text);
            }
        })
        .response
        .labelled_by(name.id);
    ui.end_row();
}

fn number<T: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut T,
    range: std::ops::RangeInclusive<T>,
    hint: &str,
) {
    let name = ui.label(label).on_hover_text(hint);
    ui.add(egui::DragValue::new(value).range(range))
        .labelled_by(name.id)
        .on_hover_text(hint);
    ui.end_row();
}

fn belloludi_fields(ui: &mut egui::Ui, v: &mut Vehicle) {
    choice(
        ui,
        "Speed",
        &mut v.speed,
        &[
            (Class::Light, "12″/18″ (2 pts)"),
            (Class::Medium, "8″/12″ (1 pt)"),
            (Class::Heavy, "6″/9″ (0 pts)"),
        ],
    );
    choice(
        ui,
        "Shooting",
        &mut v.shooting,
        &[(1, "1CD (6 pts)"), (2, "2CD (8 pts)"), (3, "3CD (12 pts)")],
    );
    choice(
        ui,
        "Armour",
        &mut v.armour,
        &[(3, "3 (4 pts)"), (5, "5 (8 pts)"), (7, "7 (12 pts)")],
    );
    ui.label("Points");
    match v.points() {
        Ok(points) => ui.strong(format!("{points} points")),
        Err(e) => ui.colored_label(ui.visuals().error_fg_color, e.to_string()),
    };
    ui.end_row();
}

fn battle_of_tanks_fields(ui: &mut egui::Ui, t: &mut TankCard) {
    number(
        ui,
        "Tier",
        &mut t.tier,
        1..=20,
        "Stufe: counts against the tier points",
    );
    number(
        ui,
        "Hit points",
        &mut t.hit_points,
        1..=10_000,
        "The tank is destroyed at 0",
    );
    number(ui, "Movement (cm)", &mut t.movement_cm, 0..=500, "Bewegung");
    number(ui, "Sight (cm)", &mut t.sight_cm, 0..=500, "Sichtweite");
    number(ui, "Spotting (x+)", &mut t.spotting, 1..=6, "Aufklärung");
    number(ui, "Accuracy (x+)", &mut t.accuracy, 1..=6, "Genauigkeit");
    number(
        ui,
        "Fire rate",
        &mut t.fire_rate,
        1..=50,
        "Feuerrate: shots per round",
    );
    number(
        ui,
        "Firepower",
        &mut t.firepower,
        0..=5000,
        "Feuerkraft: damage per penetration",
    );
    number(ui, "Repair (x+)", &mut t.repair, 1..=6, "Instandsetzung");
}

fn armour_battles_fields(ui: &mut egui::Ui, c: &mut UnitCard) {
    choice(
        ui,
        "Side",
        &mut c.side,
        &[(ab::Side::Us, "US"), (ab::Side::German, "German")],
    );
    choice(
        ui,
        "Kind",
        &mut c.kind,
        &[
            (UnitKind::Afv, "AFV"),
            (UnitKind::OffTableArtillery, "Off-table artillery"),
        ],
    );
    if c.kind == UnitKind::Afv {
        let mut weight = c.weight.unwrap_or(Weight::Medium);
        choice(
            ui,
            "Weight",
            &mut weight,
            &[
                (Weight::Light, "Light"),
                (Weight::Medium, "Medium"),
                (Weight::Heavy, "Heavy"),
            ],
        );
        c.weight = Some(weight);
        let mut move_class = c.move_class.unwrap_or(MoveClass::Average);
        choice(
            ui,
            "Move",
            &mut move_class,
            &[
                (MoveClass::Average, "Average 6+1D″"),
                (MoveClass::Fast, "Fast 6+1D×2″"),
            ],
        );
        c.move_class = Some(move_class);
        let mut reaction = c.reaction.unwrap_or(Reaction {
            dice: 5,
            sloped_other: None,
            low_profile_artillery: None,
            open_topped: false,
        });
        number(
            ui,
            "Reaction dice",
            &mut reaction.dice,
            1..=12,
            "Dice rolled when hit (frontal direct fire)",
        );
        c.reaction = Some(reaction);
        let mut range = c.range.unwrap_or(ab::cards::RangeBands {
            short: 8,
            effective: 16,
            long: 32,
        });
        number(
            ui,
            "Short range″",
            &mut range.short,
            1..=100,
            "−1 TN within this range",
        );
        number(
            ui,
            "Effective range″",
            &mut range.effective,
            1..=200,
            "No modifier",
        );
        number(
            ui,
            "Long range″",
            &mut range.long,
            1..=400,
            "+1 TN out to this range",
        );
        c.range = Some(range);
    } else {
        c.weight = None;
        c.move_class = None;
        c.reaction = None;
        c.range = None;
    }
    let weapon_label = ui.label("Weapon");
    ui.add(egui::TextEdit::singleline(&mut c.weapon).hint_text("weapon"))
        .labelled_by(weapon_label.id);
    ui.end_row();
    number(ui, "AT dice", &mut c.at_dice, 1..=15, "Anti-tank fire dice");
    ui.label("Special rules");
    ui.vertical(|ui| {
        for rule in SpecialRule::ALL {
            let mut on = c.special_rules.contains(&rule);
            if ui
                .checkbox(&mut on, rule.title())
                .on_hover_text(rule.explanation())
                .changed()
            {
                if on {
                    c.special_rules.push(rule);
                } else {
                    c.special_rules.retain(|r| *r != rule);
                }
            }
        }
    });
    ui.end_row();
    // The notation follows the rules chosen, so the card and its reaction never disagree.
    if let Some(reaction) = &mut c.reaction {
        reaction.sloped_other = c
            .special_rules
            .contains(&SpecialRule::SlopedArmour)
            .then(|| reaction.dice.saturating_sub(1));
        reaction.low_profile_artillery = c
            .special_rules
            .contains(&SpecialRule::LowProfile)
            .then(|| reaction.dice.saturating_sub(1));
        reaction.open_topped = c.special_rules.contains(&SpecialRule::OpenTopped);
    }
}

fn bolt_action_fields(ui: &mut egui::Ui, p: &mut ba::UnitProfile) {
    choice(
        ui,
        "Category",
        &mut p.category,
        &[
            (Category::Infantry, "Infantry"),
            (Category::Artillery, "Artillery"),
            (Category::SoftSkin, "Soft-skinned vehicle"),
            (Category::ArmouredCar, "Armoured car / carrier"),
            (Category::LightTank, "Light tank"),
            (Category::MediumTank, "Medium tank"),
            (Category::HeavyTank, "Heavy tank"),
            (Category::SuperHeavyTank, "Super-heavy tank"),
        ],
    );
    choice(
        ui,
        "Quality",
        &mut p.quality,
        &[
            (Quality::Inexperienced, "Inexperienced"),
            (Quality::Regular, "Regular"),
            (Quality::Veteran, "Veteran"),
        ],
    );
    if matches!(p.category, Category::Infantry | Category::Artillery) {
        p.movement = None;
    } else {
        let mut movement = p.movement.unwrap_or(VehicleMovement::Tracked);
        choice(
            ui,
            "Movement",
            &mut movement,
            &[
                (VehicleMovement::Tracked, "Tracked"),
                (VehicleMovement::HalfTracked, "Half-tracked"),
                (VehicleMovement::Wheeled, "Wheeled"),
            ],
        );
        p.movement = Some(movement);
        ui.label("Open-topped");
        ui.checkbox(&mut p.open_topped, "");
        ui.end_row();
        ui.label("Recce");
        ui.checkbox(&mut p.recce, "");
        ui.end_row();
    }
    ui.label("Weapons");
    ui.vertical(|ui| {
        let chart = ba::tables()
            .map(|t| t.weapons.as_slice())
            .unwrap_or_default();
        egui::ScrollArea::vertical()
            .max_height(180.0)
            .show(ui, |ui| {
                for weapon in chart {
                    let mut on = p.weapons.iter().any(|w| w == &weapon.name);
                    if ui
                        .checkbox(&mut on, &weapon.name)
                        .on_hover_text(weapon.summary())
                        .changed()
                    {
                        if on {
                            p.weapons.push(weapon.name.clone());
                        } else {
                            p.weapons.retain(|w| w != &weapon.name);
                        }
                    }
                }
            });
    });
    ui.end_row();
}

fn belle_epoque_fields(ui: &mut egui::Ui, p: &mut be::UnitProfile) {
    choice(
        ui,
        "Kind",
        &mut p.kind,
        &[
            (be::UnitKind::Cavalry, "Cavalry"),
            (be::UnitKind::MountedInfantry, "Mounted infantry"),
            (be::UnitKind::FormedInfantry, "Formed infantry"),
            (be::UnitKind::Tribesmen, "Tribesmen"),
        ],
    );
    let types = [
        TroopType::A,
        TroopType::B,
        TroopType::C,
        TroopType::D,
        TroopType::E,
        TroopType::F,
        TroopType::G,
    ];
    let labels: Vec<(TroopType, &str)> = types.iter().map(|t| (*t, t.letter())).collect();
    choice(ui, "Troop type", &mut p.troop_type, &labels);
    choice(
        ui,
        "Reactivity",
        &mut p.reactivity,
        &[
            (Reactivity::Poor, "Poor"),
            (Reactivity::Trained, "Trained"),
            (Reactivity::Elite, "Elite"),
        ],
    );
    choice(
        ui,
        "Doctrine",
        &mut p.doctrine,
        &[
            (Doctrine::Loose, "Loose order"),
            (Doctrine::Close, "Close order"),
        ],
    );
    number(
        ui,
        "Stands",
        &mut p.stands,
        1..=20,
        "The mustering limit is checked in forces",
    );
    ui.label("Traits");
    ui.horizontal_wrapped(|ui| {
        for t in [
            Trait::Bold,
            Trait::Dashing,
            Trait::Stubborn,
            Trait::Choc,
            Trait::Militia,
            Trait::Conspicuous,
        ] {
            let mut on = p.traits.contains(&t);
            if ui.checkbox(&mut on, t.label()).changed() {
                if on {
                    p.traits.push(t);
                } else {
                    p.traits.retain(|x| *x != t);
                }
            }
        }
    });
    ui.end_row();
}
