/** Agents area (spec §2.10, §4.3): favorite agents. */
import { Schema } from "effect"
import { CountString, QueryInt, Uuid, WireString } from "./common.js"

/** Agent verification states (spec §3). */
export const VerificationState = Schema.Literal("UNVERIFIED", "PARTIAL", "VERIFIED", "EXPIRED", "REVOKED", "CONFLICTED")

/** Favorite agent item (spec §2.10). `rank` and `starCount` are digit strings. */
export const FavoriteAgent = Schema.Struct({
  publicId: Uuid,
  canonicalSlug: Schema.String.pipe(Schema.minLength(1)),
  name: Schema.String,
  rank: Schema.NullOr(CountString),
  tagline: Schema.NullOr(Schema.String),
  description: Schema.String,
  starCount: CountString,
  verificationState: VerificationState
}).annotations({ identifier: "FavoriteAgent" })
export type FavoriteAgent = typeof FavoriteAgent.Type

/** Query of Agents_ListFavoriteAgents: limit 1-100 (default 25), cursor 1-2048 chars. */
export const ListFavoriteAgentsQuery = Schema.Struct({
  limit: QueryInt({ min: 1, max: 100, default: 25 }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true })
})
