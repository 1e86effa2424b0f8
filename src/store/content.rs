//! `db check` beyond SQLite's own check: a file can be sound page by page and still hold a
//! card, force or campaign the app cannot use, or dice that no longer replay (so the app's own
//! export would be refused on import). Each is loaded exactly as the app loads it.

use super::rows::AllRows;
use rusqlite::Connection;

use super::error::StoreError;
use super::{Ctx, Store, cards, queries};
use crate::campaign::file;

impl Store {
    /// Every card, force and campaign that does not load, and every campaign whose export
    /// would not import again (its dice no longer replay, or its log does not follow the
    /// rules), one line each. Empty when everything is usable.
    ///
    /// # Errors
    /// Only when the listing itself cannot be read.
    pub fn content_problems(&self) -> Result<Vec<String>, StoreError> {
        let mut problems = card_problems(&self.conn, &self.ctx)?;
        for force in self.list_forces()? {
            if let Err(e) = self.load_force(force.id) {
                problems.push(format!("force {} '{}': {e}", force.id, force.name));
            }
        }
        for summary in self.list_campaigns()? {
            let (id, name) = (summary.id, &summary.name);
            match self.load_campaign(id) {
                Ok(stored) => {
                    let again = file::to_json(&stored.record).and_then(|text| file::parse(&text));
                    if let Err(e) = again {
                        problems.push(format!(
                            "campaign {id} '{name}': its export would not import: {e}"
                        ));
                    }
                }
                // Kept on purpose (its events are readable), but it cannot be opened or
                // exported: said, so "ok" means every campaign loads.
                Err(e @ StoreError::LegacyCampaign { .. }) => {
                    problems.push(format!(
                        "campaign {id} '{name}': {e}; it cannot be exported either"
                    ));
                }
                Err(e) => problems.push(format!("campaign {id} '{name}': {e}")),
            }
        }
        Ok(problems)
    }
}

fn card_problems(conn: &Connection, ctx: &Ctx) -> Result<Vec<String>, StoreError> {
    let ids: Vec<super::CardId> = conn
        .all_rows(queries::CARD_IDS, [], |row| row.get(0))
        .map_err(ctx.err("listing the cards"))?;
    Ok(ids
        .into_iter()
        .filter_map(|id| {
            cards::get(conn, ctx, id)
                .err()
                .map(|e| format!("card {id}: {e}"))
        })
        .collect())
}
