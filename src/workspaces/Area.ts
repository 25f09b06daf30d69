/** The workspaces area: workspaces. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { WorkspacesHttpLive } from "./Http.js"
import { migrations } from "./Migrations.js"
import { Workspaces } from "./Workspaces.js"
import { Invitations } from "./invitations/Invitations.js"
import { InvitationExpiryLive } from "./invitations/ExpiryWorkflow.js"
import { Members } from "./members/Members.js"

/** The workspaces area's handlers (see `src/Area.ts`). */
export const WorkspacesArea = {
  name: "workspaces",
  http: WorkspacesHttpLive.pipe(Layer.provide([Workspaces.Default])).pipe(Layer.provide([Invitations.Default, Members.Default])),
  workflows: InvitationExpiryLive,
  migrations
} satisfies Area
