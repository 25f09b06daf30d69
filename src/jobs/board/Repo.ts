/**
 * SQL of the job board (docs/jobs.md): OPEN bounties (`bounties`) and listed partner jobs (`partner_jobs` of an
 * ACTIVE or DEGRADED source, not withdrawn) read as one list. Each kind is one branch with its own filters,
 * keyset condition, order and limit (served by migration 0058's indexes); the outer query merges the two pages.
 */
import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { TextSearch } from "../../db/textSearch.js"
import { Job, type JobKind, type JobSort } from "./Schemas.js"

/**
 * Keyset position on the board: the sort key of the row as text (`postedAt` with microseconds; the deadline
 * with microseconds, "" for none; the reward units; the relevance, 9 decimals) and the job id, which breaks
 * ties. Which sort it belongs to is in the cursor's binding.
 */
export const JobPosition = Schema.Tuple(Schema.String, Schema.String)
export type JobPosition = typeof JobPosition.Type

/** The board's filters in the repository's terms (an empty array does not filter). */
export interface JobBoardFilters {
  readonly kinds: ReadonlyArray<JobKind>
  readonly skills: ReadonlyArray<string>
  readonly protocols: ReadonlyArray<string>
  readonly network: string | undefined
  readonly asset: string | undefined
  readonly minReward: bigint | undefined
  readonly maxReward: bigint | undefined
  readonly deadlineAfter: Date | undefined
  readonly deadlineBefore: Date | undefined
  /** The resolved text query, absent without `q`. */
  readonly search: TextSearch | undefined
}

/** The columns one branch reads a job from (SQL expressions over its tables). */
interface Branch {
  readonly kind: JobKind
  readonly from: Statement.Fragment
  readonly listed: (at: Date) => Statement.Fragment
  readonly id: Statement.Fragment
  readonly document: Statement.Fragment
  readonly skills: Statement.Fragment
  readonly protocols: Statement.Fragment
  readonly units: Statement.Fragment
  readonly asset: Statement.Fragment
  readonly network: Statement.Fragment
  readonly deadline: Statement.Fragment
  readonly posted: Statement.Fragment
  readonly wire: Statement.Fragment
}

const Row = Schema.Struct({ job: Job, sortKey: Schema.String })

export class JobBoardRepo extends Effect.Service<JobBoardRepo>()("agent-directory/JobBoardRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const micro = (t: Statement.Fragment) => sql`to_char(${t} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

    const bounty: Branch = {
      kind: "BOUNTY",
      from: sql`bounties b LEFT JOIN assets a ON a.id = b.asset_id`,
      listed: (at) => sql`b.state = 'OPEN' AND (b.deadline_at IS NULL OR b.deadline_at > ${at})`,
      id: sql`b.id`,
      document: sql`job_search_document(b.title, b.description)`,
      skills: sql`b.required_skills`,
      protocols: sql`b.required_protocols`,
      units: sql`b.escrow_units`,
      asset: sql`upper(COALESCE(a.symbol, a.id::text))`,
      network: sql`b.escrow_network`,
      deadline: sql`b.deadline_at`,
      posted: sql`b.created_at`,
      wire: sql`json_build_object('id', b.id, 'kind', 'BOUNTY',
        'source', json_build_object('kind', 'BOUNTY', 'bountyId', b.id, 'sourceId', NULL, 'sourceCode', NULL,
          'externalId', NULL, 'url', NULL),
        'title', b.title, 'description', NULLIF(b.description, ''),
        'reward', json_build_object('units', b.escrow_units::text, 'asset', upper(COALESCE(a.symbol, a.id::text)),
          'network', b.escrow_network),
        'deadlineAt', api_ts(b.deadline_at), 'skills', to_json(b.required_skills), 'protocols', to_json(b.required_protocols),
        'postedAt', api_ts(b.created_at))`
    }

    const partner: Branch = {
      kind: "PARTNER",
      from: sql`partner_jobs j JOIN partner_job_sources s ON s.id = j.source_id`,
      listed: (at) =>
        sql`s.state IN ('ACTIVE', 'DEGRADED') AND j.withdrawn_at IS NULL AND (j.closes_at IS NULL OR j.closes_at > ${at})`,
      id: sql`j.id`,
      document: sql`job_search_document(j.title, j.description)`,
      skills: sql`j.skills`,
      protocols: sql`j.protocols`,
      units: sql`j.reward_units`,
      asset: sql`j.reward_asset`,
      network: sql`j.reward_network`,
      deadline: sql`j.closes_at`,
      posted: sql`j.posted_at`,
      wire: sql`json_build_object('id', j.id, 'kind', 'PARTNER',
        'source', json_build_object('kind', 'PARTNER', 'bountyId', NULL, 'sourceId', s.id, 'sourceCode', s.code,
          'externalId', j.external_id, 'url', j.url),
        'title', j.title, 'description', j.description,
        'reward', CASE WHEN j.reward_units IS NULL THEN NULL ELSE json_build_object('units', j.reward_units::text,
          'asset', j.reward_asset, 'network', j.reward_network) END,
        'deadlineAt', api_ts(j.closes_at), 'skills', to_json(j.skills), 'protocols', to_json(j.protocols),
        'postedAt', api_ts(j.posted_at))`
    }

    /** The conditions of `f` on branch `b` (the text query as `query`, a `tsquery` fragment). */
    const filterClauses = (b: Branch, f: JobBoardFilters, at: Date, query: Statement.Fragment | undefined) => [
      b.listed(at),
      ...(f.skills.length === 0 ? [] : [sql`${b.skills} && ${pgTextArray(f.skills)}::text[]`]),
      ...(f.protocols.length === 0 ? [] : [sql`${b.protocols} && ${pgTextArray(f.protocols)}::text[]`]),
      // a network named by key or by CAIP-2 id matches a reward on either spelling
      ...(f.network === undefined ? [] : [sql`${b.network} IN (${f.network},
        COALESCE((SELECT n.caip2 FROM networks n WHERE n.key = ${f.network}), ''),
        COALESCE((SELECT n.key FROM networks n WHERE n.caip2 = ${f.network}), ''))`]),
      ...(f.asset === undefined ? [] : [sql`${b.asset} = ${f.asset.toUpperCase()}`]),
      ...(f.minReward === undefined ? [] : [sql`${b.units} >= ${f.minReward.toString()}::numeric`]),
      ...(f.maxReward === undefined ? [] : [sql`${b.units} <= ${f.maxReward.toString()}::numeric`]),
      ...(f.deadlineAfter === undefined ? [] : [sql`${b.deadline} > ${f.deadlineAfter}`]),
      ...(f.deadlineBefore === undefined ? [] : [sql`${b.deadline} < ${f.deadlineBefore}`]),
      ...(query === undefined ? [] : [sql`${b.document} @@ ${query}`])
    ]

    /** Per sort: the key as text, the keyset condition after a position, and the order, of a branch. */
    const sortOf = (b: Branch, sort: JobSort, query: Statement.Fragment | undefined) => {
      switch (sort) {
        case "relevance": {
          const score = sql`round(ts_rank(${b.document}, ${query!}, 32)::numeric, 9)`
          return {
            key: sql`${score}::text`,
            after: ([k, id]: JobPosition) => sql`(${score} < ${k}::numeric OR (${score} = ${k}::numeric AND ${b.id} > ${id}::uuid))`,
            order: sql`${score} DESC, ${b.id}`
          }
        }
        case "newest":
          return {
            key: micro(b.posted),
            after: ([k, id]: JobPosition) => sql`(${b.posted}, ${b.id}) < (${k}::timestamptz, ${id}::uuid)`,
            order: sql`${b.posted} DESC, ${b.id} DESC`
          }
        case "deadline":
          return {
            key: sql`COALESCE(${micro(b.deadline)}, '')`,
            after: ([k, id]: JobPosition) =>
              k === ""
                ? sql`(${b.deadline} IS NULL AND ${b.id} > ${id}::uuid)`
                : sql`(${b.deadline} > ${k}::timestamptz OR ${b.deadline} IS NULL
                    OR (${b.deadline} = ${k}::timestamptz AND ${b.id} > ${id}::uuid))`,
            order: sql`${b.deadline} ASC NULLS LAST, ${b.id}`
          }
        case "reward":
          return {
            key: sql`${b.units}::text`,
            after: ([k, id]: JobPosition) => sql`(${b.units}, ${b.id}) < (${k}::numeric, ${id}::uuid)`,
            order: sql`${b.units} DESC, ${b.id} DESC`
          }
      }
    }

    /** The outer order over the merged pages' `o_*` columns (the same order as each branch's). */
    const outerOrder: Record<JobSort, Statement.Fragment> = {
      relevance: sql`o_score DESC, o_id`,
      newest: sql`o_posted DESC, o_id DESC`,
      deadline: sql`o_deadline ASC NULLS LAST, o_id`,
      reward: sql`o_units DESC, o_id DESC`
    }

    /** Jobs matching `f`, in `sort` order, strictly after `after`, at most `take`, with their sort keys. */
    const list = (f: JobBoardFilters, sort: JobSort, after: JobPosition | undefined, take: number, at: Date) => {
      if (f.search !== undefined && f.search.tsquery === null) return Effect.succeed([] as ReadonlyArray<typeof Row.Type>)
      const query = f.search === undefined ? undefined : sql`${f.search.tsquery}::tsquery`
      const effective: JobSort = sort === "relevance" && query === undefined ? "newest" : sort
      const branches = [bounty, partner].filter((b) => f.kinds.length === 0 || f.kinds.includes(b.kind))
      const pages = branches.map((b) => {
        const s = sortOf(b, effective, query)
        const where = sql.and([...filterClauses(b, f, at, query), ...(after === undefined ? [] : [s.after(after)])])
        return sql`(SELECT ${b.wire} AS job, ${s.key} AS "sortKey", ${b.id} AS o_id, ${b.posted} AS o_posted,
            ${b.deadline} AS o_deadline, ${b.units} AS o_units,
            ${effective === "relevance" ? sql`round(ts_rank(${b.document}, ${query!}, 32)::numeric, 9)` : sql`0`} AS o_score
          FROM ${b.from} WHERE ${where} ORDER BY ${s.order} LIMIT ${take})`
      })
      return sql`SELECT job, "sortKey" FROM (${sql.join(" UNION ALL ", false)(pages)}) page
          ORDER BY ${outerOrder[effective]} LIMIT ${take}`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(Row)))
      )
    }

    /** The job `id` if it is on the board at `at` (an OPEN bounty, a listed partner job), or none. */
    const find = (id: string, at: Date) =>
      sql`(SELECT ${bounty.wire} AS job FROM ${bounty.from} WHERE ${bounty.id} = ${id} AND ${bounty.listed(at)})
          UNION ALL
          (SELECT ${partner.wire} AS job FROM ${partner.from} WHERE ${partner.id} = ${id} AND ${partner.listed(at)})`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(Schema.Struct({ job: Job })))),
        Effect.map((rows) => rows[0]?.job)
      )

    return {
      /** Jobs matching `filters`, in `sort` order, strictly after `after`, at most `take`, with their positions. */
      list: (filters: JobBoardFilters, sort: JobSort, after: JobPosition | undefined, take: number, at: Date) =>
        Effect.orDie(list(filters, sort, after, take, at)).pipe(
          Effect.map((rows) => rows.map(({ job, sortKey }) => ({ job, position: [sortKey, job.id] as const })))
        ),
      /** The job `id` on the board at `at`, or undefined. */
      find: (id: string, at: Date) => Effect.orDie(find(id, at))
    }
  })
}) {}

/** A PostgreSQL `text[]` literal of keys (the filters' keys have no quote, comma or brace). */
const pgTextArray = (values: ReadonlyArray<string>) => `{${values.join(",")}}`
