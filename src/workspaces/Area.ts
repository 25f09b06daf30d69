/** The workspaces area: workspaces and their lifecycle. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import { AuditLive } from "../../layers/Audit.js"
import { MailLive } from "../../layers/Mail.js"
import type { Area } from "../Area.js"
import { WorkspaceCloseLive } from "./CloseWorkflow.js"
import { WorkspacesHttpLive } from "./Http.js"
import { migrations } from "./Migrations.js"
import { Workspaces } from "./Workspaces.js"
import { AuditEvents } from "./audit/AuditEvents.js"
import { Invitations } from "./invitations/Invitations.js"
import { InvitationExpiryLive } from "./invitations/ExpiryWorkflow.js"
import { Members } from "./members/Members.js"
import { WebhookDeliveryLive } from "./webhooks/Delivery.js"
import { Webhooks } from "./webhooks/Webhooks.js"

/** The workspaces area's handlers, workflows (the end of a closing, invitation expiry, webhook deliveries) and migrations (see `src/Area.ts`). */
export const WorkspacesArea = {
  name: "workspaces",
  http: WorkspacesHttpLive.pipe(Layer.provide([Workspaces.Default, AuditEvents.Default, Invitations.Default, Members.Default, Webhooks.Default])),
  workflows: Layer.mergeAll(WorkspaceCloseLive, InvitationExpiryLive, WebhookDeliveryLive.pipe(Layer.provide(MailLive))).pipe(
    Layer.provide(AuditLive)
  ),
  migrations
} satisfies Area
