/**
 * The job board (Jobs_ListJobs, Jobs_GetJob; docs/jobs.md): OPEN bounties and partner jobs in one shape,
 * and the list's query.
 */
import { Schema } from "effect"
import { DateTimeZ, QueryInt, QueryList, rule, Units, Uuid, WireString } from "../../../schema/common.js"

/** What a job is: a bounty posted on the directory, or a job of a partner's feed. */
export const JobKind = Schema.Literal("BOUNTY", "PARTNER")
export type JobKind = typeof JobKind.Type

/**
 * Where a job comes from: for a BOUNTY its `bountyId` (the other fields null); for a PARTNER job the partner
 * job source (`sourceId`, `sourceCode`), the partner's own id of the job (`externalId`) and its page (`url`).
 */
export const JobSource = Schema.Struct({
  kind: JobKind,
  bountyId: Schema.NullOr(Uuid),
  sourceId: Schema.NullOr(Uuid),
  sourceCode: Schema.NullOr(Schema.String),
  externalId: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String)
}).annotations({ identifier: "JobSource" })

/**
 * A job's reward: `units`, the integer amount in the asset's smallest unit (a decimal string); `asset`, the
 * asset's symbol (upper case, e.g. `USDC`); `network`, where it is paid (a CAIP-2 chain id such as
 * `eip155:8453`, or a network key).
 */
export const JobReward = Schema.Struct({
  units: Units,
  asset: Schema.String,
  network: Schema.String
}).annotations({ identifier: "JobReward" })

/**
 * One job of the board. `id`: the bounty's id for a BOUNTY, the partner job's board id for a PARTNER job
 * (Jobs_GetJob takes either). `reward` null when the partner's feed does not give one; `deadlineAt`: the
 * bounty's deadline or the partner job's `closesAt`, null when none; `skills` and `protocols`: lower-case
 * keys; `postedAt`: when the bounty was created, or the partner's `postedAt`.
 */
export const Job = Schema.Struct({
  id: Uuid,
  kind: JobKind,
  source: JobSource,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  reward: Schema.NullOr(JobReward),
  deadlineAt: Schema.NullOr(DateTimeZ),
  skills: Schema.Array(Schema.String),
  protocols: Schema.Array(Schema.String),
  postedAt: DateTimeZ
}).annotations({ identifier: "Job" })
export type Job = typeof Job.Type

/** Orders of the board. */
export const JobSort = Schema.Literal("relevance", "newest", "deadline", "reward")
export type JobSort = typeof JobSort.Type

const KeyPattern = /^[a-z0-9][a-z0-9._-]{0,99}$/
const keyRule = "must be a key of 1-100 lower-case letters, digits, '.', '_' or '-'"
const NetworkFilter = Schema.String.pipe(
  Schema.pattern(/^(?:[a-z0-9][a-z0-9._-]{0,99}|[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32})$/),
  Schema.annotations(rule("must be a network key (1-100 lower-case letters, digits, '.', '_' or '-') or a CAIP-2 chain id"))
)
const AssetFilter = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9.]{1,20}$/),
  Schema.annotations(rule("must be an asset symbol of 1-20 letters, digits or '.'"))
)
const Instant = DateTimeZ.annotations(rule("must be an RFC 3339 date-time with a time zone"))

/**
 * Filters of the job board (Jobs_ListJobs, the MCP tool `search_jobs`): `q` (1-200 characters, full-text over
 * title and description), `kinds`, `skills` and `protocols` (repeatable keys: a job with any of them),
 * `network` (a network key or CAIP-2 id: the reward's network), `asset` (a symbol), `minReward`/`maxReward`
 * (units, inclusive, need `asset`), `deadlineAfter`/`deadlineBefore` (exclusive; a job with no deadline does not
 * match them). Filters combine with AND.
 */
export const JobFilters = Schema.Struct({
  q: Schema.optionalWith(WireString(1, 200), { exact: true }),
  kinds: QueryList(JobKind, 2, "must be one of BOUNTY, PARTNER"),
  skills: QueryList(Schema.String.pipe(Schema.pattern(KeyPattern)), 20, keyRule),
  protocols: QueryList(Schema.String.pipe(Schema.pattern(KeyPattern)), 20, keyRule),
  network: Schema.optionalWith(NetworkFilter, { exact: true }),
  asset: Schema.optionalWith(AssetFilter, { exact: true }),
  minReward: Schema.optionalWith(Units.annotations(rule("must be a decimal string of at most 78 digits")), { exact: true }),
  maxReward: Schema.optionalWith(Units.annotations(rule("must be a decimal string of at most 78 digits")), { exact: true }),
  deadlineAfter: Schema.optionalWith(Instant, { exact: true }),
  deadlineBefore: Schema.optionalWith(Instant, { exact: true })
})

/**
 * Query of Jobs_ListJobs: {@link JobFilters}, `sort` (relevance, the default with `q`; newest, the default
 * without; deadline; reward, which needs `asset`), `limit` 1-100 (default 25), `cursor`.
 */
export const ListJobsQuery = Schema.Struct({
  ...JobFilters.fields,
  sort: Schema.optionalWith(JobSort.annotations(rule("must be one of relevance, newest, deadline, reward")), { exact: true }),
  limit: QueryInt({ min: 1, max: 100, default: 25 }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true })
})
export type ListJobsQuery = typeof ListJobsQuery.Type

/** Path of Jobs_GetJob. */
export const JobPath = Schema.Struct({ jobId: Uuid })
