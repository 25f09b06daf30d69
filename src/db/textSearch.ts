/**
 * The text query of the service's full-text searches (the directory's `q`, docs/search.md; the job
 * board's `q`, docs/jobs.md): its words, how the database resolves each to a lexeme of the `agent_search`
 * text search configuration (English stemming after `unaccent`, migration 0049), and the PostgreSQL
 * `tsquery` they become. The pure parts need no I/O; {@link resolveWords} is one SQL statement.
 */
import type { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"

/** At most this many words of a query are searched (a 200-character query rarely has more). */
export const MaxQueryWords = 32

/**
 * The words of a text query: accents removed (Unicode NFKD without combining marks), lower case, runs of
 * letters and digits (every other character separates words); at most {@link MaxQueryWords}. `%`, `_` or
 * punctuation alone give no word (and the query matches nothing).
 */
export const queryWords = (q: string): ReadonlyArray<string> =>
  (q.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MaxQueryWords)

/**
 * One query word as the database resolved it: `own`, its lexeme under the `agent_search` text search
 * configuration (null for a stop word, which is dropped); `known`, whether a document of the searched set has
 * that lexeme (always true when the search has no lexicon); `alternatives`, the nearest lexemes of the lexicon by
 * trigram similarity (at least 0.3, at most three), used only when the word is not known (a typo: "wether" →
 * "weather").
 */
export interface ResolvedWord {
  readonly own: string | null
  readonly known: boolean
  readonly alternatives: ReadonlyArray<string>
}

/** A lexeme as a quoted `tsquery` operand (quotes doubled, backslashes escaped). */
const operand = (lexeme: string): string => `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`

/**
 * The `tsquery` text of resolved words: every word must match (`&`); a word matches its own lexeme, as a
 * prefix when it has 3 characters or more (`'rel':*` finds "relay"), or, when it is not known, one of
 * its alternatives. Null when no word has a lexeme: such a query matches nothing.
 */
export const tsqueryText = (words: ReadonlyArray<ResolvedWord>): string | null => {
  const terms = words.flatMap((w) => {
    if (w.own === null) return []
    const own = operand(w.own) + (w.own.length >= 3 ? ":*" : "")
    const alternatives = w.known ? [] : w.alternatives.filter((a) => a !== w.own).map(operand)
    return [`(${[own, ...alternatives].join(" | ")})`]
  })
  return terms.length === 0 ? null : terms.join(" & ")
}

/** A text query ready for SQL: the `tsquery` text (null: matches nothing) and the normalised words joined by spaces. */
export interface TextSearch {
  readonly tsquery: string | null
  readonly words: string
}

const ResolvedWordRow = Schema.Struct({
  own: Schema.NullOr(Schema.String),
  known: Schema.Boolean,
  alternatives: Schema.Array(Schema.String)
})

/**
 * The query words as the database resolves them ({@link ResolvedWord}), in order: each word's lexeme under
 * `agent_search`; with `lexicon` (a table with a trigram-indexed `lexeme text` column holding every lexeme of
 * the searched documents), whether it has that lexeme and its three nearest lexemes (trigram similarity at
 * least 0.3, the `pg_trgm` default threshold of `%`); without, every word is known. Fails with `SqlError`
 * or a `ParseError` (neither expected).
 */
export const resolveWords = (
  sql: SqlClient.SqlClient,
  words: ReadonlyArray<string>,
  lexicon: "agent_search_lexicon" | null
) => {
  if (words.length === 0) return Effect.succeed([] as ReadonlyArray<ResolvedWord>)
  const lookup = lexicon === null
    ? sql`(own.lexeme IS NOT NULL) AS known, '{}'::text[] AS alternatives`
    : sql`(own.lexeme IS NOT NULL AND EXISTS (SELECT 1 FROM ${sql(lexicon)} l WHERE l.lexeme = own.lexeme)) AS known,
        CASE WHEN own.lexeme IS NULL THEN '{}'::text[] ELSE ARRAY(
          SELECT l.lexeme FROM ${sql(lexicon)} l
          WHERE l.lexeme % own.lexeme AND similarity(l.lexeme, own.lexeme) >= 0.3
          ORDER BY similarity(l.lexeme, own.lexeme) DESC, l.lexeme LIMIT 3) END AS alternatives`
  return sql`SELECT own.lexeme AS own, ${lookup}
      FROM jsonb_array_elements_text(${JSON.stringify(words)}::jsonb) WITH ORDINALITY AS w(word, ord)
      LEFT JOIN LATERAL (SELECT x AS lexeme FROM unnest(tsvector_to_array(to_tsvector('agent_search', w.word))) x
                         LIMIT 1) own ON true
      ORDER BY w.ord`.pipe(
    Effect.flatMap(Schema.decodeUnknown(Schema.Array(ResolvedWordRow)))
  ) as Effect.Effect<ReadonlyArray<ResolvedWord>, unknown>
}

/** The {@link TextSearch} of `q`: its words resolved (see {@link resolveWords}). Dies on a storage failure. */
export const textSearch = (
  sql: SqlClient.SqlClient,
  q: string,
  lexicon: "agent_search_lexicon" | null
): Effect.Effect<TextSearch> => {
  const words = queryWords(q)
  return resolveWords(sql, words, lexicon).pipe(
    Effect.orDie,
    Effect.map((resolved) => ({ tsquery: tsqueryText(resolved), words: words.join(" ") }))
  )
}
