/** HTTP handlers of the job board (Jobs_ListJobs, Jobs_GetJob). */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { CurrentPrincipal } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group, principalScope } from "../../http/group.js"
import { JobBoard } from "./Jobs.js"

export const JobBoardHttpLive = group(Api, "JobBoard", (handlers) =>
  Effect.gen(function*() {
    const board = yield* JobBoard
    const envelope = yield* Envelope
    return handlers
      .handle("listJobs", ({ urlParams }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const page = yield* board.list(urlParams, principalScope(principal))
          return yield* envelope.page(page.rows, page.nextCursor)
        }))
      .handle("getJob", ({ path }) => board.get(path.jobId).pipe(Effect.flatMap(envelope.data)))
  }))
