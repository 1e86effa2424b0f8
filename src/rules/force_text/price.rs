//! Prices as players type them in a posted list: "60", "60 pts", "60pts", "60 points",
//! "(34pts)", "[55 points]", "— 2 × 70 = 140 points", "- 140 points". Pure text: which number
//! is a price of one unit, or why it cannot be read as one.

/// The words a price may end in, longest first so "points" is not read as "p" + "oints".
const UNITS: [&str; 6] = ["points", "point", "pts", "pt", "p", ""];

/// A price alone ("60", "60 pts", "60pts", "60 points", "60 Points each"), or `None`.
pub fn price_in(text: &str) -> Option<u32> {
    let lower = text.trim().to_lowercase();
    let lower = lower.strip_suffix("each").unwrap_or(&lower).trim_end();
    let digits = lower.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let unit = lower[digits..].trim();
    UNITS
        .contains(&unit)
        .then(|| lower[..digits].parse().ok())
        .flatten()
}

/// Splits a price typed at the end of a name: "Panzerschreck Team 60", "Squad: 70pts",
/// "Squad, 70 pts", "Squad = 70", "Squad @ 70" → ("Panzerschreck Team", 60). `None` when the
/// text does not end in a price.
pub fn split_tail(text: &str) -> Option<(&str, u32)> {
    let text = text.trim_end();
    // The price starts after the last space (or separator) from which the rest reads as one.
    let (cut, price) = text
        .char_indices()
        .rev()
        .filter(|(_, c)| matches!(c, ' ' | ':' | ',' | '=' | '@' | '…'))
        .find_map(|(at, c)| Some((at, price_in(&text[at + c.len_utf8()..])?)))?;
    let name = text[..cut].trim_end_matches([' ', ':', ',', '=', '@', '…', '.', '-']);
    (!name.trim().is_empty()).then_some((name.trim(), price))
}

/// The price of one unit from the cost after a dash, for a line of `count` units: "2 × 70 =
/// 140 points", "2x70=140" and "70 points each" give 70; "140 points" is the line's total, so
/// 70 for 2 units.
///
/// # Errors
/// A total that `count` units cannot share evenly.
pub fn each_from_cost(cost: &str, count: u32) -> Result<Option<u32>, String> {
    let cost = cost.trim();
    if let Some((left, _)) = cost.split_once('=') {
        let each = left.rsplit(['×', 'x', 'X', '*']).next().and_then(price_in);
        return Ok(each);
    }
    let Some(total) = price_in(cost) else {
        return Ok(None);
    };
    // "70 points each" is already one unit's price, whatever the count.
    if cost.to_lowercase().ends_with("each") {
        return Ok(Some(total));
    }
    if count <= 1 {
        return Ok(Some(total));
    }
    if total % count == 0 {
        Ok(Some(total / count))
    } else {
        Err(format!(
            "\"{cost}\" for {count} units does not share evenly: write the price of one (\"{count} × … — {count} × N = {total} points\")"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_read_in_the_ways_players_type_them() {
        for (text, price) in [
            ("60", 60),
            ("60 pts", 60),
            ("60pts", 60),
            ("60 points", 60),
            ("60 Points", 60),
            ("60p", 60),
            ("55 points each", 55),
        ] {
            assert_eq!(price_in(text), Some(price), "{text}");
        }
        for text in ["", "lots", "60 tanks", "pts 60", "-60"] {
            assert_eq!(price_in(text), None, "{text}");
        }
    }

    #[test]
    fn a_price_after_a_name_splits_off() {
        assert_eq!(
            split_tail("Panzerschreck Team 60"),
            Some(("Panzerschreck Team", 60))
        );
        assert_eq!(split_tail("Squad: 70pts"), Some(("Squad", 70)));
        assert_eq!(split_tail("Squad, 70 pts"), Some(("Squad", 70)));
        assert_eq!(split_tail("Squad = 70"), Some(("Squad", 70)));
        assert_eq!(split_tail("Squad @ 70 points"), Some(("Squad", 70)));
        assert_eq!(split_tail("Pak 40"), Some(("Pak", 40)));
        assert_eq!(split_tail("Squad"), None);
        assert_eq!(split_tail("60"), None);
    }

    #[test]
    fn the_cost_after_a_dash_gives_the_price_of_one() {
        assert_eq!(each_from_cost("2 × 70 = 140 points", 2), Ok(Some(70)));
        assert_eq!(each_from_cost("2x70=140", 2), Ok(Some(70)));
        assert_eq!(each_from_cost("140 points", 2), Ok(Some(70)));
        assert_eq!(each_from_cost("70 points each", 2), Ok(Some(70)));
        assert_eq!(each_from_cost("70 Points Each", 3), Ok(Some(70)));
        assert_eq!(each_from_cost("45 points", 1), Ok(Some(45)));
        assert_eq!(each_from_cost("the club's own", 1), Ok(None));
        assert!(
            each_from_cost("140 points", 3)
                .unwrap_err()
                .contains("does not share evenly")
        );
    }
}
