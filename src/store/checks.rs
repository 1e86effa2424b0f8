//! Every CHECK constraint of a database, evaluated row by row, whatever its schema version.
//!
//! SQLite's `integrity_check` does not evaluate CHECK constraints (3.40 passes a row whose JSON
//! column is not JSON), and a write only checks the rows it writes, so damage can sit in a file
//! until an upgrade or an edit trips over it. `db check` therefore reads each table's own CHECK
//! expressions from the schema the file holds (`sqlite_master`: SQLite keeps a table's CREATE
//! statement, columns added later included) and asks for the rows where one is false — the same
//! test SQLite applies (a CHECK fails when its value, as a number, is 0; NULL passes). Nothing
//! is listed by hand, so a constraint a migration adds is checked from the day it is added, on a
//! file of any version.

use rusqlite::Connection;

/// Most rows named per broken constraint.
const ROWS_NAMED: usize = 3;

/// One line per CHECK constraint some row breaks: the table, the rows (by rowid, a few) and
/// the constraint.
///
/// # Errors
/// The schema cannot be read, or a constraint cannot be evaluated.
pub(crate) fn broken_constraints(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let tables: Vec<(String, String)> = conn
        .prepare(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL \
             AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut found = Vec::new();
    for (table, sql) in tables {
        let rowid = !sql.to_uppercase().contains("WITHOUT ROWID");
        for check in check_expressions(&sql) {
            let key = if rowid { "rowid" } else { "1" };
            let query = format!(
                "SELECT {key} FROM \"{}\" WHERE CAST(({check}) AS NUMERIC) = 0",
                table.replace('"', "\"\"")
            );
            let rows: Vec<i64> = conn
                .prepare(&query)?
                .query_map([], |row| row.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            if rows.is_empty() {
                continue;
            }
            let which = if rowid {
                let named: Vec<String> = rows.iter().take(ROWS_NAMED).map(i64::to_string).collect();
                let more = rows.len().saturating_sub(ROWS_NAMED);
                let more = if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                };
                format!("row {}{more}", named.join(", "))
            } else {
                crate::rules::words::amount(rows.len() as u64, "rows")
            };
            found.push(format!(
                "{table} {which}: breaks its CHECK constraint ({check})"
            ));
        }
    }
    Ok(found)
}

/// The expressions of every `CHECK (…)` in a CREATE TABLE statement, outside quotes and
/// comments.
fn check_expressions(sql: &str) -> Vec<String> {
    let chars: Vec<char> = sql.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            // Quoted text or a quoted name: skipped whole ('' and "" escape themselves).
            q @ ('\'' | '"' | '`') => {
                i += 1;
                while i < chars.len() {
                    if chars[i] == q {
                        if chars.get(i + 1) == Some(&q) {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
                i += 1;
            }
            '-' if chars.get(i + 1) == Some(&'-') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            c if c.eq_ignore_ascii_case(&'c') && is_check_keyword(&chars, i) => {
                let mut j = i + 5;
                while chars.get(j).is_some_and(|c| c.is_whitespace()) {
                    j += 1;
                }
                if chars.get(j) == Some(&'(') {
                    let (expr, end) = balanced(&chars, j);
                    found.push(expr);
                    i = end;
                } else {
                    i += 5;
                }
            }
            _ => i += 1,
        }
    }
    found
}

/// Whether the word `CHECK` starts at `i` (not inside another name).
fn is_check_keyword(chars: &[char], i: usize) -> bool {
    let word: String = chars.iter().skip(i).take(5).collect();
    let before = i.checked_sub(1).and_then(|b| chars.get(b));
    let after = chars.get(i + 5);
    let name_char = |c: &char| c.is_alphanumeric() || *c == '_';
    word.eq_ignore_ascii_case("check")
        && !before.is_some_and(name_char)
        && !after.is_some_and(name_char)
}

/// The text inside the parentheses opening at `open`, and where they close (quotes inside
/// respected).
fn balanced(chars: &[char], open: usize) -> (String, usize) {
    let mut depth = 0usize;
    let mut i = open;
    let mut quote: Option<char> = None;
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' | '`' => quote = Some(c),
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        let inner: String = chars[open + 1..i].iter().collect();
                        return (inner.trim().to_string(), i + 1);
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
    let inner: String = chars.get(open + 1..).unwrap_or(&[]).iter().collect();
    (inner.trim().to_string(), chars.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_is_found_and_every_breaking_row_named() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, b TEXT CHECK (json_valid(b)),
                 n INTEGER CHECK (n >= 1), 'check' TEXT, note TEXT DEFAULT 'check (x)',
                 CHECK ((n IN (1, 2)) OR b = '(\"x\")'));
             ALTER TABLE t ADD COLUMN k TEXT CHECK (k IS NULL OR length(k) = 2);
             PRAGMA ignore_check_constraints = 1;
             INSERT INTO t (b, n, k) VALUES ('{}', 1, NULL), ('{', 0, 'abc'), ('[]', 5, 'ab');",
        )
        .unwrap();
        let sql: String = conn
            .query_row("SELECT sql FROM sqlite_master WHERE name = 't'", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(
            check_expressions(&sql),
            [
                "json_valid(b)",
                "n >= 1",
                // A column added later is written among the columns, before the table's own.
                "k IS NULL OR length(k) = 2",
                "(n IN (1, 2)) OR b = '(\"x\")'",
            ]
        );
        let broken = broken_constraints(&conn).unwrap();
        assert_eq!(broken.len(), 4, "{broken:?}");
        assert!(broken[0].starts_with("t row 2: breaks"), "{broken:?}");
        assert!(broken[3].starts_with("t row 2, 3: breaks"), "{broken:?}");
    }
}
