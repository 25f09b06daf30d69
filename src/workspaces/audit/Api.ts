/** The audit trail's endpoint of the Workspaces area, `.add`ed by `../Api.ts`. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Page } from "../../../schema/envelope.js"
import { InvalidCursor, RoleRequired, WorkspaceNotFound } from "../../../schema/errors.js"
import { operation } from "../../api/operation.js"
import { AuditEvent, ListAuditEventsQuery } from "./Schemas.js"

/** GET /api/v1/workspaces/{workspacePublicId}/audit-events. */
export const listAuditEvents = HttpApiEndpoint.get("listAuditEvents", "/api/v1/workspaces/:workspacePublicId/audit-events")
  .setPath(Schema.Struct({ workspacePublicId: Uuid }))
  .setUrlParams(ListAuditEventsQuery)
  .addSuccess(Page(AuditEvent, 100))
  .pipe(
    operation({
      id: "Workspaces_ListAuditEvents",
      permission: "audit.read",
      auth: "required-user",
      cache: "private",
      statuses: [400, 401, 403, 404, 500],
      summary: "The workspace's audit trail (cursor pages, newest first)",
      description: "Extension of ours: the sensitive actions taken in the workspace (API keys created and revoked, " +
        "analytics exports, members and ownership changes, ...; docs/audit.md lists them), newest first, `limit` per " +
        "page (1-100, default 50). Each event names its `action`, its `actor` (null for the platform itself), its " +
        "`target`, non-secret `details`, the `clientAddress` and `requestId` of the request that took it and its " +
        "`createdAt`; never a secret. Filters: `action` (an exact action name) and `since` (events at or after that " +
        "date-time). Pass `nextCursor` back as `cursor` for the next page; it is signed and bound to this workspace, " +
        "caller and filters (any other: 400 `invalid-cursor`). A workspace the caller is not an active member of is " +
        "404 `workspace-not-found` (its existence is not revealed).",
      errors: [WorkspaceNotFound, RoleRequired, InvalidCursor]
    })
  )
