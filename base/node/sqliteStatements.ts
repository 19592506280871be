// Prepared statements kept per connection, for stores whose queries run on hot paths (the service gate on every
// request, the app's documents on every save). No binding import here: the app's database loads its binding lazily.

/** A connection's statements, each prepared once on first use. */
export class StatementCache<S> {
    private readonly statements = new Map<string, S>();

    public constructor(private readonly db: {prepare(sql: string): S}) {}

    public get(sql: string): S {
        let statement = this.statements.get(sql);
        if (statement === undefined) {
            statement = this.db.prepare(sql);
            this.statements.set(sql, statement);
        }
        return statement;
    }
}
