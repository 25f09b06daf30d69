/** HTTP handlers of the Admin area: the job runs view (Admin_ListJobRuns). */
import { Effect } from "effect"
import { Jobs } from "../../layers/Jobs.js"
import { Api } from "../api/Api.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"

export const AdminHttpLive = group(Api, "Admin", (handlers) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    const envelope = yield* Envelope
    return handlers.handle("listJobRuns", ({ urlParams }) =>
      jobs.recent({ limit: urlParams.limit, state: urlParams.state }).pipe(Effect.orDie, Effect.flatMap(envelope.data)))
  }))
