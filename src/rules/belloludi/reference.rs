//! The BelloLudi quick reference's table built from the component prices.

use super::{Class, components};
use crate::rules::reference::Table;

/// The tables this ruleset builds for its quick reference.
pub(super) const SOURCES: [&str; 1] = ["belloludi.costs"];

/// The table `source` names, if it is one of [`SOURCES`].
pub(super) fn table(source: &str) -> Option<Table> {
    match source {
        "belloludi.costs" => costs(),
        _ => None,
    }
}

fn costs() -> Option<Table> {
    let c = components()?;
    let mut rows = Vec::new();
    for s in &c.speed {
        rows.push(vec![
            "Speed".to_string(),
            format!("{}″ off-road / {}″ road", s.off_road, s.road),
            s.points.to_string(),
        ]);
    }
    for s in &c.shooting {
        let class = match s.commander_dice {
            1 => Some(Class::Light),
            2 => Some(Class::Medium),
            3 => Some(Class::Heavy),
            _ => None,
        };
        let gun = c.guns.iter().find(|g| Some(g.class) == class);
        rows.push(vec![
            "Shooting".to_string(),
            match gun {
                Some(g) => format!("{}CD · {} ({}″)", s.commander_dice, g.name, g.range),
                None => format!("{}CD", s.commander_dice),
            },
            s.points.to_string(),
        ]);
    }
    for a in &c.armour {
        rows.push(vec![
            "Armour".to_string(),
            a.armour.to_string(),
            a.points.to_string(),
        ]);
    }
    Some(Table::new(
        &["Component", "Choice", "Points"],
        rows,
        &[1.0, 2.6, 0.8],
    ))
}
