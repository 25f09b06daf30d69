/**
 * What the benchmark's comparison servers (`reference.ts`, `floor.ts`, `bare.ts`) share:
 * the envelope `meta` they answer with and the Schemas of the two reads' bodies.
 */
import { Schema } from "effect"
import { randomUUID } from "node:crypto"

/** A fresh envelope `meta`, as the project's (spec §3.1): a new request id and time per response. */
export const meta = () => ({
  requestId: randomUUID(),
  schemaVersion: "1.0.0",
  buildVersion: "1.0.0-dev",
  generatedAt: new Date().toISOString(),
  freshness: { projectedAt: null, sourceWatermark: null }
})

export const Meta = Schema.Struct({
  requestId: Schema.String,
  schemaVersion: Schema.String,
  buildVersion: Schema.String,
  generatedAt: Schema.String,
  freshness: Schema.Struct({ projectedAt: Schema.Null, sourceWatermark: Schema.Null })
})

/** A row of `GET /api/v1/protocols`. */
export const Protocol = Schema.Struct({
  key: Schema.String,
  name: Schema.String,
  status: Schema.String,
  features: Schema.Array(Schema.String)
})

/** A row of `GET /api/v1/me/sessions`. */
export const Session = Schema.Struct({
  sessionId: Schema.String,
  current: Schema.Boolean,
  createdAt: Schema.String,
  authenticatedAt: Schema.String,
  lastSeenAt: Schema.String,
  expiresAt: Schema.String,
  userAgent: Schema.NullOr(Schema.String)
})

export const ProtocolsBody = Schema.Struct({ data: Schema.Struct({ protocols: Schema.Array(Protocol) }), meta: Meta })
export const SessionsBody = Schema.Struct({ data: Schema.Array(Session), meta: Meta })
