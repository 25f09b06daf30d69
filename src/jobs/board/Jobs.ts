/**
 * Domain rules of the job board (docs/jobs.md): Jobs_ListJobs and Jobs_GetJob. The REST handlers (Http.ts) and
 * the MCP tools `search_jobs` and `get_job` (src/mcpServer/Tools.ts) call these, so they answer the same jobs
 * in the same order. Requires `SqlClient` and `Cursor`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { now } from "../../../layers/Clock.js"
import { Cursor } from "../../../layers/Cursor.js"
import { InvalidCursor, InvalidRequest } from "../../../schema/errors.js"
import { textSearch } from "../../db/textSearch.js"
import { JobNotFound } from "./Errors.js"
import { type JobBoardFilters, JobBoardRepo, JobPosition } from "./Repo.js"
import type { Job, ListJobsQuery } from "./Schemas.js"

/** A filter's values in one spelling: duplicates dropped, sorted (so the cursor binding ignores their order). */
const normalised = <A extends string>(values: ReadonlyArray<A>): ReadonlyArray<A> => [...new Set(values)].sort()

/** The 400 of query parameters that need `asset` (units of different assets do not compare). */
const needsAsset = (pointers: ReadonlyArray<string>) =>
  new InvalidRequest({
    detail: `${pointers.map((p) => p.slice(1)).join(", ")} need(s) \`asset\`: reward units compare within one asset.`,
    errors: pointers.map((pointer) => ({ in: "query" as const, pointer, detail: "needs asset" }))
  })

export class JobBoard extends Effect.Service<JobBoard>()("agent-directory/JobBoard", {
  effect: Effect.gen(function*() {
    const repo = yield* JobBoardRepo
    const cursor = yield* Cursor
    const sql = yield* SqlClient.SqlClient

    /**
     * Jobs_ListJobs: one page of the board's jobs matching the query, in its sort (absent: `relevance` with
     * `q`, else `newest`), with the cursor of the next page (null on the last). The cursor is bound to the
     * filters, `q`, the sort and `caller` (a principal scope such as `api-key:<uuid>` or `anonymous`), not to
     * `limit`. Fails with `InvalidRequest` (`minReward`, `maxReward` or `sort=reward` without `asset`) or
     * `InvalidCursor`.
     */
    const list = (query: ListJobsQuery, caller: string): Effect.Effect<
      { readonly rows: ReadonlyArray<Job>; readonly nextCursor: string | null },
      InvalidRequest | InvalidCursor
    > =>
      Effect.gen(function*() {
        if (query.asset === undefined) {
          const missing = [
            ...(query.minReward === undefined ? [] : ["/minReward"]),
            ...(query.maxReward === undefined ? [] : ["/maxReward"]),
            ...(query.sort === "reward" ? ["/sort"] : [])
          ]
          if (missing.length > 0) return yield* needsAsset(missing)
        }
        const filters: JobBoardFilters = {
          kinds: normalised(query.kinds),
          skills: normalised(query.skills),
          protocols: normalised(query.protocols),
          network: query.network,
          asset: query.asset?.toUpperCase(),
          minReward: query.minReward,
          maxReward: query.maxReward,
          deadlineAfter: query.deadlineAfter,
          deadlineBefore: query.deadlineBefore,
          search: query.q === undefined ? undefined : yield* textSearch(sql, query.q, null)
        }
        const sort = query.sort ?? (query.q === undefined ? "newest" : "relevance")
        const at = yield* now
        const page = yield* cursor.page({
          position: JobPosition,
          cursor: query.cursor,
          param: "cursor",
          binding: {
            operation: "Jobs_ListJobs",
            principal: caller,
            sort: sort === "relevance" && query.q === undefined ? "newest" : sort,
            q: query.q ?? null,
            filters: JSON.stringify([
              filters.kinds,
              filters.skills,
              filters.protocols,
              filters.network ?? null,
              filters.asset ?? null,
              filters.minReward?.toString() ?? null,
              filters.maxReward?.toString() ?? null,
              filters.deadlineAfter?.toISOString() ?? null,
              filters.deadlineBefore?.toISOString() ?? null
            ])
          },
          limit: query.limit,
          fetch: (after, take) => repo.list(filters, sort, after, take, at),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((row) => row.job), nextCursor: page.nextCursor }
      })

    /** Jobs_GetJob: the job (an OPEN bounty or a listed partner job). Fails with `JobNotFound` (`job-not-found`). */
    const get = (jobId: string): Effect.Effect<Job, JobNotFound> =>
      Effect.gen(function*() {
        const job = yield* repo.find(jobId.toLowerCase(), yield* now)
        if (job === undefined) {
          return yield* new JobNotFound({ detail: "No OPEN bounty or listed partner job has this id." })
        }
        return job
      })

    return { list, get }
  }),
  dependencies: [JobBoardRepo.Default]
}) {}
