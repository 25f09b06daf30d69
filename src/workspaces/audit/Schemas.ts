/**
 * The workspace's audit trail as its OWNERs and ADMINs read it (Workspaces_ListAuditEvents;
 * layers/Audit.ts writes it, docs/audit.md lists the actions).
 */
import { Schema } from "effect"
import { DateTimeZ, QueryInt, Uuid, WireString } from "../../../schema/common.js"

/**
 * AuditEvent: one sensitive action. `actor` is the account that acted (null for the
 * platform itself), `target` what was acted on (`type` such as `api_key`, `member`,
 * `workspace`; `id` its id), `details` non-secret facts (roles, states, counts),
 * `clientAddress` the caller's address and `requestId` the request's `X-Request-Id`
 * (null when the action ran outside a request).
 */
export const AuditEvent = Schema.Struct({
  publicId: Uuid,
  action: Schema.String,
  actor: Schema.NullOr(Schema.Struct({ publicId: Uuid, displayName: Schema.String })),
  target: Schema.Struct({ type: Schema.String, id: Schema.String }),
  details: Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean, Schema.Null) }),
  clientAddress: Schema.NullOr(Schema.String),
  requestId: Schema.NullOr(Uuid),
  createdAt: DateTimeZ
}).annotations({ identifier: "AuditEvent" })
export type AuditEvent = typeof AuditEvent.Type

/**
 * Query of Workspaces_ListAuditEvents: `limit` 1-100 (default 50), `cursor` (max 2048),
 * `action` (an exact action name such as `api_key.created`, 1-100 characters) and `since`
 * (date-time: only events at or after it).
 */
export const ListAuditEventsQuery = Schema.Struct({
  limit: QueryInt({ min: 1, max: 100, default: 50 }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true }),
  action: Schema.optionalWith(WireString(1, 100), { exact: true }),
  since: Schema.optionalWith(DateTimeZ, { exact: true })
})
