//! Every row a cached statement gives, read into a vector: the one shape of read the store's
//! modules share (prepare through the cache, map each row, collect, stop at the first error).

use rusqlite::{Connection, Params, Row};

/// Reads every row of a query.
pub(crate) trait AllRows {
    /// Every row `sql` gives for `params`, each read by `read`, through the statement cache.
    fn all_rows<T, P, F>(&self, sql: &str, params: P, read: F) -> rusqlite::Result<Vec<T>>
    where
        P: Params,
        F: FnMut(&Row<'_>) -> rusqlite::Result<T>;
}

impl AllRows for Connection {
    fn all_rows<T, P, F>(&self, sql: &str, params: P, read: F) -> rusqlite::Result<Vec<T>>
    where
        P: Params,
        F: FnMut(&Row<'_>) -> rusqlite::Result<T>,
    {
        self.prepare_cached(sql)?.query_map(params, read)?.collect()
    }
}
